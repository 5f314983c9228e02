/**
 * Keys as the per-credential RateLimiter object holds them. The object a request already calls to
 * count a key's requests (named `key:<sha-256>` for an operator API key, `chan:<sha-256>` for a
 * channel key) also keeps the key's row in memory, so an authenticated request makes ONE call and
 * no D1 read. Revocation stays instant because every change to what a row is made of tells the
 * key's object to forget it, after the change is written:
 *
 * - API keys (`forgetApiKeys`): revoking a key and deleting a user (their keys are revoked);
 *   changing a user's role, permissions, name or e-mail (all keys of that user); changing an
 *   operator's plan (all keys of that operator);
 * - channel keys (`readChannelKeyRecord` and `forgetChannelKeys` in modules/channel/keys.ts):
 *   rotating a key; any change to a channel (status, webhook) or a connection (status, terms, removal).
 *
 * The object never keeps a row read before a `forget` reached it (see RateLimiter.row), and keeps
 * none longer than CREDENTIAL_ROW_TTL_MS, a bound for changes made outside the API.
 */
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { reusable, type DB } from '../db/client';
import { apiKeys, customers, users } from '../db/schema/accounts';
import type { Ctx } from './context';
import type { ApiKeyRow } from './rate-limiter-protocol';

export type { ApiKeyRow } from './rate-limiter-protocol';

/** How long a key's object trusts the row it read (changes through the API are forgotten at once). */
export const CREDENTIAL_ROW_TTL_MS = 60_000;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_EVERY_MS = 5 * 60_000;

/** The rate-limit bucket (and RateLimiter object name) of an API key, by its SHA-256 hex hash. */
export const apiKeyBucket = (hash: string) => `key:${hash}`;

/**
 * The columns a principal is made of (not whole rows: building and mapping every column of three
 * tables, the operator's settings JSON included, was a measurable share of each request's CPU).
 */
export const principalUser = {
  id: users.id,
  customerId: users.customerId,
  role: users.role,
  permissions: users.permissions,
  email: users.email,
  name: users.name,
  idpSubject: users.idpSubject,
};
export const principalCustomer = { plan: customers.plan };

/** The permission that is the admin role (held exactly by admins). */
export const ADMIN_PERMISSION = 'admin';

/**
 * Roles and permissions are one model: a user's role decides whether they hold `admin` (an admin
 * always does, a manager or staff member never does); the other permissions are extra grants, kept
 * once each, in their order. Every write of a user's role or permissions stores this, and
 * authentication reads a principal through it.
 */
export function permissionsOfRole(role: 'admin' | 'manager' | 'staff', permissions: readonly string[]): string[] {
  const grants = [...new Set(permissions.filter((p) => p !== ADMIN_PERMISSION))];
  return role === 'admin' ? [ADMIN_PERMISSION, ...grants] : grants;
}

/** The live key with this hash, its user and its operator's plan (one read, built once per isolate). */
export function readApiKeyRow(db: DB, hash: string): Promise<ApiKeyRow | undefined> {
  return reusable(
    db,
    'auth|apiKey',
    () =>
      db
        .select({
          key: { id: apiKeys.id, customerId: apiKeys.customerId, keyHash: apiKeys.keyHash, lastUsedAt: apiKeys.lastUsedAt },
          user: principalUser,
          customer: principalCustomer,
        })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .leftJoin(customers, eq(customers.id, apiKeys.customerId))
        .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt))),
    { hash },
  ).get() as Promise<ApiKeyRow | undefined>;
}

/** Tells each credential's object (by bucket name) to forget the row it holds (call after the change is written). */
export async function forgetCredentials(ctx: Pick<Ctx, 'env'>, buckets: Iterable<string>): Promise<void> {
  const ns = ctx.env.RATE_LIMITER;
  await Promise.all([...new Set(buckets)].map((b) => ns.get(ns.idFromName(b)).forget()));
}

/** Tells each API key's object to forget the row it holds (call after the change is written). */
export const forgetApiKeyHashes = (ctx: Pick<Ctx, 'env'>, hashes: Iterable<string>) => forgetCredentials(ctx, [...hashes].map(apiKeyBucket));

/**
 * The live keys of some users or of a whole operator, forgotten by their objects; with
 * `revokedSince`, also the keys revoked at or after that instant (by the change itself). Call after
 * the change is written.
 */
export async function forgetApiKeys(ctx: Pick<Ctx, 'env' | 'db'>, of: { customerId: string; userIds?: string[]; revokedSince?: string }): Promise<void> {
  if (of.userIds && !of.userIds.length) return;
  const rows = await ctx.db
    .select({ hash: apiKeys.keyHash })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.customerId, of.customerId),
        of.userIds ? inArray(apiKeys.userId, of.userIds) : undefined,
        of.revokedSince ? or(isNull(apiKeys.revokedAt), gte(apiKeys.revokedAt, of.revokedSince)) : isNull(apiKeys.revokedAt),
      ),
    )
    .all();
  await forgetApiKeyHashes(
    ctx,
    rows.map((r) => r.hash),
  );
}
