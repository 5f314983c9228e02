import { z } from '@hono/zod-openapi';

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    userId: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('ApiKey');
export const ApiKeyWithSecret = ApiKey.extend({
  key: z.string().openapi({ description: 'The secret; shown only in this response. Send it as `x-api-key`.' }),
}).openapi('ApiKeyWithSecret');
export const CreateBody = z.object({ name: z.string().trim().min(1).max(100) }).openapi('CreateApiKey');
export const IdParam = z.object({ id: z.string().min(1).max(128) });
