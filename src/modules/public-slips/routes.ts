import { route } from '../../lib/openapi';
import * as s from './schemas';
import { READS_PER_IP, WRITES_PER_IP } from './types';

const tags = ['Public slips'];
const pub = { tags, access: 'public' as const };
const ANON = `No credentials needed (operator credentials are accepted and change nothing). Shows no renter data. At most ${READS_PER_IP} requests a minute per IP address (429 with \`Retry-After\`).`;
const ANON_WRITE = `No credentials needed. At most ${WRITES_PER_IP} bookings, waitlist joins and document submissions a minute per IP address (429 with \`Retry-After\`).`;
const TOKEN = `Send the \`bookingToken\` that POST /public/slips/book answered as the \`X-Booking-Token\` header (401 without it; a wrong token or a reservation not booked online answers 404).`;

export const maps = route({
  method: 'get',
  path: '/public/slips/maps/{locationId}',
  operationId: 'getPublicSlipMaps',
  ...pub,
  summary: 'Active marina maps with pins',
  description: `The location's active maps in display order, each with its pins (unit number, type, whether it can be booked, position). An unknown location answers 404. ${ANON}`,
  params: s.LocationParams,
  ok: s.PublicMaps,
  errors: [404, 429],
});

export const list = route({
  method: 'get',
  path: '/public/slips/list/{locationId}',
  operationId: 'listPublicSlips',
  ...pub,
  summary: 'Units of a location as a list',
  description: `Slips, side-ties, moorings and dry-rack spaces (not those out of service) by section and number, with dimensions, power, water, amenities and the rate per foot by rate type; filters \`unitType\`, \`section\`, \`minLoaFt\`. ${ANON}`,
  params: s.LocationParams,
  query: s.ListQuery,
  ok: s.PublicSlipList,
  errors: [404, 429],
});

export const calculatePrice = route({
  method: 'post',
  path: '/public/slips/calculate-price',
  operationId: 'calculatePublicSlipPrice',
  ...pub,
  summary: 'Price a stay',
  description: `The price of a stay on a unit for a boat with the location's rates, fees, utilities, tax and deposit policy (billable length: the longer of the boat's LOA and the unit's length), what a booking would charge at once (\`dueAtBookingCents\`), and whether the boat fits. The rate type must be one the location books online (slip settings \`publicRateTypes\`), and the stay at least one period of it: a \`monthly\` stay lasts at least a month (to the same day of the next month, or its last day), \`seasonal\` six months, \`annual\` a year; a shorter stay answers 400 \`stay_too_short\` with \`minimumDepartureDate\` (price it nightly). ${ANON}`,
  body: s.PriceBody,
  ok: s.Price,
  errors: [404, 429],
});

export const book = route({
  method: 'post',
  path: '/public/slips/book',
  operationId: 'bookPublicSlip',
  ...pub,
  idempotent: true,
  summary: 'Book a slip',
  description: `Creates the reservation with the location's booking settings: \`pending\` when approval is required (slip settings \`approvalRequired\`, default), else \`confirmed\`. What is due at once is charged to \`paymentMethodId\` through the payment provider: the deposit when the location takes one, else the total when no approval is needed, else nothing (400 without \`paymentMethodId\` when something is due; a declined card answers 402 \`payment_failed\`, nothing written). The unit is taken through its lock: 409 \`slip_unavailable\` when the nights are taken (also when two bookings race), 409 \`slip_does_not_fit\` when the boat does not fit, 403 when the location does not book online, 400 \`in_the_past\` when \`arrivalDate\` is before today in the marina's time zone, 400 \`stay_too_short\` when the stay is shorter than one period of its rate type (a month for \`monthly\`; nothing charged either way). Fires \`booking.created\`, \`payment.completed\` with a charge, and \`customer.created\` for a new renter; the renter is e-mailed. Answers the reservation, the required documents and a \`bookingToken\` (shown once) for the document endpoints. ${ANON_WRITE}`,
  body: s.BookBody,
  ok: s.Booking,
  status: 201,
  errors: [402, 403, 404, 409, 429],
});

export const reservationDocuments = route({
  method: 'get',
  path: '/public/slips/reservations/{reservationId}/documents',
  operationId: 'getPublicSlipReservationDocuments',
  ...pub,
  summary: 'Document requirements and status of a booking',
  description: `The location's required documents with the status of each (missing, pending_upload, submitted, approved, rejected, expired) and the documents submitted, with the marina's review note. ${TOKEN} ${ANON}`,
  params: s.ReservationParams,
  ok: s.PublicDocuments,
  errors: [404, 429],
});

export const submitDocument = route({
  method: 'post',
  path: '/public/slips/reservations/{reservationId}/documents',
  operationId: 'submitPublicSlipDocument',
  ...pub,
  summary: 'Submit document metadata and get an upload URL',
  description: `Records a document (\`type\`, file name, declared type and size up to 10 MB, expiry date) as \`pending_upload\` and answers a one-time upload URL (30 minutes): PUT the file bytes there. The file must be the declared size and a PDF, JPEG, PNG, WebP or HEIC by its content; it is then \`submitted\` for the marina's review. A reservation that ended answers 409. ${TOKEN} ${ANON_WRITE}`,
  params: s.ReservationParams,
  body: s.AnnounceBody,
  ok: s.Announced,
  status: 201,
  errors: [404, 409, 413, 429],
});

export const uploadFile = route({
  method: 'put',
  path: '/public/slips/uploads/{documentId}',
  operationId: 'uploadPublicSlipDocumentFile',
  tags,
  access: 'none',
  security: [],
  summary: 'Upload the file of a submitted document',
  description: `The upload URL answered by POST /public/slips/reservations/{reservationId}/documents (\`?token=\` is its one-time credential: 401 without or with a wrong one). The body is the file itself (at most 10 MB): a PDF, JPEG, PNG, WebP or HEIC by its content (400 \`document_type_not_accepted\`) of the declared size (400 \`upload_size_mismatch\`). The URL works once (used again: 401); after 30 minutes: 410 \`expired\`.`,
  params: s.UploadParams,
  query: s.UploadQuery,
  ok: s.Uploaded,
  errors: [401, 409, 410, 413, 429],
});

export const location = route({
  method: 'get',
  path: '/public/slips/location/{locationId}',
  operationId: 'getPublicSlipLocation',
  ...pub,
  summary: 'Location info and slip booking configuration',
  description: `Name, address, phone, time zone, currency, coordinates; whether it books online, approval, rate types, deposit policy, required documents, check-in and check-out times, cancellation policy, rates per foot, tax, fees and the clearances of the fit check; unit counts. ${ANON}`,
  params: s.LocationParams,
  ok: s.LocationInfo,
  errors: [404, 429],
});

export const detail = route({
  method: 'get',
  path: '/public/slips/{slipId}',
  operationId: 'getPublicSlip',
  ...pub,
  summary: 'A unit',
  description: `Dimensions, power, water, amenities, rates per foot, map position and its location. A unit out of service (or unknown) answers 404. ${ANON}`,
  params: s.SlipParams,
  ok: s.PublicSlipDetail,
  errors: [404, 429],
});

export const availability = route({
  method: 'get',
  path: '/public/slips/{slipId}/availability',
  operationId: 'getPublicSlipAvailability',
  ...pub,
  summary: 'Availability of a unit for dates',
  description: `Whether the unit is open and free for every night from \`arrivalDate\` to \`departureDate\` (exclusive), the nights already taken in the range (not who holds them), and with boat dimensions (\`loaFt\`, \`beamFt\`, \`draftFt\`, \`airDraftFt\`) whether the boat fits, with each failing dimension. ${ANON}`,
  params: s.SlipParams,
  query: s.AvailabilityQuery,
  ok: s.Availability,
  errors: [404, 429],
});

export const joinWaitlist = route({
  method: 'post',
  path: '/public/slips/{slipId}/waitlist',
  operationId: 'joinPublicSlipWaitlist',
  ...pub,
  summary: "Join the location's waitlist from a unit's page",
  description: `Adds the renter (created or updated by e-mail; \`customer.created\` when new) to the waitlist of the unit's location with the boat and wished dates or season, preferring this unit and its type; the marina offers a unit that fits when one is free. One open entry per renter, location and rate type: joining again answers the open entry (200 instead of 201). The renter is e-mailed. 403 when the location does not take online sign-ups, 400 \`in_the_past\` for an \`arrivalDate\` before today in the marina's time zone. ${ANON_WRITE}`,
  params: s.SlipParams,
  body: s.JoinBody,
  ok: s.JoinResult,
  status: 201,
  errors: [403, 404, 429],
});
