/**
 * Marketplace reservations: reserve (a hold of price and inventory for HOLD_MS, taken in the
 * item's lock and counting against capacity until it expires by itself), booking confirmation
 * (the hold becomes a booking at the held price, through createBooking), cancellation and
 * amendment (cancelBooking and rescheduleBooking). Confirmation, cancellation and amendment
 * answer 200 with `status: CONFIRMED` or `REJECTED` and a reason; they are idempotent on the
 * marketplace's `bookingRef`.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localDate, localTime } from '../../lib/time';
import { bookings } from '../../db/schema/bookings';
import { marketplaceReservations } from '../../db/schema/marketplace';
import { getDb } from '../../db/client';
import type { Env } from '../../env';
import { HOLD_MS, type ConfigRow } from './config';
import {
  amendRental,
  bookHold,
  busyOf,
  cancelRental,
  holdInventory,
  optionItem,
  quote,
  releaseHoldStmt,
  rentalDetails,
  startTimes,
  vacancies,
  type ItemContext,
} from './engine';
import { sameCurrency } from './catalog';
import { optionId, type OptionRef } from './options';
import { ticketsOf } from './travelers';

type Row = typeof marketplaceReservations.$inferSelect;

const STATUS_OUT: Record<Row['status'], 'RESERVED' | 'CONFIRMED' | 'RELEASED' | 'EXPIRED' | 'CANCELLED' | 'CONFIRMING'> = {
  held: 'RESERVED',
  confirming: 'CONFIRMING',
  confirmed: 'CONFIRMED',
  released: 'RELEASED',
  expired: 'EXPIRED',
  cancelled: 'CANCELLED',
};

const money = (cents: number, currency: string) => ({ amount: cents / 100, currency: currency.toUpperCase() });

export const reservationOut = (r: Row) => ({
  reservationReference: r.id,
  status: r.status === 'held' && r.expiresAt <= Date.now() ? ('EXPIRED' as const) : STATUS_OUT[r.status],
  productOptionId: r.productOptionId,
  travelDate: r.travelDate,
  startTime: r.startTime,
  startTimeUtc: new Date(r.start).toISOString(),
  endTimeUtc: new Date(r.end).toISOString(),
  totalTravelers: r.totalTravelers,
  price: money(r.priceCents, r.currency),
  expiresAt: new Date(r.expiresAt).toISOString(),
  holdMinutes: HOLD_MS / 60_000,
});

type Outcome = {
  status: 'CONFIRMED' | 'REJECTED';
  bookingRef: string | null;
  reservationReference: string | null;
  supplierConfirmationNumber: string | null;
  rentalId: string | null;
  rejectionReason: string | null;
  rejectionMessage: string | null;
  travelDate: string | null;
  startTime: string | null;
  price: { amount: number; currency: string } | null;
};

function confirmed(r: Row): Outcome {
  return {
    status: 'CONFIRMED',
    bookingRef: r.bookingRef,
    reservationReference: r.id,
    supplierConfirmationNumber: r.transactionId,
    rentalId: r.rentalId,
    rejectionReason: null,
    rejectionMessage: null,
    travelDate: r.travelDate,
    startTime: r.startTime,
    price: money(r.priceCents, r.currency),
  };
}

function rejected(reason: string, message: string, r?: Partial<Row> & { bookingRef?: string | null; id?: string }): Outcome {
  return {
    status: 'REJECTED',
    bookingRef: r?.bookingRef ?? null,
    reservationReference: r?.id ?? null,
    supplierConfirmationNumber: null,
    rentalId: null,
    rejectionReason: reason,
    rejectionMessage: message,
    travelDate: r?.travelDate ?? null,
    startTime: r?.startTime ?? null,
    price: null,
  };
}

/** Why a sale was refused, as the marketplace's reason code. */
function reasonOf(err: ApiError): string {
  if (err.code === 'unavailable') return 'UNAVAILABLE';
  if (err.code === 'version_conflict') return 'PRODUCT_CHANGED';
  if (err.code === 'not_cancellable' || err.code === 'invalid_state') return 'NOT_ALLOWED_IN_CURRENT_STATE';
  if (err.status === 400) return 'INVALID_REQUEST';
  return 'REJECTED';
}

/** The window of an option on a date: the start time asked for, or the first one with room. */
async function windowOf(ctx: Ctx, item: ItemContext, ref: OptionRef, date: string, time: string | undefined, seats: number) {
  const times = startTimes(item, ref, date);
  if (time) {
    const st = times.find((t) => t.time === time);
    if (!st)
      throw new ApiError('bad_request', `${item.row.name} has no start at ${time} on ${date}`, {
        details: [{ field: 'startTime', message: `not a start time on ${date}` }],
      });
    return st;
  }
  if (!times.length)
    throw new ApiError('unavailable', `${item.row.name} does not run on ${date}`, { extra: { reasons: [{ code: 'closed', message: 'closed' }] } });
  const busy = await busyOf(ctx, item, times[0].start, times[times.length - 1].end);
  for (const st of times) {
    const v = await vacancies(ctx, item, { start: st.start, end: st.end, seats: item.item.kind === 'tour' ? seats : undefined }, busy);
    if (v.available) return st;
  }
  return times[0];
}

async function rowOf(ctx: Ctx, where: ReturnType<typeof eq>) {
  return ctx.db
    .select()
    .from(marketplaceReservations)
    .where(and(eq(marketplaceReservations.customerId, tenantOf(ctx)), where))
    .get();
}

/** POST /ota/v2/reserve */
export async function reserveHold(
  ctx: Ctx,
  cfg: ConfigRow,
  body: { productOptionId: string; travelDate: string; startTime?: string; tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number },
) {
  const { ref, item } = await optionItem(ctx, body.productOptionId);
  sameCurrency(cfg, item);
  const demand = ticketsOf(item, body);
  const w = await windowOf(ctx, item, ref, body.travelDate, body.startTime, demand.seatsHint);
  const q = await quote(ctx, item, w, demand.tickets, demand.travelers);
  // The sales rules of the marketplace (notice, advance window, opening hours) before the hold;
  // capacity is then checked and taken atomically inside the item's lock.
  const busy = await busyOf(ctx, item, w.start, w.end);
  const v = await vacancies(ctx, item, { start: w.start, end: w.end, seats: item.item.kind === 'tour' ? (q.seats ?? demand.travelers) : undefined }, busy);
  if (!v.available)
    throw new ApiError('unavailable', v.reasons.map((r) => r.message).join('; ') || 'No room at that time', {
      extra: { reasons: v.reasons, vacancies: v.vacancies },
    });
  const now = Date.now();
  const row: Row = {
    id: newId('mkr'),
    customerId: tenantOf(ctx),
    configId: cfg.id,
    itemId: item.row.id,
    productOptionId: optionId(item.row.id, ref.hours),
    travelDate: body.travelDate,
    startTime: w.time,
    start: w.start,
    end: w.end,
    totalTravelers: q.participants ?? demand.travelers,
    tickets: demand.tickets,
    priceCents: q.total,
    currency: q.currency,
    status: 'held',
    expiresAt: now + HOLD_MS,
    bookingRef: null,
    rentalId: null,
    transactionId: null,
    traveler: null,
    amendments: 0,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  await holdInventory(
    ctx,
    { item, holdId: row.id, start: w.start, end: w.end, seats: q.seats ?? 1, privateCharter: q.privateCharter, capacity: w.capacity, expiresAt: row.expiresAt },
    async (allocationStmts) => {
      await commit(ctx, [ctx.db.insert(marketplaceReservations).values(row), ...allocationStmts], {
        audit: {
          action: 'marketplace.reserve',
          targetType: 'marketplace_reservation',
          targetId: row.id,
          details: { productOptionId: row.productOptionId, start: new Date(w.start).toISOString(), travelers: row.totalTravelers, price: row.priceCents },
        },
      });
    },
  );
  return reservationOut(row);
}

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
  const r = await rowOf(ctx, eq(marketplaceReservations.id, body.reservationReference));
  if (!r) return rejected('UNKNOWN_RESERVATION', 'No reservation with this reference', { bookingRef: body.bookingRef });
  if (r.status === 'confirmed')
    return r.bookingRef === body.bookingRef ? confirmed(r) : rejected('ALREADY_CONFIRMED', 'This reservation was confirmed under another bookingRef', r);
  if (r.status === 'confirming') return rejected('IN_PROGRESS', 'This reservation is being confirmed; retry in a moment', r);
  if (r.status !== 'held' || r.expiresAt <= Date.now()) {
    if (r.status === 'held') await expire(ctx, r);
    return rejected('HOLD_EXPIRED', 'The reservation hold expired or was released; reserve again', { ...r, bookingRef: body.bookingRef });
  }
  const dup = await rowOf(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef));
  if (dup && dup.id !== r.id) return rejected('DUPLICATE_BOOKING_REF', `bookingRef ${body.bookingRef} already belongs to reservation ${dup.id}`, r);

  // Claim the reservation: one confirmation proceeds, concurrent ones see CONFIRMING.
  const transactionId = newId('txn');
  const where = and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId));
  const claim = await ctx.db
    .update(marketplaceReservations)
    .set({ status: 'confirming', bookingRef: body.bookingRef, transactionId, updatedAt: new Date().toISOString() })
    .where(and(where, eq(marketplaceReservations.status, 'held')))
    .run()
    .catch((err: unknown) => {
      if (/UNIQUE/i.test(String(err))) return null;
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
              updatedAt: new Date().toISOString(),
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
  return confirmed((await rowOf(ctx, eq(marketplaceReservations.id, r.id)))!);
}

async function expire(ctx: Ctx, r: Row) {
  await ctx.db
    .update(marketplaceReservations)
    .set({ status: 'expired' })
    .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId), eq(marketplaceReservations.status, 'held')));
}

/** POST /ota/booking-cancellation: a confirmed booking is cancelled (cancelBooking), a reservation still on hold released. Idempotent. */
export async function cancelReservation(ctx: Ctx, body: { bookingRef?: string; reservationReference?: string; cancelReason?: string }): Promise<Outcome> {
  const r = body.bookingRef
    ? await rowOf(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef))
    : await rowOf(ctx, eq(marketplaceReservations.id, body.reservationReference!));
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

/** POST /ota/booking-amendment: a new date or start time for a confirmed booking (the same travelers; the price is kept). */
export async function amendReservation(
  ctx: Ctx,
  body: { bookingRef: string; travelDate: string; startTime?: string; tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number },
): Promise<Outcome> {
  const r = await rowOf(ctx, eq(marketplaceReservations.bookingRef, body.bookingRef));
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
  const next: Row = { ...r, travelDate: localDate(w.start, tz), startTime: localTime(w.start, tz), start: w.start, end: w.end, amendments: r.amendments + 1 };
  await ctx.db
    .update(marketplaceReservations)
    .set({
      travelDate: next.travelDate,
      startTime: next.startTime,
      start: next.start,
      end: next.end,
      amendments: next.amendments,
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.customerId, r.customerId)));
  return confirmed(next);
}

/**
 * Cron: holds past their expiry become `expired` (their allocations already stopped counting);
 * a confirmation interrupted half-way (`confirming` for over 2 minutes) is settled: confirmed if
 * its booking was written, else back on hold (or expired).
 */
export async function sweepReservations(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  const expired = await db
    .update(marketplaceReservations)
    .set({ status: 'expired' })
    .where(and(eq(marketplaceReservations.status, 'held'), lt(marketplaceReservations.expiresAt, now)))
    .run();
  const stale = await db
    .select()
    .from(marketplaceReservations)
    .where(and(eq(marketplaceReservations.status, 'confirming'), lt(marketplaceReservations.updatedAt, new Date(now - 120_000).toISOString())))
    .limit(100)
    .all();
  for (const r of stale) {
    const booking = r.transactionId
      ? await db
          .select({ id: bookings.id })
          .from(bookings)
          .where(and(eq(bookings.transactionId, r.transactionId), eq(bookings.customerId, r.customerId)))
          .get()
      : undefined;
    await db
      .update(marketplaceReservations)
      .set(booking ? { status: 'confirmed', rentalId: booking.id } : { status: r.expiresAt > now ? 'held' : 'expired', bookingRef: null, transactionId: null })
      .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.status, 'confirming')));
  }
  return { expired: expired.meta.changes ?? 0, settled: stale.length };
}
