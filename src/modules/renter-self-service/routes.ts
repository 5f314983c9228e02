import { route } from '../../lib/openapi';
import * as s from './schemas';
import { ChangeBody } from '../bookings/service';

const tags = ['Public'];
const ops = ['Renter self-service'];

const TOKEN = `The renter session token goes in the \`X-Renter-Token\` header: the token of a verified code (POST
/public/bookings/{rentalId}/verify-cancellation-otp, 30 minutes) or the \`renterToken\` the widget checkout answers (24 hours; it cannot cancel).
It covers every rental of the order. A missing, expired or foreign token answers 401 \`renter_session_invalid\`.`;

export const requestCode = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/cancellation-otp',
  operationId: 'requestCancellationCode',
  tags,
  access: 'public',
  summary: "E-mail a 6-digit code to the booking's address (renter sign-in for cancelling)",
  params: s.RentalParams,
  ok: s.CodeSent,
  errors: [404, 429],
  description: `Sends a one-time code to the e-mail address of the booking (never to an address given by the caller) and answers a \`sessionId\`
to verify it with. The code is valid for **10 minutes** and allows **5 attempts**; a new request issues a new code (the old one stays valid until it
expires). Per client IP at most 20 requests a minute (429 with \`Retry-After\`); per booking address at most 5 e-mails an hour (beyond that the answer
is unchanged but no e-mail goes out). Unknown booking: 404; a booking without an e-mail: 400 \`no_booking_email\`. No credentials needed.`,
});

export const verifyCode = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/verify-cancellation-otp',
  operationId: 'verifyCancellationCode',
  tags,
  access: 'public',
  summary: 'Trade the e-mailed code for a renter session token',
  params: s.RentalParams,
  body: s.VerifyBody,
  ok: s.RenterSession,
  description: `\`sessionId\` and \`code\` from the e-mail. A right code answers a session token valid **30 minutes** that may cancel the booking
(POST /public/bookings/{rentalId}/cancel), change it (POST /public/bookings/{rentalId}/change) and manage its participants; a code yields one
token. A wrong code answers 400 \`invalid_code\` with \`attemptsLeft\`; the fifth wrong attempt, and every attempt after it, 400
\`too_many_attempts\`; an expired or used code 400 \`code_expired\` (ask for a new code). Attempts are counted
atomically, so parallel guesses cannot exceed five. No credentials needed.`,
});

export const eligibility = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/cancellation-eligibility',
  operationId: 'getCancellationEligibility',
  tags,
  access: 'none',
  security: [],
  summary: 'Whether and with what refund the renter can cancel now',
  params: s.RentalParams,
  ok: s.Eligibility,
  errors: [404],
  description: `Under the operator's cancellation policy (the location's \`details.cancellationPolicy\`, else the account's, else the default: full
refund up to 24 hours before the start, none after): \`cancellable\` with a \`reason\` when not (already_cancelled, not_cancellable_status, started,
past_cutoff, online_cancellation_disabled, booked_through_partner), the refund (\`percent\` of what was paid by card, \`amount\`, and the \`fee\` the
operator keeps) and \`refundSchedule\` (until when each refund applies). Needs no authentication at all (the spec says so); the rental id is the
secret. Unknown booking: 404.`,
});

export const cancel = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/cancel',
  operationId: 'cancelBookingAsRenter',
  tags,
  access: 'public',
  summary: 'The renter cancels with a verified-code session (refund per policy)',
  params: s.RentalParams,
  body: s.CancelBody,
  ok: s.CancelResult,
  errors: [401, 404, 409],
  description: `Cancels through the booking lifecycle, as an operator cancellation would: status \`cancelled\`, capacity released once (and offered
to the waitlist), charges reversed in the ledger, an authorized deposit released, the cancellation e-mail, webhooks \`booking.cancelled\` and
\`booking.status_changed\`. Then the policy's refund (see cancellation-eligibility) is paid back to the card with \`payment.refunded\`, and what is not
refunded is booked as a cancellation fee, so the renter owes nothing and is owed nothing. Needs a session token from a verified code
(\`X-Renter-Token\` or \`token\`; a checkout token is not enough): 401 \`renter_session_invalid\` otherwise; the session is used up by the
cancellation. Not cancellable now (see \`reason\`): 409 \`not_cancellable\`. Cancelling again answers 200 with \`alreadyCancelled: true\` and changes
nothing, even when two cancellations race (one refund).`,
});

const CHANGE_RULE = `**Rules.** A booking can be changed online while it is pending or confirmed, was not booked through a partner, and starts
more than the change cutoff from now: the larger of the cancellation policy's \`cutoffHours\` and the item's \`minimumNoticeHours\`
(\`changeableUntil\` says when online changes close); otherwise 409 \`not_changeable\` with \`reason\` (not_changeable_status,
booked_through_partner, started, past_cutoff). A new time must meet the item's booking rules as a widget booking does (minimum notice, advance
window: 409 \`unavailable\` with \`reasons\`); the party stays within the tour's minimum and the item's capacity (a rental: its \`capacity\`
per boat; a tour: the seats of the departure, 409 \`unavailable\`); only add-ons the item or the location offers (400). Fields not sent stay as
they are; \`addons\` is the whole list after the change. Needs a session token from a verified code (\`X-Renter-Token\`; the code of
POST /public/bookings/{rentalId}/cancellation-otp, a checkout token is not enough): 401 \`renter_session_invalid\` otherwise.`;

export const changeQuote = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/change-quote',
  operationId: 'quoteBookingChangeAsRenter',
  tags,
  access: 'public',
  summary: 'The new price and difference of a change the renter proposes (nothing changes)',
  params: s.RentalParams,
  body: ChangeBody,
  ok: s.RenterChangeQuote,
  errors: [401, 404, 409],
  description: `The booking as it is (\`current\`) and as the change would make it (\`proposed\`), the new price breakdown and the price change
(\`change\`: previous and new total, difference, and how it would be settled: \`charged\` to the card the booking was paid with, \`refunded\`
to it, or \`balance_due\` without a card on file), priced exactly as POST /public/bookings/{rentalId}/change prices it. Nothing is reserved or
written: the time can still be taken by someone else before the change. An empty body answers the booking as it is (\`unchanged: true\`),
with its item and location for the widget. ${CHANGE_RULE}`,
});

export const change = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/change',
  operationId: 'changeBookingAsRenter',
  tags,
  access: 'public',
  summary: "The renter changes the booking's date and time, party or add-ons (repriced; the difference charged or refunded)",
  params: s.RentalParams,
  body: ChangeBody,
  ok: s.RenterChanged,
  errors: [401, 402, 404, 409],
  description: `Changes the booking through the booking service as an operator's change would (POST /coreBooking/{rentalId}/modify): a new time or
more seats are taken inside the item's lock (a lost race answers 409 \`unavailable\` and changes nothing), the booking is repriced like a new
booking of its new shape with its discounts kept, the ledger's charges are reversed and rewritten, and the renter is e-mailed what changed and the
price. A higher price is charged to the card the booking was paid with in the same write (402 \`payment_failed\` on a decline: nothing
changed); a lower one is refunded to that card. Fires \`booking.updated\` (and \`booking.rescheduled\` when the time moved). The session
stays usable (the renter may change again or cancel). ${CHANGE_RULE}`,
});

export const tip = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/tip',
  operationId: 'tipBooking',
  tags,
  access: 'public',
  summary: "Tip on a completed booking (charges the booking's stored card)",
  params: s.RentalParams,
  body: s.TipBody,
  ok: s.Tip,
  errors: [402, 404, 409],
  description: `\`amount\` in dollars (0.50 to 10000); with \`percentage\` the amount must be that share of the booking total within a cent (400
\`price_mismatch\`). The booking must be \`completed\` (400 \`booking_not_completed\`). The renter's default stored card is charged, else the card that
paid the booking (400 \`no_stored_card\` when there is none; 402 \`payment_failed\` when declined). The tip is added to the booking (tip, total and
amount paid) and to the ledger (\`tip\` and \`payment\` entries) with \`payment.completed\`, in one batch. One tip per booking: asking again answers the
first tip with \`charged: false\` and never charges twice. Unknown booking: 404. No credentials needed.`,
});

export const uploadDocument = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/documents',
  operationId: 'uploadBookingDocument',
  tags,
  access: 'none',
  security: [],
  summary: 'Upload a proof of insurance or ownership for a booking (no authentication)',
  params: s.RentalParams,
  multipart: s.DocumentForm,
  bodyLimit: 11 * 1024 * 1024,
  ok: s.UploadedDocument,
  errors: [404, 413, 429],
  description: `\`multipart/form-data\` with the file in the field \`file\` and optionally \`kind\` (insurance, the default, ownership or other).
Accepted only for a real booking that is pending, confirmed or checked in and not over (400 \`booking_finished\`), at most **10 documents per booking**
(400 \`too_many_documents\`, counted atomically), at most **10 MB** each (400 \`document_too_large\`; bodies over 11 MB 413), and only PDF, JPEG, PNG,
WebP or HEIC files: the type is read from the file's bytes, never from its name or declared type (400 \`unsupported_document_type\`). At most 30 uploads
per client IP in 10 minutes (429). Stored in R2; the operator lists them with GET /coreBooking/{rentalId}/documents. Unknown booking: 404. Needs no
authentication at all.`,
});

export const listDocuments = route({
  method: 'get',
  path: '/coreBooking/{rentalId}/documents',
  operationId: 'listBookingDocuments',
  tags: ops,
  summary: 'Documents renters uploaded for one of your bookings',
  params: s.RentalParams,
  ok: s.DocumentList,
  errors: [404],
  description: "Oldest first. Another operator's rental answers 404.",
});

export const downloadDocument = route({
  method: 'get',
  path: '/coreBooking/{rentalId}/documents/{documentId}',
  operationId: 'downloadBookingDocument',
  tags: ops,
  summary: 'Download an uploaded document',
  params: s.DocumentParams,
  produces: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic'],
  errors: [404],
  description: "The stored file with its sniffed type, as an attachment. Another operator's rental answers 404.",
});

export const paymentMethods = route({
  method: 'get',
  path: '/public/payment-methods',
  operationId: 'listMaskedPaymentMethods',
  tags,
  access: 'public',
  summary: "A renter's stored cards, masked",
  query: s.PaymentMethodsQuery,
  ok: s.MaskedPaymentMethods,
  errors: [429],
  description: `The cards stored at the payment provider for \`stripeCustomerId\`, masked: type, brand, last four digits, expiry and which is the
default; never the full number nor the payment-method ids. Only a renter's provider customer id is answered: any other id (an operator's billing
customer, an unknown id) answers an empty list, never an error telling which ids exist. At most 30 requests per client IP a minute (429). No
credentials needed.`,
});

export const reviews = route({
  method: 'post',
  path: '/public/locations/{locationId}/reviews',
  operationId: 'requestLocationReviews',
  tags,
  access: 'public',
  summary: 'Review links of a location, and the review request e-mail for a completed booking',
  params: s.LocationParams,
  body: s.ReviewsBody,
  ok: s.ReviewsResult,
  errors: [404],
  description: `\`reviewConnections\`: names of the location's review platforms, as the operator configured them in the account's
\`integrations.reviewConnections\` (\`{"google": {"url": "https://..."}, "tripadvisor": {"url": "...", "locationIds": [...]}}\`) or the location's
\`details.reviewConnections\` (which win). Answers their review links; an unconfigured name answers 400 \`unknown_review_platform\` listing the
configured ones. With \`rentalId\` (a completed or checked-in booking at this location; 400 \`booking_not_completed\` otherwise, 404 for a booking
elsewhere) the renter is e-mailed the links **once per booking**: a repeated request answers \`status: already_sent\` and sends nothing. Unknown
location: 404. No credentials needed.`,
});

export const listParticipants = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/participants',
  operationId: 'listBookingParticipantsAsRenter',
  tags,
  access: 'public',
  summary: 'The participants of a booking with their waiver status (renter)',
  params: s.RentalParams,
  ok: s.Participants,
  errors: [401, 404],
  description: `The people of the booking, its party size (the booking's participants, else the item's capacity per unit times the units) and
\`spotsLeft\`. Each participant's waiver is \`signed\` when a signed waiver is linked to them, or one of the booking's signed waivers has their name.
${TOKEN}`,
});

export const addParticipant = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/participants',
  operationId: 'addBookingParticipant',
  tags,
  access: 'public',
  summary: 'Add a participant (up to the party size, until check-in)',
  params: s.RentalParams,
  body: s.ParticipantBody,
  ok: s.Participants,
  status: 201,
  errors: [401, 404, 409],
  description: `Adds a person to the booking; a full booking answers 409 \`party_full\` (checked atomically, parallel additions cannot exceed it), a
checked-in, cancelled or finished booking 409 \`invalid_state\`. Answers the participants. ${TOKEN}`,
});

export const updateParticipant = route({
  method: 'patch',
  path: '/public/bookings/{rentalId}/participants/{participantId}',
  operationId: 'updateBookingParticipant',
  tags,
  access: 'public',
  summary: 'Rename or correct a participant (until check-in)',
  params: s.ParticipantParams,
  body: s.ParticipantPatch,
  ok: s.Participants,
  errors: [401, 404, 409],
  description: `Changes the fields given. A new name unlinks the participant's waiver (a waiver covers the person who signed it). After check-in 409
\`invalid_state\`. ${TOKEN}`,
});

export const removeParticipant = route({
  method: 'delete',
  path: '/public/bookings/{rentalId}/participants/{participantId}',
  operationId: 'removeBookingParticipant',
  tags,
  access: 'public',
  summary: 'Remove a participant (until check-in)',
  params: s.ParticipantParams,
  ok: s.Participants,
  errors: [401, 404, 409],
  description: `Frees the participant's spot. After check-in 409 \`invalid_state\`. ${TOKEN}`,
});

export const linkWaiver = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/participants/{participantId}/waiver',
  operationId: 'linkParticipantWaiver',
  tags,
  access: 'public',
  summary: "Link a participant's signed waiver",
  params: s.ParticipantParams,
  body: s.WaiverLinkBody,
  ok: s.Participants,
  errors: [401, 404, 409],
  description: `\`signatureId\` of a waiver signed with POST /inHouseWaiver/waiver/sign: it must be one of the operator's and signed by someone with
the participant's name (400 \`waiver_mismatch\` otherwise). ${TOKEN}`,
});

export const operatorParticipants = route({
  method: 'get',
  path: '/coreBooking/{rentalId}/participants',
  operationId: 'listBookingParticipants',
  tags: ops,
  summary: 'The participants of one of your bookings, with their waiver status',
  params: s.RentalParams,
  ok: s.Participants,
  errors: [404],
  description: "What the renter entered (for check-in). Another operator's rental answers 404.",
});
