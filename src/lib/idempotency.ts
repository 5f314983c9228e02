/**
 * Shared `Idempotency-Key` handling for every operation that creates a booking or moves money.
 * A route declares `idempotent: true` (src/lib/openapi.ts) and gets this middleware after its
 * authentication, so keys are scoped per credential:
 *
 * - no key: the request runs as usual;
 * - a new key: claimed atomically (unique row per credential and key), the request runs, and its
 *   answer (status and body bytes) is stored for 24 hours, unless it is a 5xx (then the key is
 *   freed and a retry runs again);
 * - the same key with the same request (method, path, query and JSON body): the stored answer is
 *   replayed byte for byte with `Idempotent-Replayed: true`;
 * - the same key with a different request: 422 `idempotency_key_reuse`;
 * - the same key while the first request is still running: 409 `request_in_progress`.
 *
 * `commit()` marks the claim in the same D1 batch as the request's first write (`effectStmt`), so
 * a request that wrote and then died (the answer lost) is never run a second time: a retry gets
 * 409 explaining that the effect happened. A claim abandoned before any write is taken over after
 * two minutes.
 *
 * Time: a key's 24-hour expiry is business time, on the caller's clock (a sandbox test clock's
 * operator keeps its keys until its own clock passes their expiry). Whether a claim was abandoned
 * is a technical lease about a request that died, so `claimedAt` is real time (`wallClock`); the
 * housekeeping purge runs on real time too and keeps every key at least 24 real hours.
 */
import type { MiddlewareHandler } from 'hono';
import { and, eq, lt } from 'drizzle-orm';
import type { AppEnv, Ctx } from './context';
import { wallClock, type Clock } from './clock';
import { ApiError } from './errors';
import { newId } from './ids';
import { sha256Hex } from './crypto';
import { getDb, type DB, type Stmt } from '../db/client';
import { idempotencyKeys } from '../db/schema/idempotency';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAY_HEADER = 'Idempotent-Replayed';
/** Keys are kept 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** An in-flight claim older than this, with no write committed, is considered abandoned. */
export const ABANDONED_CLAIM_MS = 120_000;
const MAX_KEY_LENGTH = 255;

/** The OpenAPI description of the header, added to every idempotent operation. */
export const IDEMPOTENCY_DOC = `**Idempotency.** Send \`Idempotency-Key: <unique string>\` (at most ${MAX_KEY_LENGTH} characters, a UUID per attempt chain) to make retries safe: keys are scoped to your credential and kept 24 hours; the same key with the same request replays the stored answer byte for byte with \`Idempotent-Replayed: true\`; the same key with a different request answers 422 \`idempotency_key_reuse\`; the same key while the first request is still running answers 409 \`request_in_progress\`; a 5xx answer is not stored (retry with the same key). Anonymous callers of public operations share one scope: use an unguessable key.`;

/** Canonical JSON (object keys sorted) so that key order does not make two equal bodies differ. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

async function fingerprint(method: string, url: string, body: string): Promise<string> {
  const u = new URL(url);
  let normalized = body;
  try {
    normalized = body ? JSON.stringify(canonical(JSON.parse(body))) : '';
  } catch {
    // not JSON: hash the bytes as sent
  }
  const query = [...u.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return sha256Hex(JSON.stringify([method, u.pathname, query, normalized]));
}

type Row = typeof idempotencyKeys.$inferSelect;
type Claim = { kind: 'claimed'; id: string } | { kind: 'replay'; row: Row };

async function claim(db: DB, clock: Clock, scope: string, key: string, hash: string, depth = 0): Promise<Claim> {
  // Business expiry of the key: the caller's clock.
  const now = clock.now();
  // Technical lease of the claim (has the request died?): real time, whatever the caller's clock.
  const claimedAt = wallClock.now();
  const id = newId('idem');
  const res = await db
    .insert(idempotencyKeys)
    .values({ id, scope, key, requestHash: hash, status: 'in_flight', claimedAt, expiresAt: now + IDEMPOTENCY_TTL_MS })
    .onConflictDoNothing()
    .run();
  if ((res.meta.changes ?? 0) === 1) return { kind: 'claimed', id };
  const row = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    .get();
  if (!row) {
    if (depth > 3) throw new ApiError('request_in_progress', 'A request with this Idempotency-Key is being processed; retry shortly');
    return claim(db, clock, scope, key, hash, depth + 1); // freed between our insert and read
  }
  if (row.expiresAt < now) {
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, row.id), lt(idempotencyKeys.expiresAt, now)));
    return claim(db, clock, scope, key, hash, depth + 1);
  }
  if (row.requestHash !== hash)
    throw new ApiError('idempotency_key_reuse', 'This Idempotency-Key was already used with a different request (method, path or body); use a new key');
  if (row.status === 'completed') return { kind: 'replay', row };
  if (row.effectCommitted) {
    throw new ApiError(
      'request_in_progress',
      `The request with this Idempotency-Key changed data but its answer was lost or it is still finishing; look the result up instead of retrying it with this key`,
    );
  }
  if (claimedAt - row.claimedAt > ABANDONED_CLAIM_MS) {
    // Take over an abandoned claim (compare-and-swap on claimedAt, so one retry wins).
    const taken = await db
      .update(idempotencyKeys)
      .set({ claimedAt })
      .where(
        and(
          eq(idempotencyKeys.id, row.id),
          eq(idempotencyKeys.claimedAt, row.claimedAt),
          eq(idempotencyKeys.status, 'in_flight'),
          eq(idempotencyKeys.effectCommitted, false),
        ),
      )
      .run();
    if ((taken.meta.changes ?? 0) === 1) return { kind: 'claimed', id: row.id };
  }
  throw new ApiError('request_in_progress', 'A request with this Idempotency-Key is still being processed; wait for it and retry');
}

/**
 * The same claims for a key carried in the request itself rather than in the header (the
 * reseller's booking `uuid` of the OCTO supplier API): `fields` are what must be equal for a
 * repeat (hashed like a body). A repeat of a completed key answers `replay` with the stored body;
 * a different request with the key throws 422 `idempotency_key_reuse`, one still in flight 409
 * `request_in_progress` (as the middleware does).
 */
export async function claimKey(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  scope: string,
  key: string,
  fields: unknown,
): Promise<{ kind: 'claimed'; id: string } | { kind: 'replay'; body: string | null }> {
  const got = await claim(ctx.db, ctx.clock, scope, key, await sha256Hex(JSON.stringify(canonical(fields))));
  return got.kind === 'claimed' ? got : { kind: 'replay', body: got.row.responseBody };
}

/** Completes a claim of `claimKey` with the answer to replay. */
export async function completeKey(db: DB, claimId: string, status: number, body: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: 'completed', responseStatus: status, responseType: 'application/json', responseBody: body })
    .where(eq(idempotencyKeys.id, claimId))
    .run();
}

/** Frees a claim of `claimKey` whose request failed before writing (a retry runs again). */
export async function releaseKey(db: DB, claimId: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.id, claimId), eq(idempotencyKeys.effectCommitted, false)))
    .run();
}

/** Forgets every key of a scope (a sandbox reset starts over). */
export async function forgetKeys(db: DB, scope: string): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, scope)).run();
}

/** The statement `commit()` adds to the batch of a request holding a claim: its write happened. */
export const effectStmt = (db: DB, claimId: string): Stmt => db.update(idempotencyKeys).set({ effectCommitted: true }).where(eq(idempotencyKeys.id, claimId));

/** The middleware of routes declared `idempotent: true` (runs after authentication). */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER)?.trim();
  if (!key) return next();
  if (key.length > MAX_KEY_LENGTH)
    throw new ApiError('validation_failed', `Idempotency-Key is longer than ${MAX_KEY_LENGTH} characters`, {
      details: [{ field: IDEMPOTENCY_HEADER, location: 'header', message: `at most ${MAX_KEY_LENGTH} characters` }],
    });
  const db = getDb(c.env.DB);
  const principal = c.get('principal');
  const scope = principal?.credentialId ?? 'anonymous';
  const hash = await fingerprint(c.req.method, c.req.url, await c.req.text());
  // Authentication ran first: the clock is the caller's operator's (a sandbox test clock, or real time).
  const got = await claim(db, c.get('clock') ?? wallClock, scope, key, hash);
  if (got.kind === 'replay') {
    return new Response(got.row.responseBody ?? '', {
      status: got.row.responseStatus ?? 200,
      headers: { 'content-type': got.row.responseType ?? 'application/json', [REPLAY_HEADER]: 'true' },
    });
  }
  c.set('idempotencyClaim', got.id);
  let failed = false;
  try {
    await next();
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    const res = c.res;
    if (failed || !res || res.status >= 500) {
      // Not stored: free the key unless a write already landed (then block reruns; see claim()).
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.id, got.id), eq(idempotencyKeys.effectCommitted, false)))
        .run()
        .catch(() => undefined);
    } else {
      const body = await res.clone().text();
      await db
        .update(idempotencyKeys)
        .set({ status: 'completed', responseStatus: res.status, responseType: res.headers.get('content-type') ?? 'application/json', responseBody: body })
        .where(eq(idempotencyKeys.id, got.id))
        .run();
      res.headers.set(REPLAY_HEADER, 'false');
    }
  }
};

/**
 * Cron (platform housekeeping, on real time `now`): drops the keys that are expired and were
 * claimed at least 24 real hours ago. The second condition keeps the fresh keys of a sandbox test
 * clock frozen in the past (their expiry, on that clock, is already behind real time).
 */
export async function purgeIdempotencyKeys(db: DB, now: number) {
  const res = await db
    .delete(idempotencyKeys)
    .where(and(lt(idempotencyKeys.expiresAt, now), lt(idempotencyKeys.claimedAt, now - IDEMPOTENCY_TTL_MS)))
    .run();
  return { purged: res.meta.changes ?? 0 };
}
