/** Tenant-scoped reads of bookings. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { tenantOf, type Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { bookings, ledgerEntries } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import type { BookingRow } from './views';

/** A rental of the caller's operator; another operator's (or an unknown) id answers 404. */
export async function getBookingRow(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Booking');
  return row;
}

/**
 * A rental of the caller's operator with its location's zone (the booking's view shows local times
 * from it), in one read. Another operator's (or an unknown) id answers 404.
 */
/** The operator's booking with its location's time zone (for a caller's batch). */
export const bookingWithZoneQuery = (ctx: Ctx, rentalId: string) =>
  ctx.db
    .select({ row: bookings, timezone: locations.timezone })
    .from(bookings)
    .leftJoin(locations, and(eq(locations.id, bookings.locationId), eq(locations.customerId, bookings.customerId)))
    .where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx))));

export async function getBookingWithZone(ctx: Ctx, rentalId: string): Promise<{ row: BookingRow; timezone: string }> {
  const hit = await bookingWithZoneQuery(ctx, rentalId).get();
  if (!hit) throw notFound('Booking');
  return { row: hit.row, timezone: hit.timezone ?? 'UTC' };
}

/** Cents the renter paid by card for a rental (card payments minus card refunds), at most its amount paid. */
export async function paidByCard(ctx: Ctx, b: BookingRow): Promise<number> {
  const r = await ctx.db
    .select({ total: sql<number>`coalesce(sum(-${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, b.customerId),
        eq(ledgerEntries.rentalId, b.id),
        inArray(ledgerEntries.entryType, ['payment', 'refund']),
        eq(ledgerEntries.source, 'card'),
        isNull(ledgerEntries.deletedAt),
      ),
    )
    .get();
  return Math.max(0, Math.min(Number(r?.total ?? 0), b.amountPaid));
}
