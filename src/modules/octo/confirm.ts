/**
 * Confirmation: the hold becomes the operator's booking through `createBooking`, the same commit
 * as every other sale (channel source, reseller-paid, the connection's commission stamped, the
 * channel's platform fee on live keys, booking.created and status events, the schedule and the
 * channel's settlement). Inside the item's lock the booking is checked with the hold's own
 * allocations set aside, and in the booking's batch the hold is released before the booking's
 * allocations go in, with the OCTO booking's compare-and-swap: the time is never free in between,
 * and two racing confirmations (or a confirmation racing a cancellation or the expiry) write once.
 */
import type { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { octoBookings } from '../../db/schema/octo';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import { createBooking, type CreateBookingOptions } from '../bookings/service';
import { merchantCtx, PLATFORM_FEE_CENTS } from '../channel/service';
import type { OctoCaller } from './auth';
import { octoFail } from './errors';
import { casStmt, defOfRow, demandOf, isVersionConflict, optionOrFail, quoteFor, unitItemRows } from './holds';
import { bookingOfKey, type OctoBookingRow } from './queries';
import { bookingView } from './lookup';
import { statusOf } from './views';
import type { ConfirmBody } from './schemas';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

type BookInput = Parameters<typeof createBooking>[1];

/** POST /octo/v1/bookings/{uuid}/confirm. Confirming a confirmed booking answers it as it is. */
export async function confirmBooking(ctx: Ctx, caller: OctoCaller, uuid: string, body: z.output<typeof ConfirmBody>) {
  const p = caller.p;
  const row = await bookingOfKey(ctx, p, uuid);
  // The seller is known: its clock (a sandbox test clock's operator reads its clock's time).
  ctx = await onOperatorClock(ctx, row.customerId);
  const status = statusOf(row, { rental: null }, ctx.clock.now());
  if (status === 'CONFIRMED') return bookingView(ctx, caller, row);
  if (status === 'EXPIRED') throw octoFail('INVALID_BOOKING_UUID', 'The reservation expired before it was confirmed; reserve again', { extra: { uuid } });
  if (status !== 'ON_HOLD') throw octoFail('UNPROCESSABLE_ENTITY', `A ${status} booking cannot be confirmed`);
  const c = await confirmationOf(ctx, p, row, body);
  const mctx = await merchantCtx(ctx, p, c.def.conn);
  try {
    const res = await createBooking(mctx, bookingInputOf(p, row, body, c), bookingOptionsOf(ctx, p, row, body, c));
    // The operator's rental id, for reads (no version change: the confirmation is already written).
    await ctx.db.update(octoBookings).set({ rentalId: res.rentalId }).where(eq(octoBookings.id, row.id)).run();
  } catch (err) {
    return confirmFailure(ctx, caller, row, uuid, err);
  }
  return bookingView(ctx, caller, await bookingOfKey(ctx, p, row.id));
}

/** What a confirmation sells: the hold's product and units (or the ones sent now), its price, and who the guest is. */
async function confirmationOf(ctx: Ctx, p: OctoCaller['p'], row: OctoBookingRow, body: z.output<typeof ConfirmBody>) {
  const def = await defOfRow(ctx, p, row);
  optionOrFail(def, row.optionId);
  const items = body.unitItems ?? row.unitItems.map((u) => ({ ...u, resellerReference: u.resellerReference ?? undefined, contact: u.contact ?? undefined }));
  const want = demandOf(def, items);
  const quote = body.unitItems ? quoteFor(def, row, items) : row.quote;
  const contact = { ...(row.contact ?? {}), ...(body.contact ?? {}) } as Record<string, unknown>;
  const resellerReference = body.resellerReference ?? row.resellerReference;
  const full = str(contact.fullName)?.split(/\s+/) ?? [];
  const firstName = str(contact.firstName) ?? full[0] ?? 'Guest';
  const lastName = str(contact.lastName) ?? (full.length > 1 ? full.slice(1).join(' ') : `of ${def.conn.name}`.slice(0, 100));
  const email = str(contact.emailAddress) ?? `guest+${(await sha256Hex(def.conn.id)).slice(0, 12)}@channel.berth.invalid`;
  return { def, want, quote, contact, resellerReference, guest: { firstName, lastName, email }, confirmedAt: nowIso(ctx) };
}
type Confirmation = Awaited<ReturnType<typeof confirmationOf>>;

/** The operator's booking of the hold: its window and units, the guest, and the channel's reference. */
function bookingInputOf(p: OctoCaller['p'], row: OctoBookingRow, body: z.output<typeof ConfirmBody>, c: Confirmation): BookInput {
  const { def, want, contact, guest } = c;
  return {
    rentalDetails: {
      inventoryId: def.it.row.id,
      startTime: new Date(row.start).toISOString(),
      endTime: new Date(row.end).toISOString(),
      ...(def.kind === 'tour'
        ? def.privateCharter || !Object.keys(want.tickets).length
          ? { quantity: want.count }
          : { tickets: want.tickets }
        : { quantity: want.count }),
      ...(row.notes || body.notes ? { notes: (body.notes ?? row.notes)! } : {}),
    },
    rentalPricing: {},
    customerInfo: {
      firstName: guest.firstName.slice(0, 100),
      lastName: guest.lastName.slice(0, 100),
      email: guest.email,
      ...(str(contact.phoneNumber) ? { phone: str(contact.phoneNumber) } : {}),
    },
    extendedData: { channel: { reference: c.resellerReference, connectionId: def.conn.id, mode: p.mode }, octo: { bookingId: row.id, uuid: row.uuid } },
  };
}

/**
 * How the booking sale takes it: a reseller-paid channel sale at the hold's price, replacing the
 * hold's allocations, with the platform fee on live keys and the OCTO booking's compare-and-swap in its batch.
 */
function bookingOptionsOf(ctx: Ctx, p: OctoCaller['p'], row: OctoBookingRow, body: z.output<typeof ConfirmBody>, c: Confirmation): CreateBookingOptions {
  const { def, quote, resellerReference } = c;
  const testMode = p.mode === 'test';
  return {
    source: 'channel',
    prepaid: true,
    transactionId: row.transactionId,
    priceOverride: { total: quote.retail },
    replacesHold: { sourceId: row.id },
    channel: { connectionId: def.conn.id, reference: resellerReference, commissionRate: def.conn.commissionRate, testMode, idempotencyKey: `octo:${row.id}` },
    extraLedger: testMode
      ? []
      : [
          {
            entryType: 'platform_fee',
            amount: PLATFORM_FEE_CENTS,
            affectsBalance: false,
            description: 'Channel platform fee (OCTO)',
            source: 'channel',
            reference: row.transactionId,
          },
        ],
    statements: [
      casStmt(ctx, row, {
        status: 'CONFIRMED',
        confirmedAt: c.confirmedAt,
        expiresAt: null,
        contact: c.contact,
        resellerReference,
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
        ...(body.unitItems ? { unitItems: unitItemRows(body.unitItems), quote } : {}),
      }),
    ],
  };
}

/** A confirmation that failed: a racing confirmation may have won (its pending seats refused ours, or its batch came first), then it is answered. */
async function confirmFailure(ctx: Ctx, caller: OctoCaller, row: OctoBookingRow, uuid: string, err: unknown) {
  const now = await bookingOfKey(ctx, caller.p, row.id);
  if (now.status === 'CONFIRMED') return bookingView(ctx, caller, now);
  if (isUniqueViolation(err) || isVersionConflict(err)) {
    throw octoFail(
      'UNPROCESSABLE_ENTITY',
      `The booking was ${now.status === 'ON_HOLD' ? 'changed' : now.status.toLowerCase()} by another request at the same time`,
    );
  }
  if (err instanceof ApiError && err.code === 'unavailable') {
    if ((row.expiresAt ?? 0) <= ctx.clock.now())
      throw octoFail('INVALID_BOOKING_UUID', 'The reservation expired before it was confirmed; reserve again', { extra: { uuid } });
    throw octoFail('UNPROCESSABLE_ENTITY', `Cannot confirm: ${err.message}`);
  }
  if (err instanceof ApiError && err.status < 500) throw octoFail('UNPROCESSABLE_ENTITY', `Cannot confirm: ${err.message}`);
  throw err;
}
