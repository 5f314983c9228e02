/** Public vocabulary of marina units. */
export const SLIP_STATUSES = ['available', 'occupied', 'reserved', 'maintenance', 'out_of_service'] as const;
export type SlipStatus = (typeof SLIP_STATUSES)[number];
/** Units in these statuses take no new reservations, transfers or date changes. */
export const CLOSED_SLIP_STATUSES: readonly SlipStatus[] = ['maintenance', 'out_of_service'];

export const UNIT_TYPES = ['slip', 'side_tie', 'mooring', 'dry_rack'] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

/** Boat dimensions in feet for the fit check (null: unknown, not checked). */
export interface BoatDimensions {
  loaFt: number;
  beamFt?: number | null;
  draftFt?: number | null;
  airDraftFt?: number | null;
}

/** A dimension that does not fit, and by how much (feet). */
export interface FitRefusal {
  dimension: 'length' | 'beam' | 'draft' | 'air_draft';
  /** What the boat needs (with clearances) and what the unit offers (with the overhang allowance). */
  requiredFt: number;
  availableFt: number;
  shortByFt: number;
  message: string;
}

/** Monthly price of one slip of the slip subscription, in cents (spec Limits: 10 dollars per slip per month). */
export const SLIP_UNIT_PRICE_CENTS = 1000;
