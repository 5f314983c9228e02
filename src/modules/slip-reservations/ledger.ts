/**
 * Ledger entries of slip reservations (through the bookings ledger: signed cents from the
 * renter's point of view, `transactionId` = the reservation id, source `slip`).
 *
 * Charges are posted when a reservation is confirmed and follow every re-pricing and the
 * cancellation as differences: `postedCharges` on the reservation remembers what was posted per
 * entry type, so posting twice never doubles. Nightly and monthly stays post `revenue` at once;
 * seasonal and annual terms post their base as `deferred_revenue`, which `recognize-revenue` moves
 * to `revenue` month by month (memo entries that leave the balance alone: +revenue and
 * -deferred_revenue of the month's share, with ids `led_slrv_{id}_{YYYYMM}` / `led_sldf_...`, so a
 * month is recognised once, ever). When the deferred revenue is withdrawn below what was recognised
 * (a cancellation, a shorter or re-typed stay), the excess recognition is reversed with memo entries
 * of the opposite sign, dated at the change, so deferred and recognised revenue both end where the
 * stay leaves them (zero for a cancelled one). Payments post `payment` (negative), refunds `refund`.
 *
 * The reservation's money is read from here, through the one money view (money.ts): its entries by
 * `transactionId`; before confirmation its quote stands for the charges. `postedCharges` mirrors the
 * charge entries (written in the same batch) so that a change posts only the difference.
 */
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { insertLedger, type NewLedger } from '../bookings/service';
import type { ReservationRow } from './views';

const scope = (r: ReservationRow) => ({
  customerId: r.customerId,
  locationId: r.locationId,
  renterId: r.renterId,
  transactionId: r.id,
  rentalId: null,
  itemId: null,
  assetId: null,
  currency: r.currency,
});

const meta = (r: ReservationRow, extra: Record<string, unknown> = {}) => ({
  slipReservationId: r.id,
  reservationNumber: r.reservationNumber,
  slipId: r.slipId,
  ...extra,
});

export const isDeferred = (r: Pick<ReservationRow, 'rateType'>) => r.rateType === 'seasonal' || r.rateType === 'annual';

/** Entry types of a reservation's charges (each affects the balance); `postedCharges` keeps their sums. */
export const CHARGE_ENTRY_TYPES = ['revenue', 'deferred_revenue', 'discount', 'tax'] as const;

/**
 * Statuses whose charges are not on the ledger (never confirmed): the quote is what is owed. An expired
 * bill hold is one of them: it can still be billed or confirmed again.
 */
export const QUOTED_STATUSES: readonly ReservationRow['status'][] = ['pending', 'awaiting_payment', 'expired'];

/** What should be on the ledger for the reservation's current totals (zero when cancelled or expired). */
function desiredCharges(r: ReservationRow): Record<string, number> {
  if (r.status === 'cancelled' || QUOTED_STATUSES.includes(r.status)) return { revenue: 0, deferred_revenue: 0, discount: 0, tax: 0 };
  const immediate = r.feesCents + r.utilitiesCents + (isDeferred(r) ? 0 : r.baseCents);
  return { revenue: immediate, deferred_revenue: isDeferred(r) ? r.baseCents : 0, discount: -r.discountCents, tax: r.taxCents };
}

/** What the renter reads for each charge entry type (the money view's lines: one line per type, its adjustments included). */
function chargeLabel(r: ReservationRow, type: string): string {
  if (type === 'revenue') return isDeferred(r) ? 'Fees and utilities' : 'Stay, fees and utilities';
  if (type === 'deferred_revenue') return `${r.rateType === 'annual' ? 'Annual' : 'Seasonal'} term`;
  return type === 'discount' ? 'Discount' : 'Tax';
}

/**
 * The ledger adjustments of a charge: the difference between what should be posted and what was, per
 * entry type; each names its type as its line (`metadata.line`), so a type's adjustments are one line.
 */
function chargeAdjustments(ctx: Ctx, r: ReservationRow, want: Record<string, number>, posted: Record<string, number>): NewLedger[] {
  const rows: NewLedger[] = [];
  for (const [type, amount] of Object.entries(want)) {
    const delta = amount - (posted[type] ?? 0);
    if (!delta) continue;
    rows.push({
      id: newId('led'),
      ...scope(r),
      entryType: type,
      amount: delta,
      affectsBalance: true,
      occurredAt: `${r.arrivalDate}T00:00:00.000Z`,
      description: `Slip ${r.reservationNumber}: ${chargeLabel(r, type)}${posted[type] ? ' (adjustment)' : ''}`,
      source: 'slip',
      reference: r.reservationNumber,
      metadata: meta(r, { line: type }),
    });
    posted[type] = amount;
  }
  return rows;
}

/**
 * The memo entries that take back recognised revenue above the deferred revenue now wanted (all of it
 * when the stay is cancelled): -revenue and +deferred_revenue of the excess, dated at the change.
 */
function recognitionReversal(ctx: Ctx, r: ReservationRow, wantDeferred: number, posted: Record<string, number>): NewLedger[] {
  const recognized = posted.recognized ?? 0;
  const excess = recognized - Math.max(0, wantDeferred);
  if (excess <= 0) return [];
  posted.recognized = recognized - excess;
  const why = r.status === 'cancelled' ? 'cancelled' : 're-priced';
  const common = {
    ...scope(r),
    affectsBalance: false,
    occurredAt: nowIso(ctx),
    source: 'slip',
    reference: r.reservationNumber,
    metadata: meta(r, { reversal: why }),
  };
  return [
    { id: newId('led'), ...common, entryType: 'revenue', amount: -excess, description: `Slip ${r.reservationNumber}: recognised revenue reversed (${why})` },
    {
      id: newId('led'),
      ...common,
      entryType: 'deferred_revenue',
      amount: excess,
      description: `Slip ${r.reservationNumber}: deferred revenue restored (${why})`,
    },
  ];
}

/**
 * The entries that bring the ledger to the reservation's current charges, the new `postedCharges`,
 * and `recognizedThrough` null when a cancellation reversed the recognition (otherwise unchanged: a
 * re-priced stay recognises what is left over its months still to come, each month once, ever).
 */
export function chargeDelta(ctx: Ctx, r: ReservationRow): { stmts: Stmt[]; rows: NewLedger[]; posted: Record<string, number>; recognizedThrough?: null } {
  const posted = { ...(r.postedCharges ?? {}) };
  const want = desiredCharges(r);
  const rows = [...chargeAdjustments(ctx, r, want, posted), ...recognitionReversal(ctx, r, want.deferred_revenue, posted)];
  const cleared = r.status === 'cancelled' && (r.postedCharges?.recognized ?? 0) > 0 && !posted.recognized;
  return { stmts: insertLedger(ctx, rows), rows, posted, ...(cleared ? { recognizedThrough: null } : {}) };
}

export function paymentLedger(ctx: Ctx, r: ReservationRow, amount: number, method: string, reference: string | null): Stmt[] {
  return insertLedger(ctx, [
    {
      id: newId('led'),
      ...scope(r),
      entryType: 'payment',
      amount: -amount,
      affectsBalance: true,
      occurredAt: nowIso(ctx),
      description: `Slip ${r.reservationNumber}: payment (${method})`,
      source: method === 'card' || method === 'terminal' ? 'card' : method,
      reference,
      metadata: meta(r, { method }),
    },
  ]);
}

export function refundLedger(ctx: Ctx, r: ReservationRow, amount: number, reference: string | null): Stmt[] {
  return insertLedger(ctx, [
    {
      id: newId('led'),
      ...scope(r),
      entryType: 'refund',
      amount,
      affectsBalance: true,
      occurredAt: nowIso(ctx),
      description: `Slip ${r.reservationNumber}: refund`,
      source: 'card',
      reference,
      metadata: meta(r),
    },
  ]);
}

/** The two memo entries that recognise one month's share of deferred revenue. */
export function recognitionLedger(ctx: Ctx, r: ReservationRow, month: string, amount: number): Stmt[] {
  const key = `${r.id}_${month.replace('-', '')}`;
  const occurredAt = `${month}-01` < r.arrivalDate ? `${r.arrivalDate}T00:00:00.000Z` : `${month}-01T00:00:00.000Z`;
  const common = { ...scope(r), affectsBalance: false, occurredAt, source: 'slip', reference: r.reservationNumber, metadata: meta(r, { month }) };
  return insertLedger(ctx, [
    { id: `led_slrv_${key}`, ...common, entryType: 'revenue', amount, description: `Slip ${r.reservationNumber}: revenue recognised for ${month}` },
    {
      id: `led_sldf_${key}`,
      ...common,
      entryType: 'deferred_revenue',
      amount: -amount,
      description: `Slip ${r.reservationNumber}: deferred revenue released for ${month}`,
    },
  ]);
}
