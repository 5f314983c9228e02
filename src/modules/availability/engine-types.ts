/** The engine's model of an item and of a window check. The shared vocabulary (Busy, Reason, Departure) is in types.ts. */
import type { InventoryModel } from '../inventory/types';
import type { Busy, BusyKind, Departure, Reason, ReasonCode } from './types';

export type { Busy, BusyKind, Departure, Reason, ReasonCode };

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
