import { z } from '@hono/zod-openapi';
import { route, type AuthScheme } from '../../lib/openapi';
import { octoAuth } from './auth';
import * as s from './schemas';

const tags = ['OCTO'];
/** The reseller's channel key (`rtc_live_...` / `rtc_test_...`) as a bearer token. */
const octoKey: AuthScheme = { security: [{ ChannelKey: [] }], middleware: octoAuth };
const base = { tags, access: 'none' as const, auth: octoKey, errorSchema: s.OctoError, errors: [400, 429, 500] };
const CAPS = `Send \`Octo-Capabilities\` with the capabilities you want (\`octo/pricing\`, \`octo/content\`); the answer's \`Octo-Capabilities\` lists those granted.`;

export const supplier = route({
  ...base,
  method: 'get',
  path: '/octo/v1/supplier',
  operationId: 'getOctoSupplier',
  summary: 'The supplier (operator) this key sells',
  description: `The operator behind the key, its contact and the OCTO endpoint. A platform key that sells several operators names one with the
\`Octo-Supplier-Id\` header (400 BAD_REQUEST listing them otherwise). ${CAPS}`,
  ok: s.Supplier,
});

export const capabilities = route({
  ...base,
  method: 'get',
  path: '/octo/v1/capabilities',
  operationId: 'listOctoCapabilities',
  summary: 'The OCTO capabilities Berth implements',
  description: '`octo/pricing` (net and retail prices in minor units, taxes included) and `octo/content` (titles, descriptions, images, locations).',
  ok: z.array(s.Capability),
});

export const products = route({
  ...base,
  method: 'get',
  path: '/octo/v1/products',
  operationId: 'listOctoProducts',
  summary: 'Products offered to the key, with their options and units',
  description: `One product per item the connection offers (the item id is the product id). Tours: START_TIME, option \`DEFAULT\`, one unit per fare
tier (a private charter is priced per booking). Rentals with hourly prices: START_TIME, one option per duration (\`PT2H\`, ...) and \`FULL_DAY\`;
rentals by the day: OPENING_HOURS with \`FULL_DAY\`; the unit \`unit\` is one rented asset. Answers \`Cache-Control: private, max-age=86400\`:
cache the catalog for a day. ${CAPS}`,
  ok: z.array(s.Product),
});

export const product = route({
  ...base,
  method: 'get',
  path: '/octo/v1/products/{productId}',
  operationId: 'getOctoProduct',
  summary: 'One product',
  description: `A product offered to the key; any other id answers 400 INVALID_PRODUCT_ID. ${CAPS}`,
  params: s.ProductParam,
  ok: s.Product,
});

export const availability = route({
  ...base,
  method: 'post',
  path: '/octo/v1/availability',
  operationId: 'checkOctoAvailability',
  summary: 'Availabilities of an option (check before reserving)',
  description: `Exactly one of \`localDate\`, \`localDateStart\` with \`localDateEnd\` (at most 90 days), or \`availabilityIds\`. Each availability's
\`id\` is its local start with the offset (\`2026-07-04T10:00:00-04:00\`; OPENING_HOURS: the day's midnight); \`utcCutoffAt\` is the last
instant to sell it (the item's minimum notice). Status: CLOSED (refused by the sales rules), SOLD_OUT, LIMITED (less than half left) or
AVAILABLE; \`available\` says whether \`units\` (default one) fit. Answered by the engine every Berth sale uses. ${CAPS}`,
  body: s.AvailabilityCheckBody,
  ok: z.array(s.Availability),
});

export const calendar = route({
  ...base,
  method: 'post',
  path: '/octo/v1/availability/calendar',
  operationId: 'getOctoAvailabilityCalendar',
  summary: 'One availability line per local date (up to a year)',
  description: `Per date: the best status of its availabilities, the highest vacancies and capacity, and (octo/pricing) the lowest prices. ${CAPS}`,
  body: s.AvailabilityCalendarBody,
  ok: z.array(s.AvailabilityCalendarDay),
});

export const reserve = route({
  ...base,
  method: 'post',
  path: '/octo/v1/bookings',
  operationId: 'reserveOctoBooking',
  summary: 'Reserve: hold the availability (ON_HOLD) until confirmed or expired',
  description: `Holds the availability inside the item's inventory lock, as every Berth sale is checked, for \`expirationMinutes\` (default 30,
at least 15, at most 1440); at \`utcExpiresAt\` the hold lapses by itself (EXPIRED) and the time is free again. \`uuid\` is the idempotency
key: the same uuid with the same request answers the same booking as it is now; with another request it is 400 INVALID_BOOKING_UUID. Sold
out or closed: 400 UNPROCESSABLE_ENTITY; no \`unitItems\`: 400 UNPROCESSABLE_ENTITY. Holds exist on \`/octo/v1\` only (the channel API
books directly). ${CAPS}`,
  body: s.ReservationBody,
  ok: s.Booking,
});

export const list = route({
  ...base,
  method: 'get',
  path: '/octo/v1/bookings',
  operationId: 'listOctoBookings',
  summary: "This key's bookings by reference or date",
  description: `At least one of \`resellerReference\`, \`supplierReference\` (the operator's order id \`txn_...\`), \`localDate\`, or
\`localDateStart\` with \`localDateEnd\`; filters combine (at most 500, by start). ${CAPS}`,
  query: s.ListQuery,
  ok: z.array(s.Booking),
});

export const getOne = route({
  ...base,
  method: 'get',
  path: '/octo/v1/bookings/{uuid}',
  operationId: 'getOctoBooking',
  summary: 'One booking by its uuid',
  description: `The booking as it is now: a lapsed hold is EXPIRED, an operator's cancellation shows CANCELLED and a check-in REDEEMED. Another
key's booking answers 400 INVALID_BOOKING_UUID. ${CAPS}`,
  params: s.UuidParam,
  ok: s.Booking,
});

export const update = route({
  ...base,
  method: 'patch',
  path: '/octo/v1/bookings/{uuid}',
  operationId: 'updateOctoBooking',
  summary: 'Update a reservation or a confirmed booking',
  description: `On hold: a new product, option, availability or unit items move the hold inside the lock (all or nothing),
\`expirationMinutes\` extends it. Confirmed: a new \`availabilityId\` reschedules the operator's booking (booking.rescheduled); contact,
notes and reseller reference change on both; the product or units of a confirmed booking cannot change (400 UNPROCESSABLE_ENTITY). ${CAPS}`,
  params: s.UuidParam,
  body: s.UpdateBody,
  ok: s.Booking,
});

export const extend = route({
  ...base,
  method: 'post',
  path: '/octo/v1/bookings/{uuid}/extend',
  operationId: 'extendOctoReservation',
  summary: 'Extend a reservation',
  description: `The hold now lasts \`expirationMinutes\` (default 30, at least 15) from now; re-checked inside the lock. An expired reservation
answers 400 INVALID_BOOKING_UUID. ${CAPS}`,
  params: s.UuidParam,
  body: s.ExtendBody,
  ok: s.Booking,
});

export const confirm = route({
  ...base,
  method: 'post',
  path: '/octo/v1/bookings/{uuid}/confirm',
  operationId: 'confirmOctoBooking',
  summary: 'Confirm a reservation (CONFIRMED): the operator gets the booking',
  description: `Turns the hold into the operator's booking through Berth's booking commit: on the schedule, paid by the reseller at the retail
price quoted at reservation, the connection's commission stamped, in the channel's settlement; fires booking.created. \`unitItems\` may
change the units. Confirming twice answers the confirmed booking; an expired reservation answers 400 INVALID_BOOKING_UUID. Test keys sell
the key holder's private sandbox operator and never move money. ${CAPS}`,
  params: s.UuidParam,
  body: s.ConfirmBody,
  ok: s.Booking,
});

export const cancel = route({
  ...base,
  method: 'post',
  path: '/octo/v1/bookings/{uuid}/cancel',
  operationId: 'cancelOctoBooking',
  summary: 'Cancel a reservation or a confirmed booking',
  description: `A reservation is released at once. A confirmed booking is cancelled within the operator's policy (until
\`cancellationCutoffAmount\` hours before the start; later: 400 UNPROCESSABLE_ENTITY), its capacity given back once, the reseller's payment
and the platform fee reversed (refund FULL: the reseller refunds the guest); fires booking.cancelled. Cancelling twice answers the
cancelled booking. ${CAPS}`,
  params: s.UuidParam,
  body: s.CancelBody,
  ok: s.Booking,
});

const otags = ['OCTO settings'];
export const getSettings = route({
  method: 'get',
  path: '/octo/settings',
  operationId: 'getOctoSettings',
  tags: otags,
  summary: "The operator's OCTO cancellation policy",
  description: 'Hours before the start until which OCTO resellers may cancel a confirmed booking (0 until it was set: until the start).',
  ok: s.Settings,
});

export const putSettings = route({
  method: 'put',
  path: '/octo/settings',
  operationId: 'updateOctoSettings',
  tags: otags,
  access: 'admin',
  summary: "Set the operator's OCTO cancellation policy",
  description: 'Admins. Every option of the OCTO catalog shows it as `cancellationCutoff`; confirmed OCTO bookings are cancellable until then.',
  body: s.SettingsBody,
  ok: s.Settings,
});
