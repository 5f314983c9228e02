/**
 * The window of a booking change (modify.ts runs the change; a reschedule is a change of the window
 * alone): the new window's end, its reservation inside the item's lock (the booking's own allocations
 * set aside, so its own time never blocks it), the booking's window columns after the move, the commit
 * of a change that charged a card, and the hooks of a move.
 */
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { auditWritten, type AuditEntry, type DomainEvent } from '../../lib/commit';
import type { BatchRunner, Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import {
  allocationInserts,
  backstopConflict,
  departureAt,
  isAllocationConflict,
  landedInDoubt,
  reserve,
  type ItemContext,
  type Reservation,
} from '../availability/service';
import type { TakenPayment } from '../payments/service';
import { isVersionRace } from './activity';
import { checkAllowedDuration } from './pricing';
import type { BookingRow } from './views';
import { commitChange, releaseAllocations, seatsOf, capacityReleased } from './changes';
import { asRequestFields } from './reprice';

/** The window a change asks for (rentals: `endTime`; tours take the departure's end). */
export interface WindowAsk {
  startTime: string;
  endTime?: string;
  assetIds?: string[];
}

/** The end of the new window: a tour's departure end, or the rental's `endTime` (checked against the booking's units). */
export function windowEnd(item: ItemContext, b: BookingRow, input: WindowAsk, start: number): number {
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

/**
 * The booking's new shape inside the item's lock: its window (the same one when only a tour's party
 * changes) with its units or seats, the booking's own allocations set aside. Renters' and resellers'
 * changes meet the item's booking rules (minimum notice, advance window); the operator's do not.
 */
export function reserveShape(
  ctx: Ctx,
  b: BookingRow,
  item: ItemContext,
  w: { start: number; end: number; assetIds?: string[]; seats?: number; source: string },
): Promise<Reservation> {
  return reserve(ctx, {
    customerId: b.customerId,
    itemId: b.itemId,
    line: {
      kind: 'booking',
      sourceId: b.id,
      start: w.start,
      end: w.end,
      quantity: item.item.kind === 'tour' ? undefined : b.quantity,
      assetIds: w.assetIds,
      preferAssetIds: b.assetIds ?? [],
      seats: w.seats ?? seatsOf(b),
      privateCharter: item.item.kind === 'tour' && !!item.item.model.tourPricing?.isPrivate,
      enforceRules: w.source !== 'operator',
      excludeSourceIds: [b.id],
    },
  });
}

/** The booking's window columns after the move: the window, its assets and the request's window in rentalDetails. */
export function windowSet(b: BookingRow, item: ItemContext, res: Reservation, w: { start: number; end: number; assetIdsAsked: boolean }): Partial<BookingRow> {
  const newStart = res.departure?.start ?? w.start;
  const newEnd = res.departure?.end ?? w.end;
  const assetIds = res.assetIds.length ? res.assetIds : (b.assetIds ?? []);
  const rd = (b.rentalDetails ?? {}) as Record<string, unknown>;
  return {
    start: newStart,
    end: newEnd,
    localDate: localDate(newStart, item.item.timezone),
    assetIds,
    rentalDetails: {
      ...rd,
      startTime: new Date(newStart).toISOString(),
      endTime: new Date(newEnd).toISOString(),
      ...(rd.assetIds || w.assetIdsAsked ? { assetIds } : {}),
    },
  };
}

/** The new allocations of a change that reserved: the old ones released and the new ones taken, in the change's batch. */
export const swapAllocations = (ctx: Ctx, b: BookingRow, res: Reservation | undefined): Stmt[] =>
  res ? [releaseAllocations(ctx, b), ...allocationInserts(ctx, res, nowIso(ctx))] : [];

/**
 * Commits a change: with a charged difference through the payments service (its payment.completed in
 * the same batch). A write whose answer was lost may have committed: its audit row tells, and then the
 * change is answered as made (the charge stands, nothing is undone).
 */
export async function commitMove(
  ctx: Ctx,
  taken: TakenPayment | undefined,
  statements: Stmt[],
  meta: { audit: AuditEntry; events: DomainEvent[]; via?: BatchRunner },
) {
  try {
    if (!taken) return await commitChange(ctx, statements, meta);
    await taken.commitMoney(statements, meta);
  } catch (err) {
    if (await landedInDoubt(ctx, err, () => auditWritten(ctx, meta.audit))) return taken?.commitMoney.alreadyRecorded();
    // As commitChange answers a lost race (a change without a charge got its answer there); the journal refunds the charge.
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The booking was changed by another request at the same moment; reload it and retry');
    if (isAllocationConflict(err)) throw backstopConflict();
    throw err;
  }
}

/** The hooks of a written move: booking.rescheduled, and the old window given back (the waitlist offers it; the lock decides what really is free). */
export async function announceMove(ctx: Ctx, b: BookingRow, after: Pick<BookingRow, 'start' | 'end'>) {
  await ctx.hooks.emit(ctx, 'booking.rescheduled', {
    customerId: b.customerId,
    rentalId: b.id,
    locationId: b.locationId,
    start: after.start,
    end: after.end,
  });
  await capacityReleased(ctx, b, 'rescheduled');
}
