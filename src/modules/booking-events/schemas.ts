import { z } from '@hono/zod-openapi';

const short = (max = 200) => z.string().trim().min(1).max(max);

export const CreateEventBody = z
  .object({
    transactionid: short(128).optional().openapi({ description: 'The order (transaction) the event is about' }),
    rentalId: short(128).optional().openapi({ description: "The rental the event is about; must be one of the caller's" }),
    event_type: short(100).optional().openapi({ description: 'Alias of eventType' }),
    eventType: short(100).optional().openapi({ example: 'note' }),
    event_change: z.string().trim().max(2000).optional().openapi({ description: 'What changed, e.g. "status: pending → confirmed"' }),
    eventLabel: z.string().trim().max(200).optional(),
    content: z.string().max(10_000).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    actorName: z.string().trim().max(200).optional().openapi({ description: "Defaults to the caller's name" }),
    actorId: z.string().trim().max(128).optional().openapi({ description: "Defaults to the caller's user id" }),
    customerId: z.string().trim().max(128).optional().openapi({ description: "The operator account; another operator's answers 403" }),
  })
  .openapi('CreateBookingEvent');

export const ListEventsQuery = z.object({
  transactionid: short(128).optional().openapi({ description: 'Events of this order and of its rentals' }),
  rentalIds: z.string().trim().min(1).max(5000).optional().openapi({ description: 'Comma-separated rental ids (at most 100)', example: 'bk_01J...,bk_01K...' }),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  offset: z.coerce.number().int().min(0).default(0),
});

export const BookingEvent = z
  .object({
    id: z.string(),
    transactionid: z.string().nullable(),
    rentalId: z.string().nullable(),
    event_type: z.string().nullable(),
    eventType: z.string().nullable(),
    event_change: z.string().nullable(),
    eventLabel: z.string().nullable(),
    content: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    actorName: z.string().nullable(),
    actorId: z.string().nullable(),
    customerId: z.string(),
    createdAt: z.string(),
  })
  .openapi('BookingEvent');

export const EventList = z.object({ data: z.array(BookingEvent), total: z.number(), limit: z.number(), offset: z.number() }).openapi('BookingEventList');
