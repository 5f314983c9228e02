import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import type { AuditEntry, DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import { PaymentError } from '../../adapters/payments';
import {
  allocationInserts,
  backstopConflict,
  departureAt,
  isAllocationConflict,
  loadItemContext,
  reserve,
  sell,
  type ItemContext,
  type Reservation,
  type SaleJournal,
  type SalePolicy,
} from '../availability/service';
import { takePayment, type TakenPayment } from '../payments/service';
import { activityStmt, isVersionRace } from './activity';
import { moneyFromLedgerStmt, type LedgerRow } from './ledger';
import { checkAllowedDuration } from './pricing';
import { planFollowsBalanceStmts } from './installments';
import { bookingOut, type BookingRow } from './views';
import { getBookingRow } from './queries';
import { casUpdate, commitChange, releaseAllocations, seatsOf, capacityReleased } from './changes';
import { inThePast } from './errors';
import {
  asRequestFields,
  cardOnFile,
  differenceCharge,
  openCharges,
  planRepricing,
  priceChangeOut,
  refundDifference,
  repricedSet,
  repriceStmts,
  rescheduleEmailStmts,
  settlementOf,
  unchangedPrice,
  type RepriceAsk,
  type Repricing,
} from './reprice';

// ------------------------------------------------------------------------------------------------
// Reschedule

type RescheduleInput = { startTime: string; endTime?: string; assetIds?: string[] } & RepriceAsk;
type RescheduleOptions = { source?: 'operator' | 'widget' | 'channel' | 'marketplace' };
type BookingView = ReturnType<typeof bookingOut>;
export type RescheduleAnswer = BookingView & { pricing: BookingView['pricing'] & { change: ReturnType<typeof priceChangeOut> } };

/**
 * Moves a pending or confirmed booking to a new window, re-checked inside the item's lock (its own
 * current allocations do not count against it): the old allocations are released and the new ones
 * taken in one batch. The move reprices (reprice.ts): the new window is priced like a new booking
 * with the booking's units, add-ons, tip and discounts, the ledger's charges are replaced, and the
 * difference is settled — a balance due, or charged to the card on file (`chargeDifference`, in the
 * same write); a lower price's overpayment refunded to the card after the write (or kept as credit,
 * `refundDifference: false`). `keepPrice: true` (and a reseller's price) keeps the price, marked
 * `priceKept` on the booking. The renter is e-mailed the new time and price; fires booking.updated and
 * booking.rescheduled (with the price change).
 */
export async function rescheduleBooking(ctx: Ctx, rentalId: string, input: RescheduleInput, opts: RescheduleOptions = {}): Promise<RescheduleAnswer> {
  return sell(ctx, { rentalId, input, opts }, rescheduleSale);
}

/** A reschedule's state, filled phase by phase (`same`: the window asked is the booking's own, nothing to sell). */
interface RescheduleState {
  rentalId: string;
  input: RescheduleInput;
  opts: RescheduleOptions;
  b?: BookingRow;
  item?: ItemContext;
  open?: LedgerRow[];
  start?: number;
  end?: number;
  same?: boolean;
  price?: Repricing;
  res?: Reservation;
  taken?: TakenPayment;
  newStart?: number;
  newEnd?: number;
  after?: BookingRow;
  view?: BookingView;
}
type S = RescheduleState;
const need = <T>(v: T | undefined): T => v as T;

/** A reschedule is a sale of the new window: priced, moved inside the item's lock, its difference charged, and rewritten in one batch. */
const rescheduleSale: SalePolicy<{ rentalId: string; input: RescheduleInput; opts: RescheduleOptions }, S, RescheduleAnswer> = {
  name: 'reschedule',
  begin: (_ctx, order) => ({ ...order }),
  async read(ctx, s) {
    const b = await getBookingRow(ctx, s.rentalId);
    if (b.status !== 'pending' && b.status !== 'confirmed')
      throw new ApiError('invalid_state', `A ${b.status} booking cannot be rescheduled`, { extra: { status: b.status } });
    s.b = b;
    [s.item, s.open] = await Promise.all([loadItemContext(ctx.db, b.itemId, b.customerId), openCharges(ctx, b)]);
  },
  plan(ctx, s) {
    const b = need(s.b);
    const item = need(s.item);
    const start = Date.parse(s.input.startTime);
    // A booking is not moved to a time already past (on the operator's clock).
    if (start < ctx.clock.now()) throw inThePast(start, item.item.timezone, ctx.clock.now(), 'startTime');
    const end = windowEnd(item, b, s.input, start);
    s.start = start;
    s.end = end;
    s.same = start === b.start && end === b.end && !s.input.assetIds;
    if (s.same) {
      s.view = bookingOut(b, { timezone: item.item.timezone });
      s.price = unchangedPrice(b, s.input, s.open);
    }
  },
  async price(ctx, s) {
    if (s.same) return;
    s.price = await planRepricing(ctx, { b: need(s.b), item: need(s.item), start: need(s.start), end: need(s.end), open: need(s.open), ask: s.input });
  },
  async reserve(ctx, s, journal) {
    if (s.same) return;
    s.res = await reserveWindow(ctx, s);
    journal.held(s.res);
  },
  async charge(ctx, s, journal) {
    if (s.same) return;
    await chargeDifference(ctx, s, journal);
  },
  async write(ctx, s, journal) {
    if (s.same) return;
    await writeReschedule(ctx, s);
    journal.written();
  },
  async after(ctx, s) {
    if (s.same) return;
    const r = need(s.price);
    if (r.settlement === 'refunded') await refundDifference(ctx, need(s.after), r);
    await announceReschedule(ctx, s);
    // Read back: the money columns follow the ledger (the new charges, the refund).
    s.view = bookingOut(await getBookingRow(ctx, s.rentalId), { timezone: need(s.item).item.timezone });
  },
  answer: (s) => {
    const v = need(s.view);
    return { ...v, pricing: { ...v.pricing, change: priceChangeOut(need(s.price)) } };
  },
  failure: (err) =>
    err instanceof PaymentError ? new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, stage: 'difference' } }) : undefined,
};

/** The end of the new window: a tour's departure end, or the rental's `endTime` (checked against the booking's units). */
function windowEnd(item: ItemContext, b: BookingRow, input: RescheduleInput, start: number): number {
  if (item.item.kind === 'tour') {
    const dep = departureAt(item.item, start);
    if (!dep)
      throw new ApiError('unavailable', `No departure starts at ${input.startTime}`, {
        extra: { reasons: [{ code: 'no_departure', message: 'No departure starts at that time' }] },
      });
    if (input.endTime && Date.parse(input.endTime) !== dep.end)
      throw new ApiError('bad_request', `The departure at ${input.startTime} ends at ${new Date(dep.end).toISOString()}`, {
        details: [{ field: 'endTime', message: 'must be the departure end' }],
      });
    if (input.assetIds)
      throw new ApiError('bad_request', 'Tours are sold by the seat: assetIds do not apply', { details: [{ field: 'assetIds', message: 'not for tours' }] });
    return dep.end;
  }
  if (!input.endTime) throw new ApiError('bad_request', 'endTime is required for a rental', { details: [{ field: 'endTime', message: 'required' }] });
  const end = Date.parse(input.endTime);
  if (!(end > start))
    throw new ApiError('bad_request', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  if (input.assetIds && new Set(input.assetIds).size !== b.quantity)
    throw new ApiError('bad_request', `This booking has ${b.quantity} asset(s): give as many assetIds`, {
      details: [{ field: 'assetIds', message: `exactly ${b.quantity}` }],
    });
  // The item's allowed durations hold for a move as for a new booking (whatever the price).
  try {
    checkAllowedDuration(item.item, start, end);
  } catch (err) {
    throw asRequestFields(err);
  }
  return end;
}

/** The new window inside the item's lock, the booking's own allocations set aside. */
function reserveWindow(ctx: Ctx, s: S): Promise<Reservation> {
  const b = need(s.b);
  const item = need(s.item);
  return reserve(ctx, {
    customerId: b.customerId,
    itemId: b.itemId,
    line: {
      kind: 'booking',
      sourceId: b.id,
      start: need(s.start),
      end: need(s.end),
      quantity: item.item.kind === 'tour' ? undefined : b.quantity,
      assetIds: s.input.assetIds,
      preferAssetIds: b.assetIds ?? [],
      seats: seatsOf(b),
      privateCharter: item.item.kind === 'tour' && !!item.item.model.tourPricing?.isPrivate,
      enforceRules: (s.opts.source ?? 'operator') !== 'operator',
      excludeSourceIds: [b.id],
    },
  });
}

/**
 * A higher price's difference charged to the card on file when asked (`chargeDifference`), refunded
 * if the write does not happen; without a card on file it stays a balance due.
 */
async function chargeDifference(ctx: Ctx, s: S, journal: SaleJournal) {
  const r = need(s.price);
  if (r.settlement !== 'charged') return;
  const b = need(s.b);
  const card = await cardOnFile(ctx, b);
  if (!card) {
    Object.assign(r, settlementOf(b, r.difference, {}), { reason: 'no_card_on_file' });
    return;
  }
  const taken = await takePayment(ctx, differenceCharge(b, r.amount, card));
  s.taken = taken;
  r.paymentIntentId = taken.paid?.intent?.id ?? null;
  journal.onUndo('refund', () => taken.undo());
}

/** The booking's columns after the move: the window, its assets, the request's window in rentalDetails and the price (reprice.ts). */
function movedSet(ctx: Ctx, s: S): { set: Partial<BookingRow>; after: BookingRow } {
  const b = need(s.b);
  const res = need(s.res);
  const r = need(s.price);
  const newStart = res.departure?.start ?? need(s.start);
  const newEnd = res.departure?.end ?? need(s.end);
  const assetIds = res.assetIds.length ? res.assetIds : (b.assetIds ?? []);
  const rd = (b.rentalDetails ?? {}) as Record<string, unknown>;
  const set: Partial<BookingRow> = {
    start: newStart,
    end: newEnd,
    localDate: localDate(newStart, need(s.item).item.timezone),
    assetIds,
    rentalDetails: {
      ...rd,
      startTime: new Date(newStart).toISOString(),
      endTime: new Date(newEnd).toISOString(),
      ...(rd.assetIds || s.input.assetIds ? { assetIds } : {}),
    },
    ...repricedSet(b, r),
  };
  const paid = r.settlement === 'charged' && r.paymentIntentId ? r.amount : 0;
  const after: BookingRow = { ...b, ...set, total: b.total + r.difference, amountPaid: b.amountPaid + paid, version: b.version + 1, updatedAt: nowIso(ctx) };
  return { set, after };
}

/**
 * The one batch: the activity row, the booking's compare-and-swap, the old allocations released and
 * the new ones taken, the ledger (charges replaced or re-dated, the charged difference), the
 * installments fitted to the new balance, the renter's e-mail, and the booking's money from its ledger.
 */
async function writeReschedule(ctx: Ctx, s: S) {
  const b = need(s.b);
  const res = need(s.res);
  const r = need(s.price);
  const timezone = need(s.item).item.timezone;
  const { set, after } = movedSet(ctx, s);
  const view = bookingOut(after, { timezone });
  const from = { startTime: new Date(b.start).toISOString(), endTime: new Date(b.end).toISOString(), assetIds: b.assetIds ?? [] };
  const to = { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds };
  const price = priceChangeOut(r);
  const paid = after.amountPaid - b.amountPaid;
  const email = await rescheduleEmailStmts(ctx, b, { timezone, start: after.start, end: after.end, r });
  const statements: Stmt[] = [
    activityStmt(ctx, b, b.version + 1, { type: 'booking.rescheduled', change: 'rescheduled', label: 'Booking rescheduled', details: { from, to, price } }),
    casUpdate(ctx, b, set),
    releaseAllocations(ctx, b),
    ...allocationInserts(ctx, res, nowIso(ctx)),
    ...repriceStmts(ctx, b, r, { start: after.start, assetId: after.assetIds?.[0] ?? null }),
    ...(await planFollowsBalanceStmts(ctx, b, { charged: r.difference, paid })),
    ...email,
    moneyFromLedgerStmt(ctx, b),
  ];
  await commitMove(ctx, s.taken, statements, {
    audit: { action: 'booking.reschedule', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { from, to, price } },
    events: [
      { type: 'booking.updated', customerId: b.customerId, data: view },
      { type: 'booking.rescheduled', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, from, to, price, booking: view } },
    ],
  });
  s.newStart = after.start;
  s.newEnd = after.end;
  s.after = after;
  s.view = view;
}

/** Commits the move: with a charged difference through the payments service (its payment.completed in the same batch). */
async function commitMove(ctx: Ctx, taken: TakenPayment | undefined, statements: Stmt[], meta: { audit: AuditEntry; events: DomainEvent[] }) {
  if (!taken) return commitChange(ctx, statements, meta);
  try {
    await taken.commitMoney(statements, meta);
  } catch (err) {
    // As commitChange answers a lost race; the journal refunds the charge.
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The booking was changed by another request at the same moment; reload it and retry');
    if (isAllocationConflict(err)) throw backstopConflict();
    throw err;
  }
}

/** The hooks of a written reschedule: booking.rescheduled, and the old window given back (the waitlist offers it; the lock decides what really is free). */
async function announceReschedule(ctx: Ctx, s: S) {
  const b = need(s.b);
  await ctx.hooks.emit(ctx, 'booking.rescheduled', {
    customerId: b.customerId,
    rentalId: b.id,
    locationId: b.locationId,
    start: need(s.newStart),
    end: need(s.newEnd),
  });
  await capacityReleased(ctx, b, 'rescheduled');
}
