import type { z } from '@hono/zod-openapi';
import type { bookingEvents } from '../../db/schema/bookings';
import type { BookingEvent } from './schemas';

export type EventRow = typeof bookingEvents.$inferSelect;

/** A booking-log entry as the API answers it (`BookingEvent`; both spellings of the event type). */
export function eventOut(e: EventRow): z.output<typeof BookingEvent> {
  return {
    id: e.id,
    transactionid: e.transactionId ?? null,
    rentalId: e.rentalId ?? null,
    event_type: e.eventType ?? null,
    eventType: e.eventType ?? null,
    event_change: e.eventChange ?? null,
    eventLabel: e.eventLabel ?? null,
    content: e.content ?? null,
    details: e.details ?? null,
    actorName: e.actorName ?? null,
    actorId: e.actorId ?? null,
    customerId: e.customerId,
    createdAt: e.createdAt,
  };
}
