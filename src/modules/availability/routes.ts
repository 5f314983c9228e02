import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Availability, holds and drydock'];
const pub = ['Public'];

const ZONE_NOTE = `Days and slots are computed in the location's IANA zone (authoritative) and stay right on DST days: a 10:00 slot is 10:00 local, a
wall time skipped by the spring change is left out, a repeated one counts once. \`timezone\` only adds \`displayTime\`/\`displayDate\` rendered in
that zone. Instants are ISO 8601 UTC.`;
const STATUS_NOTE = `Day \`status\`: \`available\` (a slot can be booked), \`sold_out\` (taken or blocked), \`unavailable\` (past, inside the minimum
notice or beyond the advance window), \`closed\` (nothing runs). Rentals count assets (\`unitsFree\`), tours count seats (\`seatsFree\`, \`unitsFree\`
null). Bookings of every status that holds inventory (pending included), unexpired holds, drydock periods, maintenance blocks, turnaround buffers,
capacity overrides and schedule exceptions all count.`;

export const preload = route({
  method: 'get',
  path: '/preload-availability',
  operationId: 'preloadAvailability',
  tags,
  access: 'public',
  summary: "A month of availability with every day's slots (for the widget to preload)",
  description: `Public (no credentials needed). Same engine and rules as /public/availability; each day also carries its slots. A private item
(isPublic false) answers 404 unless the caller is its operator. ${ZONE_NOTE} ${STATUS_NOTE}`,
  query: s.PreloadQuery,
  ok: s.MonthResult,
  errors: [404],
});

export const month = route({
  method: 'get',
  path: '/public/availability',
  operationId: 'getMonthAvailability',
  tags: pub,
  access: 'public',
  summary: 'Daily availability of an item for a month',
  description: `404 when the item or location is unknown, the item is not at that location, or the item is private. ${ZONE_NOTE} ${STATUS_NOTE}`,
  query: s.MonthQuery,
  ok: s.MonthResult,
  errors: [404],
});

export const day = route({
  method: 'get',
  path: '/public/day-availability',
  operationId: 'getDayAvailability',
  tags: pub,
  access: 'public',
  summary: 'Slots of one day and its busy intervals',
  description: `\`slots\`: every start time of the day (rentals: each slot interval from opening while the shortest rental fits before closing; tours:
the departures) with units or seats left. \`bookings\`: busy intervals (booked, held, blocked) with the asset, never renter data. ${ZONE_NOTE}`,
  query: s.DayQuery,
  ok: s.DayResult,
  errors: [404],
});

export const check = route({
  method: 'get',
  path: '/public/check-availability',
  operationId: 'checkAssetAvailability',
  tags: pub,
  access: 'public',
  summary: 'Is one asset free for a window (Unix seconds)?',
  description: `Physical availability of the asset: bookings (with the turnaround buffer), unexpired holds, drydock and maintenance count; opening
hours do not (the day view shows bookable slots). \`excludeRentalId\` ignores that booking (moving it). 404 for an unknown or private item or an asset
that is not the item's; 400 when endUtc is not after startUtc.`,
  query: s.CheckQuery,
  ok: s.CheckResult,
  errors: [404],
});

export const popularity = route({
  method: 'get',
  path: '/public/time-slot-popularity',
  operationId: 'getTimeSlotPopularity',
  tags: pub,
  access: 'public',
  summary: 'How often each start time is booked',
  description: `Bookings that were not cancelled, from the last 365 days and the next 365, grouped by local start time; optionally on one weekday
(\`dayOfWeek\`: Monday..Sunday, mon..sun or 0-6 with 0 = Sunday) and of one length (\`duration\` in whole hours). Every start time the item offers on
such a day is listed, booked or not. Counts only, no renter data.`,
  query: s.PopularityQuery,
  ok: s.PopularityResult,
  errors: [404],
});

export const window = route({
  method: 'get',
  path: '/availability',
  operationId: 'checkAvailability',
  tags,
  summary: 'Is a window bookable on one of your items? (the check the booking commit runs)',
  description: `Operator check of a window with the engine every sale uses: \`available\` true means a booking of the same window placed moments later
succeeds (unless someone else takes it first). \`unitsFree\` counts assets (null for tours, which answer \`seatsFree\`). \`source\` applies that sales
path's rules (operator bookings skip the minimum notice and advance window). \`reasons\` explains a refusal (closed, outside_hours, sold_out,
insufficient_units, blocked, no_departure, minimum_notice, ...).`,
  query: s.WindowQuery,
  ok: s.WindowResult,
  errors: [404],
});
