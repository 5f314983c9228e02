/**
 * Client side of the per-item InventoryLock Durable Object (durable-objects/inventory-lock.ts);
 * the protocol (request and result types, constants, RPC interface) is in types.ts.
 *
 * Every path that takes time out of an item (bookings from any source, reschedules, holds,
 * drydock) follows one protocol:
 *   1. `reserve` inside the item's object: one D1 read of the item and its allocations, the
 *      reservations still pending in the object added, the engine's check, and on success a pending
 *      reservation (counted by every later check) and the allocation rows to write;
 *   2. the caller does its outside calls (payment) and writes everything in one D1 batch, which
 *      the object runs for it (`writeThrough`: the object's group commit, shared with the item's
 *      other sales in flight; the reservation is settled as the batch commits);
 *   3. after a successful write the caller does not call the object again (a write made elsewhere is
 *      found by the object's next read, by the rows' ids, and counted from D1 from then on). After a
 *      failure, `release` tells the object before answering, so a retry finds the unit free. A
 *      path that deletes allocation rows outright (a sandbox reset) tells the objects of their
 *      items with `forgetDeleted`, so a reservation whose rows went before any read saw them stops
 *      counting at once. A reservation expires on its own after `RESERVATION_TTL_MS`.
 * The SQLite triggers on `allocations` are the last line of defence: a batch that would still
 * overlap an asset or exceed a departure's seats aborts and answers 409 `unavailable`.
 */
import type { Env } from '../../env';
import { carry, countCarriedWrite, type BatchRunner } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { ApiError, reviveError } from '../../lib/errors';
import { createLogger, type Logger } from '../../lib/logger';
import type { CarriedReads, LockItem, LockWriteResult, Reservation, ReserveRefusal, ReserveRequest } from './types';

export {
  RESERVATION_TTL_MS,
  type BookingLine,
  type DrydockLine,
  type HoldLine,
  type NewAllocation,
  type Reservation,
  type ReserveLine,
  type ReserveRefusal,
  type ReserveRequest,
  type ReserveResult,
} from './types';

/** The item's lock object (created, on first use, where LOCK_LOCATION_HINT says: next to D1). */
export const lockOf = (env: Env, itemId: string) =>
  env.INVENTORY_LOCK.get(env.INVENTORY_LOCK.idFromName(itemId), env.LOCK_LOCATION_HINT ? { locationHint: env.LOCK_LOCATION_HINT } : undefined);

/** Lock calls take the caller's context, or a bare env (jobs, tests, scripts). */
type Caller = Ctx | Env;
const envOf = (c: Caller): Env => ('principal' in c ? c.env : c);
const logOf = (c: Caller): Logger => ('principal' in c ? c.log : createLogger({ component: 'lock' }));

export function refusalError(r: ReserveRefusal): ApiError {
  const extra: Record<string, unknown> = {};
  if (r.reasons) extra.reasons = r.reasons;
  if (r.unitsFree !== undefined) extra.unitsFree = r.unitsFree;
  if (r.seatsFree !== undefined) extra.seatsFree = r.seatsFree;
  if (r.conflicts) extra.conflicts = r.conflicts;
  return reviveError(r, { extra, details: r.details });
}

/** A lock request as its caller makes it: with a carried read, `onCarried` receives that read's raw results. */
export type ReserveCall = ReserveRequest & {
  onCarried?(results: NonNullable<CarriedReads['carried']>): void;
  /** With `withItem`: the item as the lock read it. */
  onItem?(item: LockItem): void;
};

/** Reserves inside the item's lock object; throws the refusal as an ApiError (409 `unavailable`, 404, ...). */
export async function reserve(caller: Caller, call: ReserveCall): Promise<Reservation> {
  const { onCarried, onItem, ...req } = call;
  const now = req.now ?? ('principal' in caller ? caller.clock.now() : undefined);
  const res = await lockOf(envOf(caller), req.itemId).reserve(now === undefined ? req : { ...req, now });
  if (res.carried) {
    onCarried?.(res.carried);
    delete res.carried;
  }
  if (res.item) {
    onItem?.(res.item);
    delete res.item;
  }
  if (!res.ok) throw refusalError(res);
  return res;
}

/**
 * A sale's write run by the lock of its first item instead of by the caller (`commit`'s `via`): the
 * object runs it in its group commit, so under a wave of sales of one item their writes and the next
 * reserves' reads share D1 calls, and settles that item's reservations when it commits (the next
 * read need not find them). Answered as `db.batch` answers; a batch D1 refused throws its error's
 * text (the same constraint and trigger messages callers recognise), and wrote nothing.
 */
export function writeThrough(caller: Caller, reservations: readonly Reservation[]): BatchRunner | undefined {
  const first = reservations[0];
  if (!first) return undefined;
  const reservationIds = reservations.filter((r) => r.itemId === first.itemId).map((r) => r.reservationId);
  return async (statements) => {
    const carried = carry(statements);
    let res: LockWriteResult;
    try {
      res = await lockOf(envOf(caller), first.itemId).write({ statements: carried.statements, reservationIds });
    } finally {
      // Counted even when the call failed: whether it landed is not known, and a read cache that checks again costs nothing wrong.
      countCarriedWrite(carried.statements);
    }
    if (!res.ok) throw new Error(res.error);
    return carried.take(res.results);
  };
}

/**
 * Tells the lock the reservation was abandoned. Never throws: a lost release only keeps an abandoned
 * unit until the TTL.
 */
export async function release(caller: Caller, r: Pick<Reservation, 'itemId' | 'reservationId'>): Promise<void> {
  try {
    await lockOf(envOf(caller), r.itemId).release(r.reservationId);
  } catch (err) {
    logOf(caller).warn('reservation release failed', { itemId: r.itemId, reservationId: r.reservationId, error: String(err) });
  }
}

export async function releaseAll(caller: Caller, rs: Pick<Reservation, 'itemId' | 'reservationId'>[]): Promise<void> {
  await Promise.all(rs.map((r) => release(caller, r)));
}

/**
 * Allocation rows deleted outright (`deleteAllocationsOf`): tells each item's lock, so reservations
 * that became these rows stop counting even if no read saw them before they went. Never throws: a
 * lost call only keeps such a reservation until the TTL.
 */
export async function forgetDeleted(caller: Caller, rows: { itemId: string; id: string }[]): Promise<void> {
  const byItem = new Map<string, string[]>();
  for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r.id]);
  await Promise.all(
    [...byItem].map(async ([itemId, ids]) => {
      try {
        await lockOf(envOf(caller), itemId).forget(ids);
      } catch (err) {
        logOf(caller).warn('lock forget failed', { itemId, error: String(err) });
      }
    }),
  );
}

/**
 * Reserves several lines all-or-nothing (a multi-item order or a bundle), one item at a time in a
 * fixed order (by item id, then request order), releasing what it took when one is refused.
 * Returns the reservations in the order of `reqs`.
 */
export async function reserveAll(caller: Caller, reqs: ReserveCall[]): Promise<Reservation[]> {
  const order = reqs.map((r, i) => ({ r, i })).sort((a, b) => (a.r.itemId < b.r.itemId ? -1 : a.r.itemId > b.r.itemId ? 1 : a.i - b.i));
  const out: Reservation[] = new Array(reqs.length);
  const taken: Reservation[] = [];
  try {
    for (const { r, i } of order) {
      const res = await reserve(caller, r);
      taken.push(res);
      out[i] = res;
    }
  } catch (err) {
    await releaseAll(caller, taken);
    throw err;
  }
  return out;
}

/** A D1 batch aborted by the allocation guards (the database-level backstop against double sales). */
export function isAllocationConflict(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /allocation_conflict/.test(`${e?.message ?? err} ${String(e?.cause ?? '')}`);
}

export const backstopConflict = () => new ApiError('unavailable', 'The time was taken by another sale at the last moment; nothing was charged or written');
