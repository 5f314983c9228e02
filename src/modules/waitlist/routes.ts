import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Waitlist'];

const STATUS_DOC = `Statuses: \`waiting\` (in the queue) -> \`offered\` (a spot is held for the person, with an expiry) -> \`booked\` (they booked
with the same e-mail, using the held spot) | \`expired\` (the offer ran out; the spot went to the next entry) | \`cancelled\`; \`waiting\` ->
\`cancelled\` (by the operator) | \`closed\` (the date or wanted departure passed). An entry is offered at most once.`;

const CASCADE_DOC = `Offers: when capacity comes back (a booking of the item is cancelled or marked no-show, through any path: operator, widget,
reseller channel; or an offer expires or is cancelled), the oldest \`waiting\` entries for the same item and local date — and, when the entry names a
time, that departure (tours) or a window overlapping the freed one (rentals) — are offered in order. Each offer is a hold of \`quantity\` seats/units
on exactly that departure/window, taken through the item's inventory lock, lasting 24 hours (or until the start, if sooner); everyone else sees the
spot as taken, and the person gets an e-mail (template \`waitlist.offer\`) with a booking link (the location's \`details.bookingUrl\`, else this API's
\`/public/day-availability\`, with \`inventoryId\`, \`locationId\`, \`date\`, \`time\`, \`quantity\` and \`waitlistEntryId\`). Booking with the same
e-mail uses the held spot and makes the entry \`booked\`. The queue is strict: when the oldest matching entry does not fit, later ones are not offered
automatically (use \`POST /waitlist/{id}/offer\`). Expired offers are swept every 5 minutes and their spot offered to the next entry.`;

export const join = route({
  method: 'post',
  path: '/public/waitlist',
  operationId: 'joinWaitlist',
  tags,
  access: 'public',
  status: 201,
  summary: 'Join the waitlist of an item for a date (and time)',
  description: `Public (credentials optional; an authenticated operator may only use its own items: another \`customerId\` is 403). \`inventoryId\`,
\`locationId\` and, when given, \`customerId\` must belong together (404 otherwise; private items answer 404 to anyone but their operator). \`date\`
is the local date at the item's location and must be today or later; \`time\` must be a departure of the tour on that date that has not left, or for a
rental a start within the opening hours (400 otherwise; a date, departure or start already past at the location, on the operator's clock, is 400
\`in_the_past\`). \`quantity\` is the number of seats (tours) or units (rentals) to hold when a spot is offered
(default 1). One active (waiting or offered) entry per e-mail, item, date and time: joining again answers that entry with 200 and \`created: false\`.
A confirmation e-mail (template \`waitlist.joined\`) is sent. ${CASCADE_DOC} ${STATUS_DOC}`,
  body: s.JoinBody,
  ok: s.JoinResult,
  errors: [403, 404],
});

export const list = route({
  method: 'get',
  path: '/waitlist',
  operationId: 'listWaitlistEntries',
  tags,
  summary: "The operator's waitlist entries",
  description: `Filters: \`inventoryId\`, \`locationId\`, \`date\` (local YYYY-MM-DD), \`status\`, \`email\`. Ordered by date, then queue order
(oldest first). Paginated with \`page\`/\`limit\` (max 100); \`pagination.total\` counts every match. Offers already used by a booking are reported as
\`booked\`. ${STATUS_DOC}`,
  query: s.ListQuery,
  ok: s.ListResult,
});

export const get = route({
  method: 'get',
  path: '/waitlist/{id}',
  operationId: 'getWaitlistEntry',
  tags,
  summary: 'A waitlist entry with its offer',
  description: `Another operator's entry answers 404. ${STATUS_DOC}`,
  params: s.IdParams,
  ok: s.Entry,
  errors: [404],
});

export const cancel = route({
  method: 'delete',
  path: '/waitlist/{id}',
  operationId: 'cancelWaitlistEntry',
  tags,
  summary: 'Cancel a waitlist entry (and release its offer)',
  description: `A \`waiting\` entry becomes \`cancelled\`. An \`offered\` entry becomes \`cancelled\`, its hold is released at once and the spot is
offered to the next waiting entry. Cancelling again answers 200 with \`alreadyCancelled: true\`; \`booked\`, \`expired\` and \`closed\` entries are
409 \`invalid_state\`. Needs the \`bookings\` permission (admins and managers have it). ${STATUS_DOC}`,
  params: s.IdParams,
  ok: s.CancelResult,
  errors: [403, 404, 409],
});

export const offer = route({
  method: 'post',
  path: '/waitlist/{id}/offer',
  operationId: 'offerWaitlistSpot',
  tags,
  summary: 'Offer a waiting entry its spot now (if capacity is free)',
  description: `Takes a hold of the entry's \`quantity\` through the item's inventory lock and e-mails the offer, exactly like the automatic cascade
but regardless of queue order. Tours: the entry's departure, or without a time the first upcoming departure of the date with room. Rentals: the
entry's time and duration (or \`time\`/\`duration\` from the body; a rental entry without a time needs \`time\`, 400 otherwise; the duration defaults
to the item's shortest rental). Send \`{}\` to use the entry's own time. 400 \`in_the_past\` when the entry's date, or the departure or start
offered, is already past at the location (on the operator's clock; nothing is held). 409 \`unavailable\` when the lock finds no room; 409 \`invalid_state\` when
the entry is not \`waiting\` (an entry is offered at most once). Needs the \`bookings\` permission. ${STATUS_DOC}`,
  params: s.IdParams,
  body: s.OfferBody,
  ok: s.Entry,
  errors: [403, 404, 409],
});
