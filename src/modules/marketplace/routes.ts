import { route } from '../../lib/openapi';
import * as s from './schemas';
import { dispatcherKey, marketplaceKey } from './auth';
import { checkRequestType } from './dispatcher';

const admin = ['Tour marketplace'];
const tags = ['Tour marketplace supplier API'];
const supplierErrors = [401, 403, 429];

export const configure = route({
  method: 'post',
  path: '/ota/admin/configure',
  operationId: 'configureMarketplace',
  tags: admin,
  access: 'admin',
  summary: 'Configure the tour marketplace (supplier id, keys, currency, active)',
  body: s.ConfigureBody,
  ok: s.Config,
  errors: [403, 409],
  description: `Admins only (a dashboard JWT or an admin API key). \`apiKey\` is the key the marketplace will present (stored as a hash; unique
across operators, 409 otherwise); \`outboundApiKey\` the key Berth calls the marketplace with (stored encrypted, never returned; kept when
omitted). \`currency\` is the currency of every price exchanged (items priced in another currency are not offered). \`isActive: false\` refuses
every supplier call with 403 and sends nothing out. A \`customerId\` that is not the caller's answers 403.`,
});
export const getConfiguration = route({
  method: 'get',
  path: '/ota/admin/configuration',
  operationId: 'getMarketplaceConfiguration',
  description: `Admins only. The inbound key is shown by its last 4 characters; the outbound key only as \`hasOutboundApiKey\`. 404 before the first POST
/ota/admin/configure.`,
  tags: admin,
  access: 'admin',
  summary: 'The tour-marketplace configuration (keys never returned)',
  ok: s.Config,
  errors: [404],
});

const supplier = (extra: string) => `Authenticated with the marketplace API key (header \`exp-api-key\` or \`X-Marketplace-Key\`); inputs are
validated before the key (400 first, then 401 for a missing or unknown key, 403 when the configuration is inactive). ${extra}`;

export const tourList = route({
  method: 'post',
  path: '/ota/tourlist',
  operationId: 'listMarketplaceTours',
  tags,
  access: 'none',
  auth: marketplaceKey(),
  summary: 'The full catalog: every public item as a tour with its options',
  ok: s.TourList,
  errors: supplierErrors,
  description: supplier(`A tour is one option (its id is the item id) with an age band per fare tier; a rental offers one option per allowed duration
(\`{itemId}:{hours}h\`). Only items priced in the configuration's currency are listed.`),
});
export const availabilityCalendar = route({
  method: 'post',
  path: '/ota/v2/availability/calendar',
  operationId: 'getMarketplaceAvailabilityCalendar',
  tags,
  access: 'none',
  auth: marketplaceKey(s.CalendarBody),
  summary: 'Start times and vacancies of options, day by day (at most 31 days)',
  body: s.CalendarBody,
  ok: s.CalendarResult,
  errors: supplierErrors,
  description: supplier(`Vacancies are seats (tours) or boats (rentals) free for the option's duration, with the marketplace's sales rules
(minimum notice, advance window, opening hours). An unknown option answers a result with \`error: UNKNOWN_PRODUCT_OPTION\`.`),
});
export const availabilityCheck = route({
  method: 'post',
  path: '/ota/v2/availability/check',
  operationId: 'checkMarketplaceAvailability',
  tags,
  access: 'none',
  auth: marketplaceKey(s.CheckBody),
  summary: 'Vacancies and total price of travelers on a date',
  body: s.CheckBody,
  ok: s.CheckResult,
  errors: supplierErrors,
  description: supplier('Each start time answers whether the travelers fit and their tax-inclusive total in the configuration currency.'),
});
export const reserve = route({
  method: 'post',
  path: '/ota/v2/reserve',
  operationId: 'reserveMarketplaceBooking',
  tags,
  access: 'none',
  auth: marketplaceKey(s.ReserveBody),
  summary: 'Hold price and inventory for 20 minutes',
  body: s.ReserveBody,
  ok: s.Reservation,
  errors: [...supplierErrors, 404, 409],
  description: supplier(`The hold is taken inside the item's lock, like every sale: it counts against capacity at once and expires by itself
after 20 minutes (\`expiresAt\`); the price is held too. Without \`startTime\` the first start with room is taken. 404 for an unknown option, 409
\`unavailable\` when there is no room. A hold is not a booking: it fires no booking event; the confirmation does.`),
});
export const booking = route({
  method: 'post',
  path: '/ota/booking',
  operationId: 'confirmMarketplaceBooking',
  tags,
  access: 'none',
  auth: marketplaceKey(s.BookingBody),
  summary: 'Confirm a reservation: CONFIRMED (a booking) or REJECTED',
  body: s.BookingBody,
  ok: s.Outcome,
  errors: supplierErrors,
  description: supplier(`The held reservation becomes a booking at the held price (paid to the marketplace), through the same booking service
as every sale: \`booking.created\` fires (and \`customer.created\` for a new renter, the lead traveler). Idempotent on \`bookingRef\`: a retry
answers the same confirmation. REJECTED with a reason when the hold expired (HOLD_EXPIRED), the reference is unknown, or the sale no longer
fits.`),
});
export const cancellation = route({
  method: 'post',
  path: '/ota/booking-cancellation',
  operationId: 'cancelMarketplaceBooking',
  tags,
  access: 'none',
  auth: marketplaceKey(s.CancellationBody),
  summary: 'Cancel a booking (or release a reservation): CONFIRMED or REJECTED',
  body: s.CancellationBody,
  ok: s.Outcome,
  errors: supplierErrors,
  description: supplier(`A confirmed booking is cancelled through the booking service (\`booking.cancelled\` and \`booking.status_changed\` fire,
capacity comes back); a reservation still on hold is released. Idempotent; REJECTED for an unknown reference or a booking that can no longer be
cancelled (checked in).`),
});
export const amendment = route({
  method: 'post',
  path: '/ota/booking-amendment',
  operationId: 'amendMarketplaceBooking',
  tags,
  access: 'none',
  auth: marketplaceKey(s.AmendmentBody),
  summary: 'Move a booking to another date or start time: CONFIRMED or REJECTED',
  body: s.AmendmentBody,
  ok: s.Outcome,
  errors: supplierErrors,
  description: supplier(`Rescheduled through the booking service (\`booking.updated\` and \`booking.rescheduled\` fire), checked inside the item's
lock; the price is kept. Changing the travelers is REJECTED (AMENDMENT_NOT_SUPPORTED).`),
});
export const specialOffers = route({
  method: 'post',
  path: '/ota/v2/product/special-offers',
  operationId: 'listMarketplaceSpecialOffers',
  tags,
  access: 'none',
  auth: marketplaceKey(),
  summary: 'Special offers (none at present)',
  ok: s.SpecialOffers,
  errors: supplierErrors,
  description: supplier('Always `{offers: []}` for now.'),
});
export const api = route({
  method: 'post',
  path: '/ota/api',
  operationId: 'callMarketplaceApi',
  tags,
  access: 'none',
  auth: dispatcherKey(s.ApiBody, checkRequestType),
  summary: 'Every supplier operation through one endpoint (`requestType` and `data`)',
  body: s.ApiBody,
  ok: s.ApiResult,
  errors: supplierErrors,
  description: `\`requestType\` is one of TourListRequest, AvailabilityCalendarRequest, AvailabilityCheckRequest, ReserveRequest, BookingRequest,
BookingCancellationRequest, BookingAmendmentRequest, SpecialOffersRequest (the suffix and case are optional); \`data\` is that operation's request
plus \`ApiKey\`. A missing or unknown requestType answers 400 (\`unknown_request_type\`) before the key is checked; then a missing or unknown key
401, an inactive configuration 403; \`data\` is validated like the dedicated endpoint. The answer is \`{requestType, data}\` with the operation's
answer in \`data\`.`,
});
