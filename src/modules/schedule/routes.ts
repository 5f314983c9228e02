import { route } from '../../lib/openapi';
import { BOOKING_STATUSES } from '../../lib/booking-status';
import * as s from './schemas';

const tags = ['Schedule'];

const ENTRY_NOTE = `Each entry is one rental (line item): \`startTime\`/\`endTime\` are UTC instants with \`localDate\` in the location's zone;
amounts (\`total\`, \`amountPaid\`, \`balanceDue\`) are dollars; the renter's name and contact come from the booking's \`customerInfo\`, completed
from the renters record.`;
const DATE_NOTE = `\`start_date\`/\`end_date\` take a local day \`YYYY-MM-DD\` (midnight to midnight in the location's time zone, end day inclusive)
or an ISO 8601 instant with offset (end exclusive).`;

export const schedule = route({
  method: 'get',
  path: '/schedule/schedule',
  operationId: 'listItemSchedule',
  tags,
  summary: 'Bookings of one inventory item (filters, sorting, page/limit)',
  query: s.ScheduleQuery,
  ok: s.ScheduleResponse,
  errors: [404],
  description: `${ENTRY_NOTE} ${DATE_NOTE} By default a booking is in the window when it starts inside it; \`extend=true\` also takes rentals that
started earlier and are still running at \`start_date\`. \`status_filter\` is a comma-separated list of ${BOOKING_STATUSES.join(', ')} (an unknown
status answers 400). \`sort_by\`: ${s.SORT_FIELDS.join(', ')} (ties broken by rental id). \`statusCounts\` counts the window per status ignoring
\`status_filter\` (for status tabs). \`dates_only=true\` answers \`dates: [{date, count}]\` instead of the bookings. \`include_drydock=true\` adds the
item's drydock periods overlapping the window. \`use_parallel\` and \`use_scan\` are accepted for compatibility and change nothing: one indexed query
answers every request. An item of another operator answers 404.`,
});

export const search = route({
  method: 'get',
  path: '/schedule/schedule/search',
  operationId: 'searchItemSchedule',
  tags,
  summary: "Search an item's bookings by partial rental id, renter name or e-mail",
  query: s.SearchQuery,
  ok: s.SearchResponse,
  errors: [404],
  description: `${ENTRY_NOTE} Give at least one of \`rental_id\`, \`customer_name\`, \`email\` (400 otherwise); each is a case-insensitive substring
match and all given terms must match. \`customer_name\` matches first, last or full name. Newest rentals first, at most \`limit\` (default 50,
max 200) with the \`total\` number of matches.`,
});

export const locationSchedule = route({
  method: 'get',
  path: '/schedule/location',
  operationId: 'listLocationSchedule',
  tags,
  summary: 'Bookings of several locations',
  query: s.LocationQuery,
  ok: s.LocationResponse,
  errors: [404],
  description: `\`location_ids\` is a JSON array of 1 to 50 location id strings (\`["loc_a","loc_b"]\`); anything else answers 400, and an id that is
not one of the caller's locations answers 404. ${DATE_NOTE} Each location's local days are read in its own zone. Ordered by start; \`page\`/\`limit\`
(default 200, max 500) with \`total\`; \`locations\` gives every requested location with its number of matching bookings. \`lightweight=true\` returns
only rentalId, status, startTime, endTime, inventoryId and assetIds. ${ENTRY_NOTE}`,
});

export const byCustomerStatus = route({
  method: 'get',
  path: '/schedule/by-customer-status',
  operationId: 'listScheduleByCustomerStatus',
  tags,
  summary: 'Bookings of the operator account by status',
  query: s.ByCustomerStatusQuery,
  ok: s.StatusListResponse,
  errors: [403],
  description: `\`customer_id\` is the operator account (the API's "customer"); it defaults to the caller's and another operator's id answers 403.
\`status\` takes one status or a comma-separated list (${BOOKING_STATUSES.join(', ')}). ${DATE_NOTE} Ordered by start (\`sort_order\`),
\`page\`/\`limit\` with \`total\`; \`statusCounts\` counts every status for the same window. \`lightweight=true\` returns only rentalId, status,
startTime, endTime, inventoryId and assetIds.`,
});

export const byLocationStatus = route({
  method: 'get',
  path: '/schedule/by-location-status',
  operationId: 'listScheduleByLocationStatus',
  tags,
  summary: 'Bookings of one location by status',
  query: s.ByLocationStatusQuery,
  ok: s.StatusListResponse,
  errors: [404],
  description: `As /schedule/by-customer-status for one location (another operator's location answers 404). ${DATE_NOTE}`,
});

const FILTERS_NOTE = `\`filters\` is a JSON object with any of: \`inventoryId\`, \`locationId\` (a string or an array), \`status\` (a status or an
array), \`source\` (operator, widget, channel, marketplace, import), \`renterId\`, \`transactionId\`, \`startDate\`, \`endDate\` (local day YYYY-MM-DD
or ISO instant, bounds on the start), \`search\` (part of a rental id, renter name or e-mail). An unknown key, a bad value or text that is not a JSON
object answers 400 naming the field.`;

export const paginated = route({
  method: 'get',
  path: '/schedule/schedules/paginated',
  operationId: 'listSchedulesPaginated',
  tags,
  summary: 'Every booking of the account, cursor-paginated',
  query: s.PaginatedQuery,
  ok: s.PaginatedResponse,
  errors: [403],
  description: `Keyset pagination in (start, rentalId) order: a booking added or changed while you page is never skipped nor repeated. Pass the
\`nextCursor\` of a page as \`cursor\` to get the next one (\`hasMore\` false and \`nextCursor\` null at the end). The cursor is base64 of JSON
\`{"v":1,"after":[startEpochMs,"rentalId"],"filters":{...}}\`; it carries the filters, so later pages need only \`cursor\` (sending other \`filters\`
with it answers 400). An undecodable or malformed cursor answers 400 \`invalid_cursor\`. ${FILTERS_NOTE} ${ENTRY_NOTE}`,
});

export const countSchedules = route({
  method: 'get',
  path: '/schedule/schedules/count',
  operationId: 'countSchedules',
  tags,
  summary: "Count the account's bookings matching filters",
  query: s.CountQuery,
  ok: s.CountResponse,
  errors: [403],
  description: `\`total\` and \`byStatus\` for the filters (all bookings without filters). ${FILTERS_NOTE}`,
});
