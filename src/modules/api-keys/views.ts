import type { z } from '@hono/zod-openapi';
import type { apiKeys } from '../../db/schema/accounts';
import type { ApiKey } from './schemas';

export type KeyRow = typeof apiKeys.$inferSelect;

/** An API key as the API answers it (`ApiKey`): never the secret or its hash. */
export function keyOut(k: KeyRow): z.output<typeof ApiKey> {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    userId: k.userId,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    createdAt: k.createdAt,
  };
}
