/**
 * The api-keys module's face, and the key writes its router calls (create, revoke). Others use it for:
 * - keys with a known secret (the seed, the bench, the test harness): generateKeySecret, keyRow.
 * - a partner's sandbox key: createKey.
 * - a user's keys and revoking them with the user (users): userKeys, revokeUserKeysStmt.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { nowIso } from '../../lib/clock';
import { forgetApiKeyHashes } from '../../lib/credentials';
import type { Stmt } from '../../db/client';
import { apiKeys } from '../../db/schema/accounts';
import { keyInTenant } from './queries';
import { keyOut, type KeyRow } from './views';

export { userKeys } from './queries';

/** Key format: `brk_` + 40 random base62 characters. */
export const generateKeySecret = () => `brk_${randomString(40)}`;

/**
 * The row of a key with a known secret (used by seeding and tests). Without `createdAt` the column's
 * default dates it (the ambient clock of the request or seed that writes it).
 */
export async function keyRow(input: {
  customerId: string;
  userId: string;
  name: string;
  secret: string;
  createdAt?: string;
}): Promise<Omit<KeyRow, 'createdAt'> & { createdAt?: string }> {
  return {
    id: newId('key'),
    customerId: input.customerId,
    userId: input.userId,
    name: input.name,
    keyHash: await sha256Hex(input.secret),
    prefix: input.secret.slice(0, 10),
    lastUsedAt: null,
    revokedAt: null,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  };
}

export async function createKey(ctx: Ctx, name: string) {
  const customerId = tenantOf(ctx);
  const userId = ctx.principal.userId;
  if (!userId) throw new ApiError('no_account', 'Only a user can create API keys');
  const secret = generateKeySecret();
  const row = { ...(await keyRow({ customerId, userId, name, secret })), createdAt: nowIso(ctx) };
  await commit(ctx, [ctx.db.insert(apiKeys).values(row)], { audit: { action: 'api_key.create', targetType: 'api_key', targetId: row.id, details: { name } } });
  return { ...keyOut(row), key: secret };
}

export async function revokeKey(ctx: Ctx, id: string) {
  const row = await keyInTenant(ctx, id);
  const customerId = row.customerId;
  if (row.revokedAt) {
    // Revoked already (a retry, perhaps after the object could not be told): tell it again.
    await forgetApiKeyHashes(ctx, [row.keyHash]);
    return keyOut(row);
  }
  const revokedAt = nowIso(ctx);
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
  // Written: the key's rate-limiter object drops the row it holds, so the next request is refused.
  await forgetApiKeyHashes(ctx, [row.keyHash]);
  return keyOut({ ...row, revokedAt });
}

/** The UPDATE that revokes every live key of a user (in the caller's batch, for example when the user is deleted). */
export function revokeUserKeysStmt(ctx: Ctx, user: { id: string; customerId: string }, at = nowIso(ctx)): Stmt {
  return ctx.db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.userId, user.id), eq(apiKeys.customerId, user.customerId), isNull(apiKeys.revokedAt)));
}
