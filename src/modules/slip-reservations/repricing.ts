/** The price of a reservation after it was made: charge lines added, the total recalculated, deferred revenue recognised month by month. */
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { getSlipRow } from '../slips/service';
import { changeWithLedger, reservationEvent, termsChangeWithLedger } from './create';
import { contractFollowsTerms } from './contract-terms';
import { reservationChange } from './changes';
import { isDeferred, recognitionLedger } from './ledger';
import { depositFor, monthSegments } from './pricing';
import { getReservationRow, reservationView } from './queries';
import { quote, rateOf, settingsOf, totalsOf } from './quote';
import type { ChargeLine } from '../marina-settings/service';
import type { ReservationRow } from './views';
import { save, today } from './lifecycle';

/**
 * Adds charge lines (haul services, metered utilities) to a reservation, re-priced with its own
 * rate, fees, tax and discount, as statements for the caller's batch (the reservation's
 * compare-and-swap and the ledger entries of the difference).
 */
export async function chargeLinesChange(
  ctx: Ctx,
  r: ReservationRow,
  add: { fees?: ChargeLine[]; utilities?: ChargeLine[] },
  action: string,
  details: Record<string, unknown> = {},
) {
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const price = quote(slip, settings, r, {
    ratePerFootCents: r.pricing.ratePerFootCents,
    fees: [...r.pricing.fees, ...(add.fees ?? [])],
    utilities: [...r.pricing.utilities, ...(add.utilities ?? [])],
    taxRatePercent: r.pricing.taxRatePercent,
    discountCents: r.pricing.discountCents,
  });
  const { row, stmts } = changeWithLedger(ctx, r, totalsOf(price), action, { previousTotalCents: r.totalCents, totalCents: price.totalCents, ...details });
  return { row, stmts, events: [reservationEvent('booking.updated', row, { charges: action, previousTotalCents: r.totalCents })] };
}

export async function recalculateTotal(ctx: Ctx, id: string, input: { refreshRates: boolean }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `A ${r.status} reservation is not re-priced`);
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const price = quote(slip, settings, r, {
    ratePerFootCents: input.refreshRates ? rateOf(slip, settings, r.rateType) : r.pricing.ratePerFootCents,
    fees: r.pricing.fees,
    utilities: r.pricing.utilities,
    taxRatePercent: r.pricing.taxRatePercent,
    discountCents: r.pricing.discountCents,
  });
  const patch = { ...totalsOf(price), depositCents: depositFor(settings.deposit, price) };
  const { row, stmts, contractReset } = termsChangeWithLedger(ctx, r, patch, 'recalculate', { previousTotalCents: r.totalCents, totalCents: price.totalCents });
  await save(ctx, stmts, {
    audit: { action: 'slip_reservation.recalculate', targetType: 'slip_reservation', targetId: r.id, details: { from: r.totalCents, to: price.totalCents } },
  });
  if (contractReset) contractFollowsTerms(ctx, row);
  return { ...(await reservationView(ctx, row)), previousTotalCents: r.totalCents };
}

/** Recognises the deferred revenue of a seasonal or annual term month by month, up to `throughMonth`. */
export async function recognizeRevenue(ctx: Ctx, id: string, input: { throughMonth?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!isDeferred(r))
    throw new ApiError('invalid_state', 'Only seasonal and annual reservations defer revenue (nightly and monthly stays post revenue at once)');
  const deferred = r.postedCharges?.deferred_revenue ?? 0;
  if (!['confirmed', 'checked_in', 'checked_out'].includes(r.status) || deferred <= 0)
    throw new ApiError('invalid_state', 'Revenue is recognised once the reservation is confirmed and its charges are posted');
  // Never past the current month at the location (its calendar, on the clock): months that have not begun earn nothing yet.
  const thisMonth = (await today(ctx, r)).slice(0, 7);
  if (input.throughMonth && input.throughMonth > thisMonth)
    throw new ApiError('validation_failed', `throughMonth ${input.throughMonth} has not begun: it is ${thisMonth} at the location`, {
      details: [{ field: 'throughMonth', message: `must not be after the current month (${thisMonth})` }],
    });
  const through = input.throughMonth ?? thisMonth;
  const recognized = r.postedCharges?.recognized ?? 0;
  const remaining = monthSegments(r.arrivalDate, r.departureDate).filter((s) => !r.recognizedThrough || s.month > r.recognizedThrough);
  const nights = remaining.reduce((n, s) => n + s.nights, 0);
  const left = deferred - recognized;
  const due: { month: string; amountCents: number }[] = [];
  let given = 0;
  remaining.forEach((s, i) => {
    const share = i === remaining.length - 1 ? left - given : Math.round((left * s.nights) / nights);
    given += share;
    if (s.month <= through) due.push({ month: s.month, amountCents: share });
  });
  const summary = (row: ReservationRow, list: typeof due) => ({
    reservationId: row.id,
    recognized: list,
    recognizedThrough: row.recognizedThrough,
    deferredCents: deferred,
    recognizedCents: row.postedCharges?.recognized ?? 0,
    remainingDeferredCents: deferred - (row.postedCharges?.recognized ?? 0),
  });
  if (!due.length) return summary(r, []);
  const total = due.reduce((n, d) => n + d.amountCents, 0);
  const { row, stmts } = reservationChange(
    ctx,
    r,
    { recognizedThrough: due.at(-1)!.month, postedCharges: { ...(r.postedCharges ?? {}), recognized: recognized + total } },
    'recognize_revenue',
    { months: due },
  );
  await save(ctx, [...stmts, ...due.flatMap((d) => recognitionLedger(ctx, r, d.month, d.amountCents))], {
    audit: { action: 'slip_reservation.recognize_revenue', targetType: 'slip_reservation', targetId: r.id, details: { months: due } },
  });
  return summary(row, due);
}
