/**
 * Public vocabulary of availability, and the protocol of the per-item InventoryLock Durable Object
 * (durable-objects/inventory-lock.ts): constants, request and result types and the object's RPC
 * interface. This file imports no module, so the lock object, `src/env.ts` (which types the
 * namespace binding) and the lock's client (lock.ts) can all name the protocol without a cycle
 * (it names two tables' row types, from the schema, which imports nothing of the modules).
 */
import type { inventoryItems } from '../../db/schema/inventory';
import type { locations } from '../../db/schema/locations';

/** A reservation not released by its caller stops counting after this long. */
export const RESERVATION_TTL_MS = 120_000;

export type ReasonCode =
  | 'invalid_window'
  | 'in_past'
  | 'minimum_notice'
  | 'too_far_ahead'
  | 'closed'
  | 'outside_hours'
  | 'no_departure'
  | 'blocked'
  | 'sold_out'
  | 'insufficient_units'
  | 'asset_unavailable'
  | 'capacity_limit';

export interface Reason {
  code: ReasonCode;
  message: string;
}

export interface Departure {
  slotId: string | null;
  /** Local wall-clock start, HH:mm. */
  time: string;
  date: string;
  start: number;
  end: number;
  capacity: number;
}

/** Reservations pending inside the lock object carry the kind they will have once written. */
export type BusyKind = 'booking' | 'hold' | 'drydock' | 'maintenance';

/**
 * Time taken out of an item. `assetId` null means seats of a tour departure (booking, hold,
 * pending) or the whole item (drydock, maintenance). Times are epoch milliseconds.
 */
export interface Busy {
  /** The allocation row id (when it is one): a reservation pending in the lock and its written row are the same time, counted once. */
  id?: string;
  sourceId: string;
  kind: BusyKind;
  assetId: string | null;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  seats: number;
  expiresAt: number | null;
}

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
  /**
   * The seller's "now" (its context's clock, lib/clock.ts): what the check measures the past, the
   * minimum notice and holds' expiry against. `reserve()` fills it from the caller's context; the
   * lock's own reservation leases stay on real time.
   */
  now?: number;
  /**
   * A read of the caller's, run in the lock's own D1 batch (one round trip for both; db/client.ts
   * `carry`). Its raw results come back in `carried`, whether the reservation is made or refused.
   */
  carried?: { sql: string; params: SqlValue[] }[];
  /**
   * Answer the item as the lock read it (`item` of the result, reserved or refused once the item was
   * found): a sale that sells this one item reads it from there instead of reading it again.
   */
  withItem?: boolean;
}

/**
 * A row as it crosses the lock's RPC (structured clone keeps it as it is): its JSON columns typed
 * `object`, since the RPC's types refuse `unknown`; the receiver casts it back to the row type.
 */
export type WireRow<T> = { [K in keyof T]: T[K] extends string | number | boolean | null | undefined ? T[K] : object | null };

/** The item as the lock read it (tenant-scoped): its row, location and assets (engine form). */
export interface LockItem {
  row: WireRow<typeof inventoryItems.$inferSelect>;
  location: WireRow<typeof locations.$inferSelect>;
  assets: { id: string; name: string; status: 'active' | 'inactive'; displayOrder: number }[];
}

/** A value D1 binds or answers (what crosses the lock's RPC in a carried read). */
export type SqlValue = string | number | boolean | null;

/** The raw results of a request's carried read (absent when none was carried or the read itself failed). */
export interface CarriedReads {
  carried?: { results: Record<string, SqlValue>[] }[];
  /** The item, when the request asked `withItem`. */
  item?: LockItem;
}

/** An `allocations` row to write (its `createdAt` is set by the writer). */
export interface NewAllocation {
  id: string;
  customerId: string;
  itemId: string;
  assetId: string | null;
  kind: 'booking' | 'hold' | 'drydock' | 'maintenance';
  sourceId: string;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  seats: number;
  capacity: number | null;
  active: boolean;
  expiresAt: number | null;
}

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

export type ReserveResult = (Reservation & CarriedReads) | (ReserveRefusal & CarriedReads);

/**
 * A sale's write run by its item's lock (`writeThrough` in lock.ts): the statements as SQL text and
 * parameters, run as one D1 batch in the lock's group commit (with the reads and writes of the item's
 * other sales in flight), and the reservations it writes, settled at once when it commits.
 */
export interface LockWrite {
  statements: { sql: string; params: SqlValue[] }[];
  reservationIds: string[];
}

/** A statement's raw D1 result as it crosses the RPC. */
export interface WireResult {
  results: Record<string, SqlValue>[];
  meta: { changes: number; last_row_id: number };
}

/** The write committed (each statement's raw result), or D1 refused it (its error's text: nothing was written). */
export type LockWriteResult = { ok: true; results: WireResult[] } | { ok: false; error: string };

/** What the lock object answers over RPC (the namespace binding `INVENTORY_LOCK` is typed with it). */
export interface InventoryLockRpc extends Rpc.DurableObjectBranded {
  /** Checks a sale, hold or drydock period and, when it fits, keeps it pending and returns the rows to write. */
  reserve(req: ReserveRequest): Promise<ReserveResult>;
  /** Runs a sale's write batch (group commit with the item's other sales); its reservations are settled when it commits. */
  write(req: LockWrite): Promise<LockWriteResult>;
  /** The reservation was abandoned: from now on D1 is the truth for it. */
  release(reservationId: string): Promise<boolean>;
  /** These allocation rows were deleted: the reservations that became them stop counting. */
  forget(allocationIds: string[]): Promise<number>;
  /** Pending reservations (diagnostics and tests). */
  pendingCount(): Promise<number>;
}
