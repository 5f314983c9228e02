/**
 * Operator API keys as the per-credential RateLimiter object holds them. The object a request
 * already calls to count the key's requests (named `key:<sha-256 of the key>`) also keeps the key's
 * row (key, user, operator plan) in memory, so an authenticated request makes ONE call and no D1
 * read. Revocation stays instant because every change to what a key row is made of tells the key's
 * object to forget it, after the change is written (`forgetApiKeys`):
 *
 * - revoking a key (`DELETE /api-keys/{id}`), and deleting a user (their keys are revoked);
 * - changing a user (role, permissions, name, e-mail): all keys of that user;
 * - changing an operator's plan: all keys of that operator.
 *
 * The object never keeps a row read before a `forget` reached it (see RateLimiter.authenticate),
 * and keeps none longer than API_KEY_ROW_TTL_MS, a bound for changes made outside the API.
 */
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { reusable, type DB } from '../db/client';
import { apiKeys, customers, users } from '../db/schema/accounts';
import type { Env } from '../env';
import type { ApiKeyRow } from './rate-limiter-protocol';

export type { ApiKeyRow } from './rate-limiter-protocol';

/** How long a key's object trusts the row it read (changes through the API are forgotten at once). */
export const API_KEY_ROW_TTL_MS = 60_000;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_EVERY_MS = 5 * 60_000;

/** The rate-limit bucket (and RateLimiter object name) of an API key, by its SHA-256 hex hash. */
export const apiKeyBucket = (hash: string) => `key:${hash}`;

/** The live key with this hash, its user and its operator's plan (one read, built once per isolate). */
export function readApiKeyRow(db: DB, hash: string): Promise<ApiKeyRow | undefined> {
  return reusable(
    db,
    'auth|apiKey',
    () =>
      db
        .select({
          key: { id: apiKeys.id, customerId: apiKeys.customerId, keyHash: apiKeys.keyHash, lastUsedAt: apiKeys.lastUsedAt },
          user: {
            id: users.id,
            customerId: users.customerId,
            role: users.role,
            permissions: users.permissions,
            email: users.email,
            name: users.name,
            idpSubject: users.idpSubject,
          },
          customer: { plan: customers.plan },
        })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .leftJoin(customers, eq(customers.id, apiKeys.customerId))
        .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt))),
    { hash },
  ).get() as Promise<ApiKeyRow | undefined>;
}

/** Tells each key's object to forget the row it holds (call after the change is written). */
export async function forgetApiKeyHashes(env: Env, hashes: Iterable<string>): Promise<void> {
  const unique = [...new Set(hashes)];
  await Promise.all(unique.map((h) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(apiKeyBucket(h))).forget()));
}

/**
 * The live keys of some users or of a whole operator, forgotten by their objects; with
 * `revokedSince`, also the keys revoked at or after that instant (by the change itself). Call after
 * the change is written.
 */
export async function forgetApiKeys(env: Env, db: DB, of: { customerId: string; userIds?: string[]; revokedSince?: string }): Promise<void> {
  if (of.userIds && !of.userIds.length) return;
  const rows = await db
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
    env,
    rows.map((r) => r.hash),
  );
}
