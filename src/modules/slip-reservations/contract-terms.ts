/**
 * A reservation's contract follows its terms. A contract states the unit, the rate type, the dates,
 * the rate per foot, the billable length and the total; when a change (PUT, transfer, recalculate,
 * the renter's new boat length) alters any of them, the contract generated, sent or signed for the
 * old terms is no longer the agreement: the change takes `contract.status` back to `pending` (not
 * signed, `signedAt` cleared) in its own batch, and after the commit asks the slip contracts module,
 * through the queue, to regenerate the contract with the new terms and resend it. Charges added
 * later under the contract (haul services, metered utilities) do not go through here.
 */
import type { Ctx } from '../../lib/context';
import { enqueueLater } from '../../lib/queue';
import { CONTRACT_TERMS_CHANGED } from './types';
import type { ReservationRow } from './views';

/** What a contract states of a reservation. */
const termsOf = (r: ReservationRow) =>
  [r.slipId, r.rateType, r.arrivalDate, r.departureDate, r.pricing.ratePerFootCents, r.pricing.billableLengthFt, r.totalCents].join('|');

/** The patch that takes the contract back to unsigned when `after` changes the terms of a reservation that has one; null otherwise. */
export function contractResetOf(before: ReservationRow, after: ReservationRow): Partial<ReservationRow> | null {
  if (before.contractStatus === 'none' || termsOf(before) === termsOf(after)) return null;
  return { contractStatus: 'pending', contractSignedAt: null };
}

/** After the commit of a change that reset the contract: the contracts module regenerates and resends it (queue, after the response). */
export function contractFollowsTerms(ctx: Ctx, row: ReservationRow) {
  enqueueLater(ctx, { kind: CONTRACT_TERMS_CHANGED, customerId: row.customerId, reservationId: row.id });
}
