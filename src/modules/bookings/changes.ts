import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
import { backstopConflict, isAllocationConflict, releaseAllocationsOf } from '../availability/service';
import { isVersionRace } from './activity';
import type { LedgerScope } from './ledger';
import type { BookingStatus } from './status';
import { bookingOut, type BookingRow } from './views';

// ------------------------------------------------------------------------------------------------
// Shared pieces

export const casUpdate = (ctx: Ctx, b: BookingRow, set: Partial<BookingRow>) =>
  ctx.db
    .update(bookings)
    .set({ ...set, version: b.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId), eq(bookings.version, b.version)));

export const scopeOf = (b: BookingRow): LedgerScope => ({
  customerId: b.customerId,
  locationId: b.locationId,
  renterId: b.renterId,
  transactionId: b.transactionId,
  rentalId: b.id,
  itemId: b.itemId,
  assetId: b.assetIds?.[0] ?? null,
  currency: b.currency,
});

/** The booking's time given back (cancel, reschedule). */
export const releaseAllocations = (ctx: Ctx, b: BookingRow) => releaseAllocationsOf(ctx, { customerId: b.customerId, sourceId: b.id });

/** Commits a booking change; a lost race (another change from the same version) answers 409 version_conflict. */
export async function commitChange(ctx: Ctx, statements: Stmt[], meta: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, statements, meta);
  } catch (err) {
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The booking was changed by another request at the same moment; reload it and retry');
    if (isAllocationConflict(err)) throw backstopConflict();
    throw err;
  }
}

export function statusEvents(b: BookingRow, to: BookingStatus, view: ReturnType<typeof bookingOut>, specific: DomainEvent['type']): DomainEvent[] {
  return [
    { type: specific, customerId: b.customerId, data: view },
    { type: 'booking.status_changed', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, from: b.status, to, booking: view } },
  ];
}

export const NOT_REVERSED = new Set(['refund', 'refund_hold', 'deposit_hold', 'deposit_release', 'deposit_capture']);

export const seatsOf = (b: BookingRow) => Number((b.pricing as { seats?: number } | null)?.seats ?? 0);

/** Tells the other modules (waitlist, credits, codes, calendars, ...) that a booking gave its capacity back, after the commit. */
export const capacityReleased = (ctx: Ctx, b: BookingRow, reason: 'cancelled' | 'no_show' | 'rescheduled') =>
  ctx.hooks.emit(ctx, 'capacity.released', {
    customerId: b.customerId,
    itemId: b.itemId,
    rentalId: b.id,
    locationId: b.locationId,
    start: b.start,
    end: b.end,
    seats: seatsOf(b),
    assetIds: b.assetIds ?? [],
    reason,
  });
