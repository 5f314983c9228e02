import { and, eq, inArray } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import { ledgerEntries } from '../../db/schema/bookings';
import { allocationInserts, departureAt, loadItemContext, reserve, sell, type ItemContext, type Reservation, type SalePolicy } from '../availability/service';
import { activityStmt } from './activity';
import { CHARGE_TYPES } from './ledger';
import { bookingOut, type BookingRow } from './views';
import { getBookingRow } from './queries';
import { casUpdate, commitChange, releaseAllocations, seatsOf, capacityReleased } from './changes';
import { inThePast } from './errors';

// ------------------------------------------------------------------------------------------------
// Reschedule

type RescheduleInput = { startTime: string; endTime?: string; assetIds?: string[] };
type RescheduleOptions = { source?: 'operator' | 'widget' | 'channel' | 'marketplace' };
type BookingView = ReturnType<typeof bookingOut>;

/**
 * Moves a pending or confirmed booking to a new window, re-checked inside the item's lock (its own
 * current allocations do not count against it): the old allocations are released and the new ones
 * taken in one batch. The price and the ledger amounts are kept (revenue entries are re-dated to
 * the new start); fires booking.updated and booking.rescheduled.
 */
export async function rescheduleBooking(ctx: Ctx, rentalId: string, input: RescheduleInput, opts: RescheduleOptions = {}) {
  return sell(ctx, { rentalId, input, opts }, rescheduleSale);
}

/** A reschedule's state, filled phase by phase (`same`: the window asked is the booking's own, nothing to sell). */
interface RescheduleState {
  rentalId: string;
  input: RescheduleInput;
  opts: RescheduleOptions;
  b?: BookingRow;
  item?: ItemContext;
  start?: number;
  end?: number;
  same?: boolean;
  res?: Reservation;
  newStart?: number;
  newEnd?: number;
  view?: BookingView;
}
type S = RescheduleState;
const need = <T>(v: T | undefined): T => v as T;

/** A reschedule is a sale of the new window: the booking moves inside the item's lock and is rewritten in one batch. */
const rescheduleSale: SalePolicy<{ rentalId: string; input: RescheduleInput; opts: RescheduleOptions }, S, BookingView> = {
  name: 'reschedule',
  begin: (_ctx, order) => ({ ...order }),
  async read(ctx, s) {
    const b = await getBookingRow(ctx, s.rentalId);
    if (b.status !== 'pending' && b.status !== 'confirmed')
      throw new ApiError('invalid_state', `A ${b.status} booking cannot be rescheduled`, { extra: { status: b.status } });
    s.b = b;
    s.item = await loadItemContext(ctx.db, b.itemId, b.customerId);
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
    if (s.same) s.view = bookingOut(b, { timezone: item.item.timezone });
  },
  async reserve(ctx, s, journal) {
    if (s.same) return;
    s.res = await reserveWindow(ctx, s);
    journal.held(s.res);
  },
  async write(ctx, s, journal) {
    if (s.same) return;
    await writeReschedule(ctx, s);
    journal.written();
  },
  async after(ctx, s) {
    if (s.same) return;
    await announceReschedule(ctx, s);
  },
  answer: (s) => need(s.view),
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

/** The one batch: the activity row, the booking's compare-and-swap, the old allocations released and the new ones taken, the revenue re-dated. */
async function writeReschedule(ctx: Ctx, s: S) {
  const b = need(s.b);
  const res = need(s.res);
  const timezone = need(s.item).item.timezone;
  const newStart = res.departure?.start ?? need(s.start);
  const newEnd = res.departure?.end ?? need(s.end);
  const set: Partial<BookingRow> = {
    start: newStart,
    end: newEnd,
    localDate: localDate(newStart, timezone),
    assetIds: res.assetIds.length ? res.assetIds : (b.assetIds ?? []),
  };
  const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: nowIso(ctx) };
  const view = bookingOut(after, { timezone });
  const at = nowIso(ctx);
  const from = { startTime: new Date(b.start).toISOString(), endTime: new Date(b.end).toISOString(), assetIds: b.assetIds ?? [] };
  const to = { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds };
  await commitChange(
    ctx,
    [
      activityStmt(ctx, b, b.version + 1, { type: 'booking.rescheduled', change: 'rescheduled', label: 'Booking rescheduled', details: { from, to } }),
      casUpdate(ctx, b, set),
      releaseAllocations(ctx, b),
      ...allocationInserts(ctx, res, at),
      ctx.db
        .update(ledgerEntries)
        .set({ occurredAt: new Date(newStart).toISOString() })
        .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), inArray(ledgerEntries.entryType, [...CHARGE_TYPES]))),
    ],
    {
      audit: {
        action: 'booking.reschedule',
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { from, to: { startTime: view.startTime, endTime: view.endTime } },
      },
      events: [
        { type: 'booking.updated', customerId: b.customerId, data: view },
        { type: 'booking.rescheduled', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, from, to, booking: view } },
      ],
    },
  );
  s.newStart = newStart;
  s.newEnd = newEnd;
  s.view = view;
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
