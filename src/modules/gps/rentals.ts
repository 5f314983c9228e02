/**
 * What GPS needs of bookings, in one place: the rental a boat is out on (checked in, its asset),
 * and marking it returned through the booking service (checked_in -> completed, which fires
 * `booking.checked_out` like a return at the counter).
 */
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { bookings } from '../../db/schema/bookings';
import { checkOutBooking } from '../bookings/service';

export interface OutRental {
  rentalId: string;
  start: number;
  end: number;
  status: string;
}

/** Checked-in rentals of an asset that started by `now`. */
export async function rentalsOut(ctx: Ctx, customerId: string, assetId: string, now = Date.now()): Promise<OutRental[]> {
  const rows = await ctx.db
    .select({ id: bookings.id, start: bookings.start, end: bookings.end, status: bookings.status, assetIds: bookings.assetIds })
    .from(bookings)
    .where(
      and(
        eq(bookings.customerId, customerId),
        inArray(bookings.status, ['checked_in']),
        lte(bookings.start, now),
        sql`${bookings.assetIds} LIKE ${`%${JSON.stringify(assetId)}%`}`,
      ),
    )
    .all();
  return rows.filter((r) => (r.assetIds ?? []).includes(assetId)).map((r) => ({ rentalId: r.id, start: r.start, end: r.end, status: r.status }));
}

/** The rental is returned: booking.checked_out fires (booking.status_changed too). */
export const markReturned = (ctx: Ctx, rentalId: string, note: string) => checkOutBooking(ctx, rentalId, { notes: note });
