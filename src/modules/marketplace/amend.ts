/** POST /ota/booking-amendment: a new date or start time for a confirmed booking (rescheduleBooking; the same travelers, the price kept). */
import { and, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { localDate, localTime } from '../../lib/time';
import { marketplaceReservations } from '../../db/schema/marketplace';
import type { ReservationRow } from './types';
import { amendRental, optionItem, windowOf } from './engine';
import { ticketsOf } from './travelers';
import { STATUS_OUT, confirmed, reasonOf, rejected, type Outcome } from './views';
import { reservationWhere } from './queries';

/** POST /ota/booking-amendment: a new date or start time for a confirmed booking (the same travelers; the price is kept). */
export async function amendReservation(
  ctx: Ctx,
  body: { bookingRef: string; travelDate: string; startTime?: string; tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number },
): Promise<Outcome> {
  const r = await reservationWhere(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef));
  if (!r || !r.rentalId) return rejected('UNKNOWN_BOOKING', 'No confirmed booking with this reference', { bookingRef: body.bookingRef });
  if (r.status !== 'confirmed') return rejected('NOT_ALLOWED_IN_CURRENT_STATE', `The booking is ${STATUS_OUT[r.status].toLowerCase()}`, r);
  const { ref, item } = await optionItem(ctx, r.productOptionId);
  if (body.tickets || body.totalTravelers) {
    const demand = ticketsOf(item, body);
    const same = demand.travelers === r.totalTravelers && JSON.stringify(demand.tickets ?? null) === JSON.stringify(r.tickets ?? null);
    if (!same) return rejected('AMENDMENT_NOT_SUPPORTED', 'Changing the travelers needs a new booking; only the date and start time can be amended', r);
  }
  let w;
  try {
    w = await windowOf(ctx, item, ref, body.travelDate, body.startTime, r.totalTravelers);
    await amendRental(ctx, r.rentalId, w);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return rejected(reasonOf(err), err.message, r);
    throw err;
  }
  const tz = item.item.timezone;
  const next: ReservationRow = {
    ...r,
    travelDate: localDate(w.start, tz),
    startTime: localTime(w.start, tz),
    start: w.start,
    end: w.end,
    amendments: r.amendments + 1,
  };
  await ctx.db
    .update(marketplaceReservations)
    .set({
      travelDate: next.travelDate,
      startTime: next.startTime,
      start: next.start,
      end: next.end,
      amendments: next.amendments,
      updatedAt: nowIso(ctx),
    })
    .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId)));
  return confirmed(next);
}
