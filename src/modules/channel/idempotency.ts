import { and, eq, lt } from 'drizzle-orm';
import { channelFail } from './errors';
import type { Ctx } from '../../lib/context';
import type { DB } from '../../db/client';
import { channelIdempotency } from '../../db/schema/channel';
import { sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { wallClock } from '../../lib/clock';

/**
 * A key's lifetime and an abandoned claim's lease run on real time: the reseller retries on its own
 * clock, whatever the seller's clock (lib/clock.ts).
 */
const leaseNow = (): number => wallClock.now();

/** Keys are kept 48 hours (the contract promises at least 24). */
export const IDEMPOTENCY_TTL_MS = 48 * 3600_000;
/** An in-flight claim older than this is considered abandoned (the worker died mid-request). */
export const STALE_CLAIM_MS = 60_000;

export type Claim = { kind: 'claimed'; id: string } | { kind: 'replay'; body: Record<string, unknown> } | { kind: 'takeover'; id: string };
type ClaimRow = typeof channelIdempotency.$inferSelect;

export const requestHash = (fields: Record<string, unknown>) => sha256Hex(JSON.stringify(fields));

/**
 * The claim as two statements for the caller's first batch: the INSERT (unique scope+key, so of
 * racing requests exactly one inserts) and the read of the row that holds the key afterwards
 * (this request's, or the one that was there). Settle them with `settleClaim`.
 */
export function claimStatements(ctx: Ctx, scope: string, key: string, hash: string) {
  const now = leaseNow();
  const id = newId('idem');
  return {
    id,
    now,
    insert: ctx.db
      .insert(channelIdempotency)
      .values({ id, scope, key, requestHash: hash, status: 'in_flight', claimedAt: now, expiresAt: now + IDEMPOTENCY_TTL_MS })
      .onConflictDoNothing(),
    read: ctx.db
      .select()
      .from(channelIdempotency)
      .where(and(eq(channelIdempotency.scope, scope), eq(channelIdempotency.key, key))),
  };
}

/**
 * Outcomes follow the contract: a completed key with the same request replays; the same key still
 * in flight is 409 `booking_in_progress`; the same key with a different request is 422
 * `idempotency_key_reuse`. `row` is the row that holds the key after this request's INSERT (read in
 * the same batch); `ourId` the id this request inserted with. The rare paths (an expired key, an
 * abandoned claim to take over) cost more round trips.
 */
export async function settleClaim(ctx: Ctx, row: ClaimRow | undefined, ourId: string, scope: string, key: string, hash: string): Promise<Claim> {
  const now = leaseNow();
  if (row?.id === ourId) return { kind: 'claimed', id: ourId };
  if (!row) return claim(ctx, scope, key, hash); // released between the insert and the read
  if (row.expiresAt < now) {
    await ctx.db.delete(channelIdempotency).where(and(eq(channelIdempotency.id, row.id), lt(channelIdempotency.expiresAt, now)));
    return claim(ctx, scope, key, hash);
  }
  if (row.requestHash !== hash)
    throw channelFail('idempotency_key_reuse', 'This Idempotency-Key was used for a different request (product, window, quantity or price)');
  if (row.status === 'completed' && row.responseBody) return { kind: 'replay', body: row.responseBody };
  if (now - row.claimedAt > STALE_CLAIM_MS) {
    // Take over an abandoned claim with compare-and-swap on claimedAt, so only one retry wins.
    const res = await ctx.db
      .update(channelIdempotency)
      .set({ claimedAt: now })
      .where(and(eq(channelIdempotency.id, row.id), eq(channelIdempotency.claimedAt, row.claimedAt), eq(channelIdempotency.status, 'in_flight')))
      .run();
    if ((res.meta.changes ?? 0) === 1) return { kind: 'takeover', id: row.id };
  }
  throw channelFail('booking_in_progress', 'A request with this Idempotency-Key is still being processed; wait and retry');
}

/**
 * Claims `key` for this request atomically (unique scope+key): the insert, then the holder's row.
 * Takes a bare database handle too (tests and scripts simulate a request in flight with it).
 */
export async function claim(on: Ctx | DB, scope: string, key: string, hash: string): Promise<Claim> {
  const ctx = 'principal' in on ? on : ({ db: on } as Ctx);
  const c = claimStatements(ctx, scope, key, hash);
  let inserted: number;
  try {
    const res = await c.insert.run();
    inserted = res.meta.changes ?? 0;
  } catch (err) {
    throw channelFail('idempotency_unavailable', `The idempotency store is unavailable; retry with the same key (${String(err)})`);
  }
  if (inserted === 1) return { kind: 'claimed', id: c.id };
  return settleClaim(ctx, await c.read.get(), c.id, scope, key, hash);
}

export async function complete(ctx: Ctx, id: string, bookingId: string, body: Record<string, unknown>) {
  await ctx.db.update(channelIdempotency).set({ status: 'completed', bookingId, responseBody: body }).where(eq(channelIdempotency.id, id));
}

/** Frees the key (a real conflict or a refused request): the reseller may reuse it. */
export async function release(ctx: Ctx, id: string) {
  await ctx.db.delete(channelIdempotency).where(and(eq(channelIdempotency.id, id), eq(channelIdempotency.status, 'in_flight')));
}

/** Cron (platform housekeeping, on the job's clock): drop expired keys. */
export async function purgeExpiredKeys(ctx: Ctx) {
  const res = await ctx.db.delete(channelIdempotency).where(lt(channelIdempotency.expiresAt, ctx.clock.now())).run();
  return { purged: res.meta.changes ?? 0 };
}
