/**
 * Public vocabulary of slip reservations and the protocol of the per-unit SlipLock Durable Object
 * (durable-objects/slip-lock.ts; client in lock.ts).
 */
export const RESERVATION_STATUSES = ['pending', 'awaiting_payment', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'expired'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Statuses that hold the unit for the nights (awaiting_payment only while its hold runs). */
export const HOLDING_STATUSES: readonly ReservationStatus[] = ['pending', 'confirmed', 'checked_in'];

export interface ReservationWindow {
  status: string;
  holdExpiresAt: number | null;
}

/** Whether a reservation holds its unit at `now` (the same rule as the database triggers). */
export const isBlocking = (r: ReservationWindow, now: number) =>
  HOLDING_STATUSES.includes(r.status as ReservationStatus) || (r.status === 'awaiting_payment' && r.holdExpiresAt != null && r.holdExpiresAt > now);

/** How long a reservation taken in the lock stays pending there before the caller writes it. */
export const SLIP_LOCK_TTL_MS = 120_000;

export interface SlipReserveRequest {
  customerId: string;
  slipId: string;
  /** The reservation that will hold the nights (a new id, or the one being moved, re-dated or re-activated). */
  reservationId: string;
  arrivalDate: string;
  departureDate: string;
}

export interface SlipConflict {
  reservationId: string;
  reservationNumber: string | null;
  status: string;
  arrivalDate: string;
  departureDate: string;
  pending?: boolean;
}

export type SlipReserveResult =
  { ok: true; lockId: string; slipId: string; expiresAt: number } | { ok: false; status: number; code: string; message: string; conflicts?: SlipConflict[] };

/**
 * Queue message kind sent after a change of a reservation's terms (dates, rate type, unit, rate, billable
 * length or total) took its contract back to unsigned: `{ customerId, reservationId }`. The slip contracts
 * module consumes it: it regenerates the contract with the new terms and resends it when the old one had
 * been sent or signed.
 */
export const CONTRACT_TERMS_CHANGED = 'slip-contracts.terms-changed';
