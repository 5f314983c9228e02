/**
 * Client side of the per-item InventoryLock Durable Object (durable-objects/inventory-lock.ts).
 *
 * Every path that takes time out of an item (bookings from any source, reschedules, holds,
 * drydock) follows one protocol:
 *   1. `reserve` inside the item's object: it reads the item and its allocations from D1, adds the
 *      reservations still pending in the object, checks with the engine, and on success keeps a
 *      pending reservation (counted by every later check) and returns the allocation rows to write;
 *   2. the caller does its outside calls (payment) and writes everything in one D1 batch;
 *   3. `release` drops the pending reservation (after the write, or after a failure so nothing is
 *      left behind). A reservation expires on its own after `RESERVATION_TTL_MS`.
 * The SQLite triggers on `allocations` are the last line of defence: a batch that would still
 * overlap an asset or exceed a departure's seats aborts and answers 409 `unavailable`.
 */
import type { Env } from '../../env';
import { ApiError, reviveError } from '../../lib/errors';
import type { AllocationRow } from './state';
import type { Departure, Reason } from './engine';

export const RESERVATION_TTL_MS = 120_000;

interface LineBase {
  /** Id of the booking, hold or drydock period that will own the allocations. */
  sourceId: string;
  start: number;
  end: number;
  /** Allocations of these sources are ignored (the booking being rescheduled, the drydock being moved). */
  excludeSourceIds?: string[];
}

export interface BookingLine extends LineBase {
  kind: 'booking';
  quantity?: number;
  assetIds?: string[];
  /** Assets to keep when still free (a reschedule keeps its boats when it can). */
  preferAssetIds?: string[];
  seats?: number;
  privateCharter?: boolean;
  enforceRules: boolean;
  /** The renter's e-mail: their own active holds on the item do not block them, and are consumed. */
  holdEmail?: string;
  /**
   * A sale held until this instant (an OCTO reservation): the rows are written as `hold`
   * allocations with this expiry, so the time is given back by itself when the hold lapses.
   */
  expiresAt?: number;
}

export interface HoldLine extends LineBase {
  kind: 'hold';
  expiresAt: number;
}

export interface DrydockLine extends LineBase {
  kind: 'drydock';
  /** null: the whole item (every asset, and assets added later). */
  assetIds: string[] | null;
}

export type ReserveLine = BookingLine | HoldLine | DrydockLine;

export interface ReserveRequest {
  customerId: string;
  itemId: string;
  /** The item version the caller priced with; a different one answers 409 `version_conflict`. */
  expectVersion?: number;
  line: ReserveLine;
}

export type NewAllocation = Omit<AllocationRow, 'createdAt'>;

export interface Reservation {
  ok: true;
  reservationId: string;
  itemId: string;
  version: number;
  allocations: NewAllocation[];
  /** Rentals: the assets taken. */
  assetIds: string[];
  /** Holds of the renter's e-mail that the booking uses up. */
  consumedHoldIds: string[];
  departure?: Departure;
  expiresAt: number;
}

export interface ReserveRefusal {
  ok: false;
  status: number;
  code: string;
  message: string;
  reasons?: Reason[];
  unitsFree?: number | null;
  seatsFree?: number;
  conflicts?: { sourceId: string; kind: string; assetId: string | null; start: string; end: string }[];
  details?: { field?: string; message: string }[];
}

export type ReserveResult = Reservation | ReserveRefusal;

export const lockOf = (env: Env, itemId: string) => env.INVENTORY_LOCK.get(env.INVENTORY_LOCK.idFromName(itemId));

export function refusalError(r: ReserveRefusal): ApiError {
  const extra: Record<string, unknown> = {};
  if (r.reasons) extra.reasons = r.reasons;
  if (r.unitsFree !== undefined) extra.unitsFree = r.unitsFree;
  if (r.seatsFree !== undefined) extra.seatsFree = r.seatsFree;
  if (r.conflicts) extra.conflicts = r.conflicts;
  return reviveError(r, { extra, details: r.details });
}

/** Reserves inside the item's lock object; throws the refusal as an ApiError (409 `unavailable`, 404, ...). */
export async function reserve(env: Env, req: ReserveRequest): Promise<Reservation> {
  const res = (await lockOf(env, req.itemId).reserve(req)) as ReserveResult;
  if (!res.ok) throw refusalError(res);
  return res;
}

/** Drops a pending reservation. Never throws (a lost release only delays the unit by the TTL). */
export async function release(env: Env, r: Pick<Reservation, 'itemId' | 'reservationId'>): Promise<void> {
  try {
    await lockOf(env, r.itemId).release(r.reservationId);
  } catch (err) {
    console.log(JSON.stringify({ level: 'warn', msg: 'reservation release failed', itemId: r.itemId, reservationId: r.reservationId, error: String(err) }));
  }
}

export async function releaseAll(env: Env, rs: Pick<Reservation, 'itemId' | 'reservationId'>[]): Promise<void> {
  await Promise.all(rs.map((r) => release(env, r)));
}

/**
 * Reserves several lines all-or-nothing (a multi-item order or a bundle), one item at a time in a
 * fixed order (by item id, then request order), releasing what it took when one is refused.
 * Returns the reservations in the order of `reqs`.
 */
export async function reserveAll(env: Env, reqs: ReserveRequest[]): Promise<Reservation[]> {
  const order = reqs.map((r, i) => ({ r, i })).sort((a, b) => (a.r.itemId < b.r.itemId ? -1 : a.r.itemId > b.r.itemId ? 1 : a.i - b.i));
  const out: Reservation[] = new Array(reqs.length);
  const taken: Reservation[] = [];
  try {
    for (const { r, i } of order) {
      const res = await reserve(env, r);
      taken.push(res);
      out[i] = res;
    }
  } catch (err) {
    await releaseAll(env, taken);
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
