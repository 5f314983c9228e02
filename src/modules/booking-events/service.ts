/**
 * The booking-events module's face, and the append of an event its router calls. Others use it for:
 * - writing to a booking's activity log (the renter's booking sidekick): createEvent.
 */
import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { bookingEvents, bookings } from '../../db/schema/bookings';
import { eventOut, type EventRow } from './views';

export interface CreateEventInput {
  transactionid?: string;
  rentalId?: string;
  event_type?: string;
  eventType?: string;
  event_change?: string;
  eventLabel?: string;
  content?: string;
  details?: Record<string, unknown>;
  actorName?: string;
  actorId?: string;
  customerId?: string;
}

const MAX_DETAILS_BYTES = 32 * 1024;

/** POST /events: appends an entry to the booking activity log of the caller's account. */
export async function createEvent(ctx: Ctx, input: CreateEventInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  if (input.event_type && input.eventType && input.event_type !== input.eventType) {
    throw new ApiError('validation_failed', 'event_type and eventType differ; send one of them', {
      details: [{ field: 'eventType', code: 'conflict', message: 'differs from event_type' }],
    });
  }
  const eventType = input.eventType ?? input.event_type ?? null;
  if (!input.transactionid && !input.rentalId && !eventType && !input.content && !input.eventLabel && !input.event_change && !input.details) {
    throw new ApiError('validation_failed', 'An event needs at least one of transactionid, rentalId, eventType, eventLabel, event_change, content or details');
  }
  if (input.details && JSON.stringify(input.details).length > MAX_DETAILS_BYTES) {
    throw new ApiError('validation_failed', `details is larger than ${MAX_DETAILS_BYTES / 1024} KiB`, {
      details: [{ field: 'details', code: 'too_big', message: 'too large' }],
    });
  }
  let transactionId = input.transactionid ?? null;
  if (input.rentalId) {
    const rental = await ctx.db
      .select({ id: bookings.id, transactionId: bookings.transactionId })
      .from(bookings)
      .where(and(eq(bookings.id, input.rentalId), eq(bookings.customerId, customerId)))
      .get();
    if (!rental) throw notFound('Rental');
    if (transactionId && transactionId !== rental.transactionId) {
      throw new ApiError('validation_failed', `Rental ${rental.id} belongs to transaction ${rental.transactionId}, not ${transactionId}`, {
        details: [{ field: 'transactionid', code: 'mismatch', message: 'does not match the rental' }],
      });
    }
    transactionId = rental.transactionId;
  }
  const row: EventRow = {
    id: newId('bev'),
    customerId,
    transactionId,
    rentalId: input.rentalId ?? null,
    eventType,
    eventChange: input.event_change ?? null,
    eventLabel: input.eventLabel ?? null,
    content: input.content ?? null,
    details: input.details ?? null,
    actorName: input.actorName ?? ctx.principal.name ?? null,
    actorId: input.actorId ?? ctx.principal.userId ?? ctx.principal.credentialId,
    createdAt: nowIso(ctx),
  };
  await commit(ctx, [ctx.db.insert(bookingEvents).values(row)], {
    audit: {
      action: 'booking_event.create',
      targetType: row.rentalId ? 'rental' : 'transaction',
      targetId: row.rentalId ?? row.transactionId,
      details: { eventId: row.id, eventType },
    },
  });
  return eventOut(row);
}
