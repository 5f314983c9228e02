/**
 * POST /public/slips/book and the documents of a public booking. The reservation is created by the
 * slip reservations module through the unit's SlipLock with the location's booking settings:
 * `pending` when the location approves bookings, else `confirmed`; the deposit (or, without a
 * deposit and without approval, the total) is charged through the shared payments service inside
 * the lock before the write (`payment.completed` in the reservation's batch; refunded if the write
 * fails); `booking.created` and, for a new renter, `customer.created` fire. The booker gets a
 * booking token once: the credential of the reservation's public document endpoints.
 */
import { eq } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { ApiError, notFound } from '../../lib/errors';
import { randomString } from '../../lib/ids';
import { slipPublicBookings as PB } from '../../db/schema/public-slips';
import { formatCalendarRange } from '../../lib/local-time';
import { emailStmt } from '../../adapters/messages';
import { announceDocument, receiveUpload, requirementsOf } from '../slip-documents/service';
import {
  getReservationRow,
  nightsBetween,
  quoteStay,
  requireNotPast,
  reservationMoney,
  writeNewReservation,
  type ReservationRow,
} from '../slip-reservations/service';
import type * as s from './schemas';
import { dueAtBooking, requirePublicBooking, requireRateType } from './pages';
import { forOperator, publicUnit } from './queries';
import { BOOKING_TOKEN_PREFIX } from './types';

const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;

async function publicDocuments(ctx: Ctx, r: ReservationRow) {
  const req = await requirementsOf(ctx, r);
  return {
    reservationId: r.id,
    requirements: req.requirements,
    documents: req.documents.map((d) => ({
      id: d.id,
      type: d.type,
      status: d.status,
      fileName: d.fileName,
      expiresOn: d.expiresOn,
      reviewNote: d.reviewNote,
      createdAt: d.createdAt,
    })),
    complete: req.complete,
  };
}

export async function book(ctx: Ctx, input: z.output<typeof s.BookBody>) {
  const op = await publicUnit(ctx, input.slipId);
  requirePublicBooking(op.settings, 'bookings');
  requireRateType(op.settings, input.rateType);
  // A stay starts today at the earliest (the marina's calendar, on its clock): 400 `in_the_past`, nothing charged.
  await requireNotPast(op.ctx, op.location.id, input.arrivalDate);
  // The same price the reservation will have: what is due now is known before anything is written.
  const q = await quoteStay(op.ctx, {
    slip: op.slip,
    rateType: input.rateType,
    arrivalDate: input.arrivalDate,
    departureDate: input.departureDate,
    boat: input.boat,
  });
  const due = dueAtBooking(op.settings, q);
  if (due > 0 && !input.paymentMethodId)
    throw new ApiError('validation_failed', `paymentMethodId is required: ${dollars(due)} is due at booking`, {
      details: [{ field: 'paymentMethodId', code: 'required', message: `${dollars(due)} is due at booking` }],
    });
  const token = `${BOOKING_TOKEN_PREFIX}${randomString(40)}`;
  const tokenHash = await sha256Hex(token);
  const status = op.settings.approvalRequired ? 'pending' : 'confirmed';
  let charged = 0;
  const view = await writeNewReservation(
    op.ctx,
    {
      slipId: op.slip.id,
      rateType: input.rateType,
      arrivalDate: input.arrivalDate,
      departureDate: input.departureDate,
      boat: input.boat,
      renter: input.renter,
      status,
      overrideFit: false,
      notes: input.notes,
    },
    {
      source: 'public',
      payment: (row) => {
        charged = dueAtBooking(op.settings, row);
        return charged > 0 ? { kind: 'card', amountCents: charged, paymentMethodId: input.paymentMethodId!, note: 'Online booking' } : null;
      },
      extra: (row) => ({
        stmts: [
          op.ctx.db.insert(PB).values({ reservationId: row.id, customerId: row.customerId, locationId: row.locationId, tokenHash }),
          emailStmt(op.ctx, {
            customerId: row.customerId,
            to: row.renter.email,
            subject: status === 'pending' ? `Reservation request ${row.reservationNumber} received` : `Reservation ${row.reservationNumber} confirmed`,
            body: [
              `Hello ${row.renter.firstName},`,
              status === 'pending'
                ? `we received your request for unit ${op.slip.unitNumber}, ${formatCalendarRange(row.arrivalDate, row.departureDate)} (${row.boat.vesselName}). The marina will confirm it shortly.`
                : `your reservation of unit ${op.slip.unitNumber}, ${formatCalendarRange(row.arrivalDate, row.departureDate)} (${row.boat.vesselName}), is confirmed.`,
              `Total ${dollars(row.totalCents)}${charged ? `, paid now ${dollars(charged)}` : ''}.`,
              op.settings.requiredDocuments.length ? `Please send us these documents: ${op.settings.requiredDocuments.join(', ')}.` : '',
            ]
              .filter(Boolean)
              .join('\n\n'),
            template: 'slip_public.booking',
            metadata: { slipReservationId: row.id },
          }).stmt,
        ],
      }),
    },
  );
  const r = await getReservationRow(op.ctx, view.id);
  const money = await reservationMoney(op.ctx, r);
  return {
    reservation: {
      id: r.id,
      reservationNumber: r.reservationNumber,
      status: r.status,
      slipId: r.slipId,
      unitNumber: op.slip.unitNumber,
      rateType: r.rateType,
      arrivalDate: r.arrivalDate,
      departureDate: r.departureDate,
      nights: nightsBetween(r.arrivalDate, r.departureDate),
      totalCents: r.totalCents,
      depositCents: r.depositCents,
      amountPaidCents: money.paid,
      balanceCents: money.balance,
      currency: r.currency,
    },
    bookingToken: token,
    payment: { chargedCents: money.paid, status: money.paid > 0 ? ('succeeded' as const) : ('none' as const) },
    documents: await publicDocuments(op.ctx, r),
  };
}

/** The reservation of a public booking whose token matches (anything else answers 404, without a token 401). */
async function bookedReservation(ctx: Ctx, reservationId: string, token: string | undefined) {
  if (!token) throw new ApiError('unauthenticated', 'Send the bookingToken of the booking as the X-Booking-Token header');
  const row = await ctx.db.select().from(PB).where(eq(PB.reservationId, reservationId)).get();
  if (!row || !timingSafeEqual(row.tokenHash, await sha256Hex(token))) throw notFound('Reservation');
  const tctx = await forOperator(ctx, row.customerId);
  return { ctx: tctx, r: await getReservationRow(tctx, row.reservationId) };
}

export async function bookingDocuments(ctx: Ctx, reservationId: string, token: string | undefined) {
  const b = await bookedReservation(ctx, reservationId, token);
  return publicDocuments(b.ctx, b.r);
}

export async function submitDocumentMetadata(
  ctx: Ctx,
  reservationId: string,
  token: string | undefined,
  input: z.output<typeof s.AnnounceBody>,
  baseUrl: string,
) {
  const b = await bookedReservation(ctx, reservationId, token);
  return announceDocument(b.ctx, b.r, input, baseUrl);
}

export async function uploadDocumentFile(ctx: Ctx, documentId: string, token: string | undefined, bytes: Uint8Array) {
  return receiveUpload(ctx, documentId, token, bytes);
}
