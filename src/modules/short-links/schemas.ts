import { z } from '@hono/zod-openapi';
import { zJsonObject } from '../../lib/openapi';

export const ShortLink = z
  .object({
    code: z.string().openapi({ example: 'aZ3kP9qX' }),
    shortUrl: z.string().openapi({ example: 'https://api.berth.example/s/aZ3kP9qX' }),
    originalUrl: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    clicks: z.number().int(),
    lastClickedAt: z.string().nullable(),
    expiresAt: z.string(),
    expired: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('ShortLink');

export const GenerateBody = z
  .object({
    originalUrl: z.string().trim().min(1).max(2048).openapi({ description: 'An absolute http(s) URL', example: 'https://book.example.com/cart/abc' }),
    metadata: zJsonObject()
      .optional()
      .refine((m) => m === undefined || JSON.stringify(m).length <= 4096, 'must be at most 4 KiB of JSON')
      .openapi({ description: 'Stored with the link and returned with it (at most 4 KiB of JSON)' }),
  })
  .openapi('GenerateShortCode');

export const CodeParams = z.object({
  code: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'code', in: 'path' }, example: 'aZ3kP9qX' }),
});
