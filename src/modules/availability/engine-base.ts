import type { InventoryModel } from '../inventory/types';

export type ItemKind = 'rental' | 'tour';

export interface EngineAsset {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  displayOrder: number;
}

export interface EngineItem {
  id: string;
  kind: ItemKind;
  model: InventoryModel;
  /** The pool (rentals); empty for tours. Inactive assets are never sold. */
  assets: EngineAsset[];
  timezone: string;
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

export interface WindowQuery {
  start: number;
  end: number;
  /** Rentals: assets wanted (default 1). */
  quantity?: number;
  /** Rentals: these assets exactly. */
  assetIds?: string[];
  /** Tours: seats wanted (default 1). A private charter asks for the whole departure (`privateCharter`). */
  seats?: number;
  privateCharter?: boolean;
  /** Busy rows of these sources are ignored (rescheduling a booking over its own time). */
  excludeSourceIds?: string[];
  /**
   * Apply the sales rules (minimum notice, advance window, start in the future). Opening hours,
   * closed days and departures always apply.
   */
  enforceRules?: boolean;
  /** Rentals: skip opening hours and closed days (holds span whole days and nights). */
  ignoreHours?: boolean;
  now: number;
}

export interface WindowCheck {
  available: boolean;
  reasons: Reason[];
  /** Rentals: assets free for the whole window (after capacity overrides); null for tours. */
  unitsFree: number | null;
  /** Tours: seats left on the departure. */
  seatsFree?: number;
  capacity?: number;
  /** Rentals: the free assets in pool order. */
  freeAssetIds: string[];
  departure?: Departure;
}

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export const overlaps = (aStart: number, aEnd: number, bStart: number, bEnd: number) => aStart < bEnd && bStart < aEnd;
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
