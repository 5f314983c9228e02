import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Booking events'];

export const createEvent = route({
  method: 'post',
  path: '/events',
  operationId: 'createBookingEvent',
  tags,
  summary: 'Add an entry to the booking activity log',
  body: s.CreateEventBody,
  ok: s.BookingEvent,
  status: 200,
  errors: [403, 404],
  description: `The activity log of bookings (notes, calls, changes shown on a booking's timeline); these are not webhooks. Every field is optional,
but an entry needs at least one of transactionid, rentalId, eventType, eventLabel, event_change, content or details (400 for an empty one).
\`event_type\` is an alias of \`eventType\`. A \`rentalId\` must be one of the caller's rentals (404) and fills \`transactionid\` from the rental (a
different \`transactionid\` answers 400). \`actorName\`/\`actorId\` default to the caller. A foreign \`customerId\` answers 403. \`details\` is capped
at 32 KiB.`,
});

export const listEvents = route({
  method: 'get',
  path: '/events',
  operationId: 'listBookingEvents',
  tags,
  summary: 'Activity of an order or of rentals',
  query: s.ListEventsQuery,
  ok: s.EventList,
  description: `Give \`transactionid\` (the order's entries and those of its rentals) and/or \`rentalIds\` (comma-separated, at most 100); with
neither the answer is 400. Oldest first, \`limit\` (default 500, max 1000) and \`offset\` with \`total\`. Only the caller's entries.`,
});
