/** Tenant-scoped reads of bookings. */
import { and, eq } from 'drizzle-orm';
import { tenantOf, type Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
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
export async function getBookingWithZone(ctx: Ctx, rentalId: string): Promise<{ row: BookingRow; timezone: string }> {
  const hit = await ctx.db
    .select({ row: bookings, timezone: locations.timezone })
    .from(bookings)
    .leftJoin(locations, and(eq(locations.id, bookings.locationId), eq(locations.customerId, bookings.customerId)))
    .where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx))))
    .get();
  if (!hit) throw notFound('Booking');
  return { row: hit.row, timezone: hit.timezone ?? 'UTC' };
}
