import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Haul services'];

const FLOW = `States: \`requested\` → \`scheduled\` (POST .../schedule, with pricing) → \`confirmed\` (POST .../confirm by staff, or the renter in the tenant portal) → \`in_progress\` (POST .../start) → \`completed\` (POST .../complete), or \`cancelled\` (POST .../cancel) before the work starts. A wrong state answers 409 \`invalid_state\`; two changes racing answer 409 \`version_conflict\` to the later one. Needs the \`marina\` permission for changes; another operator's service answers 404.`;

export const list = route({
  method: 'get',
  path: '/haul-services',
  operationId: 'listHaulServices',
  tags,
  summary: 'Haul services of a location',
  description: `Filters: \`status\`, \`serviceType\`, \`startDate\`/\`endDate\` (on the scheduled date, else the requested date). Ordered by that date and time; \`limit\`/\`offset\` with \`total\`. Another operator's location answers 404.`,
  query: s.ListQuery,
  ok: s.HaulServiceList,
  errors: [404],
});

export const create = route({
  method: 'post',
  path: '/haul-services',
  operationId: 'requestHaulService',
  tags,
  summary: 'Request a haul service',
  description: `Types: \`haul_out\`, \`launch\`, \`haul_and_hold\` (out and held in the slings or on the hard; back in on \`requestedReturnDate\` when given), \`round_trip\` (out and back in), \`relocation\` (\`destination\`). With \`reservationId\` the renter, unit and boat come from the slip reservation (\`boat\` fields given replace the reservation's; \`weightLbs\` is the boat's displacement); without it give \`locationId\`, \`boat\` and \`renterId\` or \`renter\` (a new renter fires \`customer.created\`). \`requestedDate\` before today at the location (its calendar, on the operator's clock) answers 400 \`in_the_past\`; only a round trip or a haul and hold takes \`requestedReturnDate\`. Starts \`requested\`. ${FLOW}`,
  body: s.CreateBody,
  ok: s.HaulService,
  status: 201,
  errors: [403, 404],
});

export const stats = route({
  method: 'get',
  path: '/haul-services/stats',
  operationId: 'getHaulServiceStats',
  tags,
  summary: 'Haul service statistics of a location',
  description: `Counts by status and type, lifts booked today against the daily lift capacity, services in the next 7 days, requests waiting for a date, and the priced total of completed services.`,
  query: s.StatsQuery,
  ok: s.Stats,
  errors: [404],
});

export const scheduled = route({
  method: 'get',
  path: '/haul-services/scheduled/{date}',
  operationId: 'listHaulServicesOnDate',
  tags,
  summary: 'Haul services with a lift on a date',
  description: `The yard's plan for a local day of the location (\`locationId\` required): the services with a lift that day (a round trip whose return is that day included), the day's lift capacity, lifts booked and left.`,
  params: s.DayParams,
  query: s.DayQuery,
  ok: s.DayPlan,
  errors: [404],
});

export const byRenter = route({
  method: 'get',
  path: '/haul-services/renter/{renterId}',
  operationId: 'listHaulServicesOfRenter',
  tags,
  summary: 'Haul services of a renter',
  description: "Newest first, every location; `limit`/`offset` with `total`. Another operator's renter answers 404.",
  params: s.RenterParams,
  query: s.PageQuery,
  ok: s.HaulServiceList,
  errors: [404],
});

export const byReservation = route({
  method: 'get',
  path: '/haul-services/reservation/{reservationId}',
  operationId: 'listHaulServicesOfReservation',
  tags,
  summary: 'Haul services of a slip reservation',
  description: "Newest first; `limit`/`offset` with `total`. Another operator's reservation answers 404.",
  params: s.ReservationParams,
  query: s.PageQuery,
  ok: s.HaulServiceList,
  errors: [404],
});

export const get = route({
  method: 'get',
  path: '/haul-services/{id}',
  operationId: 'getHaulService',
  tags,
  summary: 'A haul service',
  description: 'With its lifts, pricing and photos.',
  params: s.IdParams,
  ok: s.HaulService,
  errors: [404],
});

export const update = route({
  method: 'put',
  path: '/haul-services/{id}',
  operationId: 'updateHaulService',
  tags,
  summary: 'Change a haul service that has not started',
  description: `Allowed while \`requested\`, \`scheduled\` or \`confirmed\` (409 otherwise). The type changes only while \`requested\` (a scheduled service's lifts depend on it); a new \`requestedDate\` before today at the location answers 400 \`in_the_past\`. The schedule and price change through POST .../schedule. ${FLOW}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const remove = route({
  method: 'delete',
  path: '/haul-services/{id}',
  operationId: 'deleteHaulService',
  tags,
  summary: 'Delete a haul service that has not started',
  description: `Only if not started: \`requested\`, \`scheduled\`, \`confirmed\` or \`cancelled\` (an \`in_progress\` or \`completed\` service answers 409). Its lifts are given back to their day and its photos deleted.`,
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404, 409],
});

export const schedule = route({
  method: 'post',
  path: '/haul-services/{id}/schedule',
  operationId: 'scheduleHaulService',
  tags,
  summary: 'Schedule a haul service with pricing',
  description: `Sets the date (today at the location or later, on the operator's clock; 400 \`in_the_past\` otherwise), local time and, for a round trip (default: the same day) or a haul and hold, the \`returnDate\` of the second lift. Each lift counts against the location's daily lift capacity (slip settings \`dailyLiftCapacity\`, default 6; a round trip or a haul and hold with a return date takes two): a day that is full answers 409 \`lift_capacity_full\` with the days' counts, also when schedules race (checked in the database write). Pricing: by default one line, the location's haul rate for the type (slip settings \`haulRates\`, cents per foot) × the boat's LOA; \`pricing.lines\` replace it; taxed at the reservation's tax rate (else the location's) unless \`pricing.taxRatePercent\`. Re-scheduling a scheduled or confirmed service moves its lifts and needs a new confirmation. The renter is e-mailed the date and price. ${FLOW}`,
  params: s.IdParams,
  body: s.ScheduleBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const confirm = route({
  method: 'post',
  path: '/haul-services/{id}/confirm',
  operationId: 'confirmHaulService',
  tags,
  summary: 'Confirm a scheduled haul service',
  description: `The renter accepted the date and price (staff record it here; the renter can confirm in the tenant portal). Only from \`scheduled\`; confirming a confirmed service answers it unchanged. ${FLOW}`,
  params: s.IdParams,
  body: s.NoteBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const start = route({
  method: 'post',
  path: '/haul-services/{id}/start',
  operationId: 'startHaulService',
  tags,
  summary: 'Start a haul service',
  description: `The boat is in the slings: only from \`confirmed\`, and not before the scheduled day at the location (its calendar, on the operator's clock): an earlier start answers 409 \`haul_not_due\` unless the staff send \`{"early": true}\` on purpose. A started service can no longer be edited, cancelled or deleted. ${FLOW}`,
  params: s.IdParams,
  body: s.StartBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const complete = route({
  method: 'post',
  path: '/haul-services/{id}/complete',
  operationId: 'completeHaulService',
  tags,
  summary: 'Complete a haul service and post its charges',
  description: `Only from \`in_progress\`. The price lines are posted to the slip reservation as fee lines (taxed at the reservation's rate, re-priced with its ledger entries, \`booking.updated\`) in the same write, exactly once; \`chargedCents\` is what the reservation's total grew by. A service without a reservation, or whose reservation was cancelled or expired, keeps its price for separate billing (\`chargedCents\` null). ${FLOW}`,
  params: s.IdParams,
  body: s.NoteBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const cancel = route({
  method: 'post',
  path: '/haul-services/{id}/cancel',
  operationId: 'cancelHaulService',
  tags,
  summary: 'Cancel a haul service',
  description: `Before the work starts (\`requested\`, \`scheduled\`, \`confirmed\`); its lifts are given back to their day and a scheduled renter is e-mailed. Cancelling a cancelled service answers it unchanged; a started one answers 409. ${FLOW}`,
  params: s.IdParams,
  body: s.CancelBody,
  ok: s.HaulService,
  errors: [403, 404, 409],
});

export const photos = route({
  method: 'post',
  path: '/haul-services/{id}/photos',
  operationId: 'addHaulServicePhotos',
  tags,
  summary: 'Add photos to a haul service',
  description: `multipart/form-data: one or more \`file\` parts (up to 10 per request), an optional \`caption\` for all of them. Each must be a JPEG, PNG, WebP or HEIC image by its content and at most 10 MB (400 \`haul_photo_not_accepted\`, nothing stored); a service keeps at most 50 photos (409 \`haul_photo_limit\`). Stored in R2; the answer lists every photo with its download URL.`,
  params: s.IdParams,
  multipart: s.PhotoForm,
  bodyLimit: 60 * 1024 * 1024,
  ok: s.HaulService,
  status: 201,
  errors: [403, 404, 409, 413],
});

export const photo = route({
  method: 'get',
  path: '/haul-services/{id}/photos/{photoId}',
  operationId: 'getHaulServicePhoto',
  tags,
  summary: 'A photo of a haul service',
  description: 'The stored image with the type read from its content.',
  params: s.PhotoParams,
  produces: ['image/jpeg', 'image/png', 'image/webp', 'image/heic'],
  errors: [404],
});
