import { and, eq, inArray } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import { ledgerEntries } from '../../db/schema/bookings';
import { allocationInserts, departureAt, loadItemContext, release, releaseLater, reserve } from '../availability/service';
import { activityStmt } from './activity';
import { CHARGE_TYPES } from './ledger';
import { bookingOut, type BookingRow } from './views';
import { getBookingRow } from './queries';
import { casUpdate, commitChange, releaseAllocations, seatsOf } from './changes';
import { inThePast } from './errors';

// ------------------------------------------------------------------------------------------------
// Reschedule

/**
 * Moves a pending or confirmed booking to a new window, re-checked inside the item's lock (its own
 * current allocations do not count against it): the old allocations are released and the new ones
 * taken in one batch. The price and the ledger amounts are kept (revenue entries are re-dated to
 * the new start); fires booking.updated and booking.rescheduled.
 */
export async function rescheduleBooking(
  ctx: Ctx,
  rentalId: string,
  input: { startTime: string; endTime?: string; assetIds?: string[] },
  opts: { source?: 'operator' | 'widget' | 'channel' | 'marketplace' } = {},
) {
  const b = await getBookingRow(ctx, rentalId);
  if (b.status !== 'pending' && b.status !== 'confirmed')
    throw new ApiError('invalid_state', `A ${b.status} booking cannot be rescheduled`, { extra: { status: b.status } });
  const item = await loadItemContext(ctx.db, b.itemId, b.customerId);
  const start = Date.parse(input.startTime);
  // A booking is not moved to a time already past (on the operator's clock).
  if (start < ctx.clock.now()) throw inThePast(start, item.item.timezone, ctx.clock.now(), 'startTime');
  let end: number;
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
    end = dep.end;
  } else {
    if (!input.endTime) throw new ApiError('bad_request', 'endTime is required for a rental', { details: [{ field: 'endTime', message: 'required' }] });
    end = Date.parse(input.endTime);
    if (!(end > start))
      throw new ApiError('bad_request', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
    if (input.assetIds && new Set(input.assetIds).size !== b.quantity)
      throw new ApiError('bad_request', `This booking has ${b.quantity} asset(s): give as many assetIds`, {
        details: [{ field: 'assetIds', message: `exactly ${b.quantity}` }],
      });
  }
  if (start === b.start && end === b.end && !input.assetIds) return bookingOut(b, { timezone: item.item.timezone });

  const res = await reserve(ctx, {
    customerId: b.customerId,
    itemId: b.itemId,
    line: {
      kind: 'booking',
      sourceId: b.id,
      start,
      end,
      quantity: item.item.kind === 'tour' ? undefined : b.quantity,
      assetIds: input.assetIds,
      preferAssetIds: b.assetIds ?? [],
      seats: seatsOf(b),
      privateCharter: item.item.kind === 'tour' && !!item.item.model.tourPricing?.isPrivate,
      enforceRules: (opts.source ?? 'operator') !== 'operator',
      excludeSourceIds: [b.id],
    },
  });
  let written = false;
  try {
    const newStart = res.departure?.start ?? start;
    const newEnd = res.departure?.end ?? end;
    const set: Partial<BookingRow> = {
      start: newStart,
      end: newEnd,
      localDate: localDate(newStart, item.item.timezone),
      assetIds: res.assetIds.length ? res.assetIds : (b.assetIds ?? []),
    };
    const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: nowIso(ctx) };
    const view = bookingOut(after, { timezone: item.item.timezone });
    const at = nowIso(ctx);
    const from = { startTime: new Date(b.start).toISOString(), endTime: new Date(b.end).toISOString(), assetIds: b.assetIds ?? [] };
    await commitChange(
      ctx,
      [
        activityStmt(ctx, b, b.version + 1, {
          type: 'booking.rescheduled',
          change: 'rescheduled',
          label: 'Booking rescheduled',
          details: { from, to: { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds } },
        }),
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
          {
            type: 'booking.rescheduled',
            customerId: b.customerId,
            data: {
              rentalId: b.id,
              transactionId: b.transactionId,
              from,
              to: { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds },
              booking: view,
            },
          },
        ],
      },
    );
    written = true;
    await ctx.hooks.emit(ctx, 'booking.rescheduled', { customerId: b.customerId, rentalId: b.id, locationId: b.locationId, start: newStart, end: newEnd });
    // The old window's seats or units are free now: the waitlist offers them (the lock decides what really is).
    await ctx.hooks.emit(ctx, 'capacity.released', {
      customerId: b.customerId,
      itemId: b.itemId,
      rentalId: b.id,
      locationId: b.locationId,
      start: b.start,
      end: b.end,
      seats: seatsOf(b),
      assetIds: b.assetIds ?? [],
      reason: 'rescheduled',
    });
    return view;
  } finally {
    // Written: the release is housekeeping after the response; not written: before answering.
    if (written) releaseLater(ctx, [res]);
    else await release(ctx, res);
  }
}
