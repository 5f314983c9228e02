/**
 * POST /ota/booking: the hold becomes a booking at the held price, through createBooking (so
 * booking.* and customer.created fire as for any sale). One confirmation claims the reservation
 * (held -> confirming); the booking and the reservation's \`confirmed\` are one batch. Idempotent
 * on the marketplace's \`bookingRef\`.
 */
import { and, eq, sql } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { bookings } from '../../db/schema/bookings';
import { marketplaceReservations } from '../../db/schema/marketplace';
import type { ConfigRow, ReservationRow } from './types';
import { bookHold, optionItem, rentalDetails } from './engine';
import { confirmed, reasonOf, rejected, type Outcome } from './views';
import { reservationWhere } from './queries';

/** The renter of a booking: the lead traveler (the contact's e-mail and phone when the lead has none). */
function renterOf(body: {
  bookingRef: string;
  travelers: { firstName: string; lastName: string; email?: string; phone?: string; leadTraveler?: boolean }[];
  contact?: { email?: string; phone?: string };
}) {
  const lead = body.travelers.find((t) => t.leadTraveler) ?? body.travelers[0];
  const email =
    lead.email ??
    body.contact?.email ??
    `guest+${body.bookingRef
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)}@marketplace.invalid`;
  return {
    firstName: lead.firstName,
    lastName: lead.lastName,
    email,
    ...(lead.phone || body.contact?.phone ? { phone: lead.phone ?? body.contact?.phone } : {}),
  };
}

/** POST /ota/booking */
export async function confirmReservation(
  ctx: Ctx,
  cfg: ConfigRow,
  body: {
    reservationReference: string;
    bookingRef: string;
    travelers: { firstName: string; lastName: string; email?: string; phone?: string; leadTraveler?: boolean }[];
    contact?: { email?: string; phone?: string };
    notes?: string;
  },
): Promise<Outcome> {
  const r = await reservationWhere(ctx, eq(marketplaceReservations.id, body.reservationReference));
  if (!r) return rejected('UNKNOWN_RESERVATION', 'No reservation with this reference', { bookingRef: body.bookingRef });
  if (r.status === 'confirmed')
    return r.bookingRef === body.bookingRef ? confirmed(r) : rejected('ALREADY_CONFIRMED', 'This reservation was confirmed under another bookingRef', r);
  if (r.status === 'confirming') return rejected('IN_PROGRESS', 'This reservation is being confirmed; retry in a moment', r);
  if (r.status !== 'held' || r.expiresAt <= ctx.clock.now()) {
    if (r.status === 'held') await expire(ctx, r);
    return rejected('HOLD_EXPIRED', 'The reservation hold expired or was released; reserve again', { ...r, bookingRef: body.bookingRef });
  }
  const dup = await reservationWhere(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef));
  if (dup && dup.id !== r.id) return rejected('DUPLICATE_BOOKING_REF', `bookingRef ${body.bookingRef} already belongs to reservation ${dup.id}`, r);

  // Claim the reservation: one confirmation proceeds, concurrent ones see CONFIRMING.
  const transactionId = newId('txn');
  const where = and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId));
  const claim = await ctx.db
    .update(marketplaceReservations)
    .set({ status: 'confirming', bookingRef: body.bookingRef, transactionId, updatedAt: nowIso(ctx) })
    .where(and(where, eq(marketplaceReservations.status, 'held')))
    .run()
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) return null;
      throw err;
    });
  if (!claim) return rejected('DUPLICATE_BOOKING_REF', `bookingRef ${body.bookingRef} is already used`, r);
  if (!claim.meta.changes) return confirmReservation(ctx, cfg, body);

  const { item } = await optionItem(ctx, r.productOptionId);
  const renter = renterOf(body);
  try {
    await bookHold(
      ctx,
      {
        rentalDetails: { ...rentalDetails(item, r, r.tickets, r.totalTravelers), ...(body.notes ? { notes: body.notes } : {}) },
        customerInfo: renter,
        extendedData: { marketplace: { supplierId: cfg.supplierId, bookingRef: body.bookingRef, reservationReference: r.id, travelers: body.travelers } },
      },
      {
        holdId: r.id,
        priceCents: r.priceCents,
        transactionId,
        statements: [
          ctx.db
            .update(marketplaceReservations)
            .set({
              status: 'confirmed',
              traveler: { ...renter, travelers: body.travelers.length },
              rentalId: sql`(SELECT ${bookings.id} FROM ${bookings} WHERE ${bookings.transactionId} = ${transactionId} AND ${bookings.customerId} = ${r.customerId} LIMIT 1)`,
              updatedAt: nowIso(ctx),
            })
            .where(and(where, eq(marketplaceReservations.status, 'confirming'))),
        ],
      },
    );
  } catch (err) {
    await ctx.db
      .update(marketplaceReservations)
      .set({ status: 'held', bookingRef: null, transactionId: null })
      .where(and(where, eq(marketplaceReservations.status, 'confirming')));
    if (err instanceof ApiError && err.status < 500) return rejected(reasonOf(err), err.message, { ...r, bookingRef: body.bookingRef });
    throw err;
  }
  return confirmed((await reservationWhere(ctx, eq(marketplaceReservations.id, r.id)))!);
}

async function expire(ctx: Ctx, r: ReservationRow) {
  await ctx.db
    .update(marketplaceReservations)
    .set({ status: 'expired' })
    .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId), eq(marketplaceReservations.status, 'held')));
}
