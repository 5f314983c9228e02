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
 * month is recognised once, ever). Payments post `payment` (negative), refunds `refund`.
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

/** What should be on the ledger for the reservation's current totals (zero when cancelled or expired). */
function desiredCharges(r: ReservationRow): Record<string, number> {
  if (r.status === 'cancelled' || r.status === 'expired' || r.status === 'pending' || r.status === 'awaiting_payment')
    return { revenue: 0, deferred_revenue: 0, discount: 0, tax: 0 };
  const immediate = r.feesCents + r.utilitiesCents + (isDeferred(r) ? 0 : r.baseCents);
  return { revenue: immediate, deferred_revenue: isDeferred(r) ? r.baseCents : 0, discount: -r.discountCents, tax: r.taxCents };
}

/** The entries that bring the ledger to the reservation's current charges, and the new `postedCharges`. */
export function chargeDelta(ctx: Ctx, r: ReservationRow): { stmts: Stmt[]; posted: Record<string, number> } {
  const posted = { ...(r.postedCharges ?? {}) };
  const want = desiredCharges(r);
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
      description: `Slip ${r.reservationNumber}: ${type.replace('_', ' ')}${posted[type] ? ' (adjustment)' : ''}`,
      source: 'slip',
      reference: r.reservationNumber,
      metadata: meta(r),
    });
    posted[type] = amount;
  }
  return { stmts: insertLedger(ctx, rows), posted };
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
