import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound, ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { apiKeys } from '../../db/schema/accounts';

type KeyRow = typeof apiKeys.$inferSelect;

/** Key format: `brk_` + 40 random base62 characters. */
export const generateKeySecret = () => `brk_${randomString(40)}`;

const keyOut = (k: KeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  userId: k.userId,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
  createdAt: k.createdAt,
});

/** Insert statement for a key with a known secret (used by seeding and tests). */
export async function keyRow(input: { customerId: string; userId: string; name: string; secret: string }): Promise<KeyRow> {
  return {
    id: newId('key'),
    customerId: input.customerId,
    userId: input.userId,
    name: input.name,
    keyHash: await sha256Hex(input.secret),
    prefix: input.secret.slice(0, 10),
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date().toISOString(),
  };
}

export async function createKey(ctx: Ctx, name: string) {
  const customerId = tenantOf(ctx);
  const userId = ctx.principal.userId;
  if (!userId) throw new ApiError('no_account', 'Only a user can create API keys');
  const secret = generateKeySecret();
  const row = await keyRow({ customerId, userId, name, secret });
  await commit(ctx, [ctx.db.insert(apiKeys).values(row)], { audit: { action: 'api_key.create', targetType: 'api_key', targetId: row.id, details: { name } } });
  return { ...keyOut(row), key: secret };
}

export async function listKeys(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.customerId, tenantOf(ctx)))
    .orderBy(desc(apiKeys.createdAt))
    .all();
  return { data: rows.map(keyOut) };
}

export async function revokeKey(ctx: Ctx, id: string) {
  const customerId = tenantOf(ctx);
  const row = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.customerId, customerId)))
    .get();
  if (!row) throw notFound('API key');
  if (row.revokedAt) return keyOut(row);
  const revokedAt = new Date().toISOString();
  await commit(
    ctx,
    [
      ctx.db
        .update(apiKeys)
        .set({ revokedAt })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.customerId, customerId), isNull(apiKeys.revokedAt))),
    ],
    {
      audit: { action: 'api_key.revoke', targetType: 'api_key', targetId: id },
    },
  );
  return keyOut({ ...row, revokedAt });
}
