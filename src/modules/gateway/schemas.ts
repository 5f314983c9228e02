import { z } from '@hono/zod-openapi';

export const ScopeCatalogue = z
  .object({
    gatewayPrefix: z.string(),
    rateLimitPerMinute: z.number().int(),
    scopes: z.array(z.object({ scope: z.string(), description: z.string(), routes: z.array(z.string()) })),
    denied: z.array(z.object({ reason: z.string(), description: z.string(), routes: z.array(z.string()) })),
    aliases: z.array(z.object({ route: z.string(), servedBy: z.string() })),
  })
  .openapi('ScopeCatalogue');
