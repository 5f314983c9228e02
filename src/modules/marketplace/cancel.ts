/** POST /ota/booking-cancellation: a confirmed booking is cancelled (cancelBooking), a reservation still on hold released. Idempotent. */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { marketplaceReservations } from '../../db/schema/marketplace';
import { cancelRental, releaseHoldStmt } from './engine';
import { confirmed, reasonOf, rejected, type Outcome } from './views';
import { reservationWhere } from './queries';

/** POST /ota/booking-cancellation: a confirmed booking is cancelled (cancelBooking), a reservation still on hold released. Idempotent. */
export async function cancelReservation(ctx: Ctx, body: { bookingRef?: string; reservationReference?: string; cancelReason?: string }): Promise<Outcome> {
  const r = body.bookingRef
    ? await reservationWhere(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef))
    : await reservationWhere(ctx, eq(marketplaceReservations.id, body.reservationReference!));
  if (!r || (body.reservationReference && r.id !== body.reservationReference))
    return rejected('UNKNOWN_BOOKING', 'No booking with this reference', { bookingRef: body.bookingRef ?? null, id: body.reservationReference });
  const where = and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId));
  const reason = `Cancelled by the marketplace${body.cancelReason ? `: ${body.cancelReason}` : ''}`;
  if (r.status === 'cancelled' || r.status === 'released' || r.status === 'expired') return { ...confirmed(r), price: null };
  if (r.status === 'confirming') return rejected('IN_PROGRESS', 'The booking is being confirmed; retry in a moment', r);
  if (r.status === 'held') {
    await commit(
      ctx,
      [
        ctx.db
          .update(marketplaceReservations)
          .set({ status: 'released' })
          .where(and(where, eq(marketplaceReservations.status, 'held'))),
        releaseHoldStmt(ctx, r.customerId, r.id),
      ],
      { audit: { action: 'marketplace.release', targetType: 'marketplace_reservation', targetId: r.id, details: { reason } } },
    );
    return { ...confirmed({ ...r, status: 'released' }), price: null };
  }
  if (!r.rentalId) return rejected('UNKNOWN_BOOKING', 'The booking of this reservation is missing', r);
  try {
    await cancelRental(ctx, r.rentalId, reason);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return rejected(reasonOf(err), err.message, r);
    throw err;
  }
  await ctx.db
    .update(marketplaceReservations)
    .set({ status: 'cancelled' })
    .where(and(where, eq(marketplaceReservations.status, 'confirmed')));
  return { ...confirmed({ ...r, status: 'cancelled' }), price: null };
}
