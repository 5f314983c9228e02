import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip reservations'];
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const PAY_PERM = 'Needs the `payments` permission (admins and managers have it).';

const STATUS_DOC = `Statuses: \`pending\` (requested; holds the unit) → \`confirmed\` (by staff, or by a payment of a bill) → \`checked_in\` (on or after the arrival date; the unit becomes occupied) → \`checked_out\` (the unit becomes available). \`send-bill\` turns pending (or expired) into \`awaiting_payment\`: the unit is held until the bill is paid (deposit, or the total without a deposit policy: the reservation becomes confirmed) or the hold expires (\`billHoldHours\` of the location, default 48): from that instant the unit is free for others, and a job every 5 minutes marks the reservation \`expired\` and e-mails the renter. An expired reservation can be billed or confirmed again if its nights are still free. \`cancelled\` from pending, awaiting_payment, confirmed or expired (a checked-in boat checks out instead); only a cancelled reservation can be deleted.`;

const LOCK_DOC = `Every write that makes a reservation hold nights of a unit (create, transfer, date change, re-activating an expired or lapsed bill hold) is checked and reserved inside that unit's SlipLock object (one Durable Object per unit, the same protocol as the inventory lock of other sales), and a database trigger refuses any write that would still leave two holding reservations of one unit on overlapping nights: two racing reservations of one unit can never both succeed (409 \`unavailable\` with \`conflicts\`).`;

const PRICE_DOC = `Pricing, all in integer cents: base = rate per foot × max(boat LOA, slip length) × the period — nights for \`nightly\`; calendar months for \`monthly\`, a partial month pro-rated by its days (17 nights of January bill 17/31 of a month), each month rounded to the cent; terms for \`seasonal\` (a season is six calendar months) and \`annual\` (twelve): each whole term from the arrival date at the rate, the rest pro-rated by its days over the nights of the term it begins (1 Feb 2027 to 1 May 2028 annual bills 1 + 90/366 years; 731 nights from 1 Feb 2027 are two years) — plus \`fees\` and \`utilities\` (per stay, night, month pro-rated the same way, or foot), minus \`discountCents\`, plus tax (\`taxRatePercent\` of the base and the taxable lines after the discount). \`pricing.lines\` shows each line. The rate defaults to the unit's own rate for the rate type, else the location's settings; fees, utilities and tax default to the settings. \`depositCents\` follows the location's deposit policy. A rate type needs at least one of its periods: a \`monthly\` stay lasts at least a month (departure on or after the same day of the next month, or that month's last day), \`seasonal\` a season, \`annual\` a year; a shorter stay answers 400 \`stay_too_short\` with \`minimumDepartureDate\` (book it nightly).`;

const FIT_DOC = `Fit (location clearances, see GET /slip-settings/{locationId}): LOA ≤ max LOA + overhang allowance; beam + 2 × side clearance ≤ width; draft + under-keel clearance ≤ depth at low water; air draft ≤ overhead clearance; equality fits. A boat that does not fit answers 409 \`slip_does_not_fit\` with \`fit\` naming each failing dimension and the shortfall in feet, unless \`overrideFit\` is true (audited).`;

const MONEY_DOC = `Money in integer cents. \`balanceCents\` is what the ledger shows the renter owes: the reservation's charges on the ledger (posted when confirmed; the quoted total while pending, awaiting payment or expired, before any is posted; nothing once cancelled, the charges being reversed) − (paid − refunded). A cancelled reservation with money still held reads a negative balance (a credit) until refunded. Payments fire \`payment.completed\`, refunds \`payment.refunded\`; both post to the ledger (source \`slip\`).`;

const CONTRACT_DOC = `A reservation with a contract whose terms this changes (unit, rate type, dates, rate per foot, billable length or total) has its \`contract.status\` back to \`pending\` (not signed) in the same change; the contract is then regenerated with the new terms and, if it had been sent or signed, resent to the renter (see Slip contracts).`;

export const availability = route({
  method: 'get',
  path: '/slips/availability',
  operationId: 'getSlipAvailability',
  tags: ['Slips'],
  summary: 'Slips of a location that fit a boat and are free for the dates',
  description: `Units of \`locationId\` (optionally one \`unitType\` or \`section\`) free for every night from \`arrivalDate\` to \`departureDate\` (exclusive) and, when boat dimensions are given (\`loaFt\`, \`beamFt\`, \`draftFt\`, \`airDraftFt\`, feet), that fit. \`includeRefused=true\` also lists every other unit with its reasons: \`does_not_fit\` (with \`fit\`: each failing dimension, what is needed, what is offered and by how much it is short), \`reserved\` (with the \`conflicts\`) and \`closed\` (maintenance or out of service). ${FIT_DOC}`,
  query: s.AvailabilityQuery,
  ok: s.Availability,
  errors: [404],
});

export const checkAvailability = route({
  method: 'get',
  path: '/slip-reservations/check-availability',
  operationId: 'checkSlipAvailability',
  tags,
  summary: 'Whether one unit is free (and fits a boat) for dates',
  description: `\`available\` = open, free and (with boat dimensions) fits; \`conflicts\` lists the reservations holding some of the nights, \`fit\` each failing dimension. \`excludeReservationId\` ignores a reservation (checking its own date change). The answer is advisory: a reservation is only taken by POST /slip-reservations, through the unit's lock. ${FIT_DOC}`,
  query: s.CheckQuery,
  ok: s.CheckResult,
  errors: [404],
});

export const list = route({
  method: 'get',
  path: '/slip-reservations',
  operationId: 'listSlipReservations',
  tags,
  summary: 'Slip reservations with filters',
  description: `Filters: \`locationId\`, \`status\`, \`rateType\`, \`slipId\`, \`renterId\`, \`arrivalFrom\`/\`arrivalTo\`, \`inHouseOn\` (holding their unit that night), \`q\` (reservation number or vessel name). Ordered by arrival. \`limit\`/\`offset\`, \`total\`. ${STATUS_DOC}`,
  query: s.ListQuery,
  ok: s.ReservationList,
  errors: [404],
});

export const create = route({
  method: 'post',
  path: '/slip-reservations',
  operationId: 'createSlipReservation',
  tags,
  status: 201,
  summary: 'Reserve a slip (nightly, monthly, seasonal or annual)',
  description: `A reservation of \`slipId\` for \`rateType\` from \`arrivalDate\` to \`departureDate\` (the day the boat leaves) for \`boat\` (vesselName, loaFt, beamFt, draftFt, airDraftFt, registration...) and a renter: \`renterId\`, or \`renter\` (first and last name, e-mail, phone) upserted by e-mail (a new renter fires \`customer.created\`). Starts \`pending\` when the location requires approval, else \`confirmed\` (or as \`status\` says); charges post to the ledger when confirmed. A unit in maintenance or out of service answers 409 \`slip_closed\`. An \`arrivalDate\` before today at the location (its calendar, on the operator's clock) answers 400 \`in_the_past\`, with nothing held or charged. Fires \`booking.created\` (\`kind: slip_reservation\`). ${LOCK_DOC} ${FIT_DOC} ${PRICE_DOC} ${PERM}`,
  body: s.CreateBody,
  ok: s.Reservation,
  errors: [403, 404, 409],
});

export const stats = route({
  method: 'get',
  path: '/slip-reservations/stats',
  operationId: 'getSlipReservationStats',
  tags,
  summary: 'Reservation statistics',
  description: `Counts by status and rate type, arrivals and departures today (location time; UTC without \`locationId\`), boats in house, reservations awaiting payment, booked, collected (net of refunds) and outstanding cents (cancelled and expired reservations left out of booked).`,
  query: s.LocationQuery,
  ok: s.Stats,
  errors: [404],
});

export const dueBilling = route({
  method: 'get',
  path: '/slip-reservations/due-billing',
  operationId: 'listSlipReservationsDueBilling',
  tags,
  summary: 'Reservations due for billing',
  description: `Pending, awaiting-payment, confirmed and in-house reservations with a balance that arrive within \`withinDays\` (default 7) or already arrived, and checked-out stays that still owe (a stay stays here until it is paid); ordered by arrival. Send them a bill with POST /slip-reservations/{id}/send-bill. ${MONEY_DOC}`,
  query: s.DueQuery,
  ok: s.DueList,
  errors: [404],
});

export const expiring = route({
  method: 'get',
  path: '/slip-reservations/expiring',
  operationId: 'listExpiringSlipReservations',
  tags,
  summary: 'Reservations ending soon (renewals)',
  description: `Confirmed and in-house reservations whose departure date falls within \`withinDays\` (default 30) days from today; filter \`rateType\` (monthly, seasonal, annual tenants to renew). Ordered by departure.`,
  query: s.ExpiringQuery,
  ok: s.DueList,
  errors: [404],
});

export const byNumber = route({
  method: 'get',
  path: '/slip-reservations/by-number/{reservationNumber}',
  operationId: 'getSlipReservationByNumber',
  tags,
  summary: 'A reservation by its number (SR-...)',
  description: 'Case-insensitive. Answers the reservation with its payments and latest messages.',
  params: s.NumberParams,
  ok: s.ReservationDetail,
  errors: [404],
});

export const get = route({
  method: 'get',
  path: '/slip-reservations/{id}',
  operationId: 'getSlipReservation',
  tags,
  summary: 'A reservation with its payments, messages and contract state',
  description: `${STATUS_DOC} ${MONEY_DOC}`,
  params: s.IdParams,
  ok: s.ReservationDetail,
  errors: [404],
});

export const update = route({
  method: 'put',
  path: '/slip-reservations/{id}',
  operationId: 'updateSlipReservation',
  tags,
  summary: 'Change dates, boat, rate type or pricing fields of a reservation',
  description: `Partial. A date change goes through the unit's lock (409 \`unavailable\` when the new nights are taken); a checked-in reservation keeps its arrival date, and a new arrival date before today at the location answers 400 \`in_the_past\` (an arrival already past may stay). A new boat is fitted again. Changing dates, boat length, rate type or a pricing field re-prices the reservation (posted charges follow as adjustments); new dates or a new rate type must make at least one period of the rate type (400 \`stay_too_short\`). Cancelled, checked-out and expired reservations cannot change (409). Fires \`booking.updated\`. ${CONTRACT_DOC} ${LOCK_DOC} ${PRICE_DOC} ${PERM}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.Reservation,
  errors: [403, 404, 409],
});

export const remove = route({
  method: 'delete',
  path: '/slip-reservations/{id}',
  operationId: 'deleteSlipReservation',
  tags,
  summary: 'Permanently delete a cancelled reservation with its data',
  description: `Deletes the reservation, its payment records, messages, change log and contracts (with their PDFs). Only a cancelled reservation (409 otherwise); money still held (paid − refunded > 0) answers 409 \`has_payments\`: refund it first. Ledger entries stay (accounting history). ${PERM}`,
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404, 409],
});

export const recalculate = route({
  method: 'post',
  path: '/slip-reservations/{id}/recalculate-total',
  operationId: 'recalculateSlipReservationTotal',
  tags,
  summary: 'Recompute the total from the pricing fields',
  description: `Prices again from the reservation's dates, boat, rate per foot, fees, utilities, tax and discount with the unit's current length (after a re-measure); \`refreshRates: true\` also takes the unit's or location's current rate. Posted charges follow. Answers \`previousTotalCents\`. ${CONTRACT_DOC} ${PRICE_DOC} ${PERM}`,
  params: s.IdParams,
  body: s.RecalcBody,
  ok: s.RecalcResult,
  errors: [403, 404, 409],
});

const action = <B extends typeof s.EmptyBody | typeof s.ConfirmBody | typeof s.CancelBody>(
  path: string,
  operationId: string,
  summary: string,
  description: string,
  body: B,
) => route({ method: 'post', path, operationId, tags, summary, description, params: s.IdParams, body, ok: s.Reservation, errors: [403, 404, 409] });

export const confirm = action(
  '/slip-reservations/{id}/confirm',
  'confirmSlipReservation',
  'Confirm a pending reservation',
  `pending, awaiting_payment or expired → confirmed (an expired one only if its nights are still free: through the unit's lock). Posts the charges to the ledger, e-mails the renter, fires \`booking.status_changed\`. Confirming a confirmed reservation changes nothing; other statuses answer 409 \`not_pending\`. ${STATUS_DOC} ${PERM}`,
  s.ConfirmBody,
);

export const sendBill = route({
  method: 'post',
  path: '/slip-reservations/{id}/send-bill',
  operationId: 'sendSlipReservationBill',
  tags,
  summary: 'Send the bill and hold the slip until it is paid or the timer expires',
  description: `E-mails (or texts) the bill with its lines, total, paid and balance. A pending or expired reservation becomes \`awaiting_payment\` with a hold of \`holdHours\` (default: the location's \`billHoldHours\`); due now is what is left of the deposit when the location asks one (payments already made count), else the balance. Sending again restarts the timer. A deposit already paid in full secures the reservation: it is confirmed at once (charges posted, \`booking.status_changed\`), no timer runs, and the bill says the deposit was received and the balance is due. For a confirmed, in-house or checked-out reservation only the bill is sent. A reservation that owes nothing answers 409 \`nothing_to_bill\`. ${STATUS_DOC} ${PERM}`,
  params: s.IdParams,
  body: s.SendBillBody,
  ok: s.Reservation,
  errors: [403, 404, 409],
});

export const checkIn = action(
  '/slip-reservations/{id}/check-in',
  'checkInSlipReservation',
  'Check a boat in',
  `confirmed → checked_in, on or after the arrival date and before the departure date (location time); the unit becomes \`occupied\`. Fires \`booking.checked_in\`. ${PERM}`,
  s.EmptyBody,
);
export const checkOut = route({
  method: 'post',
  path: '/slip-reservations/{id}/check-out',
  operationId: 'checkOutSlipReservation',
  tags,
  summary: 'Check a boat out',
  description: `checked_in → checked_out; the unit becomes \`available\` again (unless staff set another status). An open balance stays on the reservation: the answer's \`warnings\` carry \`balance_due\` with the amount, and the stay stays in GET /slip-reservations/due-billing (and can be billed and paid) until it is paid. Fires \`booking.checked_out\` (with \`balanceCents\`). ${PERM}`,
  params: s.IdParams,
  body: s.EmptyBody,
  ok: s.CheckOutResult,
  errors: [403, 404, 409],
});
export const cancel = action(
  '/slip-reservations/{id}/cancel',
  'cancelSlipReservation',
  'Cancel a reservation',
  `pending, awaiting_payment, confirmed or expired → cancelled: the nights are free at once, posted charges are reversed (and revenue already recognised for a seasonal or annual term: \`recognizedThrough\` back to null), the renter is e-mailed, \`booking.cancelled\` fires. Money paid stays on the reservation until refunded (POST .../refund): the balance reads it as a credit (negative). Cancelling again changes nothing; a checked-in or checked-out reservation answers 409 \`not_cancellable\`. ${PERM}`,
  s.CancelBody,
);

export const transfer = route({
  method: 'post',
  path: '/slip-reservations/{id}/transfer',
  operationId: 'transferSlipReservation',
  tags,
  summary: 'Move a reservation to another unit',
  description: `To \`slipId\` of the same location, which must be open, fit the boat and be free for the reservation's nights (taken through that unit's lock: two transfers or reservations racing into one unit never both succeed). A checked-in boat moves: the old unit becomes available, the new one occupied. \`reprice: true\` prices again with the new unit. ${CONTRACT_DOC} ${LOCK_DOC} ${FIT_DOC} ${PERM}`,
  params: s.IdParams,
  body: s.TransferBody,
  ok: s.Reservation,
  errors: [403, 404, 409],
});

export const contractSigned = route({
  method: 'post',
  path: '/slip-reservations/{id}/contract-signed',
  operationId: 'markSlipReservationContractSigned',
  tags,
  summary: 'Mark the contract of a reservation signed',
  description: `For a contract signed outside Berth (on paper): \`contract.status\` becomes signed at \`signedAt\` (default now). Contracts signed through POST /slip-contracts/sign set this by themselves. ${PERM}`,
  params: s.IdParams,
  body: s.ContractSignedBody,
  ok: s.Reservation,
  errors: [403, 404, 409],
});

export const sendMessage = route({
  method: 'post',
  path: '/slip-reservations/{id}/messages',
  operationId: 'sendSlipReservationMessage',
  tags,
  status: 201,
  summary: 'Send the renter a message (or add an internal note)',
  description: `\`channel\` email (default) or sms go to the renter through the message outbox (GET /outbox/messages); \`note\` stays internal. ${PERM}`,
  params: s.IdParams,
  body: s.MessageBody,
  ok: s.Message,
  errors: [403, 404],
});

export const listMessages = route({
  method: 'get',
  path: '/slip-reservations/{id}/messages',
  operationId: 'listSlipReservationMessages',
  tags,
  summary: 'Messages of a reservation (newest first)',
  description: `Every message of the reservation: e-mails and SMS to the renter, the renter's own from the tenant portal (channel \`portal\`) and internal notes; \`limit\`/\`offset\` with \`total\`. Another operator's reservation answers 404.`,
  params: s.IdParams,
  query: s.PageQuery,
  ok: s.MessageList,
  errors: [404],
});

export const recordPayment = route({
  method: 'post',
  path: '/slip-reservations/{id}/record-payment',
  operationId: 'recordSlipReservationPayment',
  idempotent: true,
  tags,
  status: 201,
  summary: 'Record a payment received outside Berth (cash, check, transfer)',
  description: `Up to the balance (400 above it). A payment that completes the deposit (or the total) of a reservation awaiting payment confirms it (through the unit's lock when the hold had lapsed). ${MONEY_DOC} ${PAY_PERM}`,
  params: s.IdParams,
  body: s.RecordPaymentBody,
  ok: s.PaymentResult,
  errors: [403, 404, 409],
});

export const payments = route({
  method: 'get',
  path: '/slip-reservations/{id}/payments',
  operationId: 'listSlipReservationPayments',
  tags,
  summary: 'Payment history of a reservation',
  description: `Payments and refunds, newest first, with what is left to refund of each payment. ${MONEY_DOC}`,
  params: s.IdParams,
  ok: s.PaymentList,
  errors: [404],
});

export const chargeCard = route({
  method: 'post',
  path: '/slip-reservations/{id}/charge-card',
  operationId: 'chargeSlipReservationCard',
  idempotent: true,
  tags,
  status: 201,
  summary: "Charge the renter's saved card",
  description: `Charges \`amountCents\` (default: the balance) to \`paymentMethodId\` or the renter's default saved card (400 \`invalid_payment_method\` without one) through the payment provider. A declined card answers 402 \`payment_failed\` (\`declineCode\`) and nothing is recorded. With the offline simulator \`pm_card_visa\` succeeds and \`pm_card_chargeDeclined\` declines. A payment that completes the deposit of a reservation awaiting payment confirms it; if the unit was taken after the hold lapsed, 409 and nothing is charged. ${MONEY_DOC} ${PAY_PERM}`,
  params: s.IdParams,
  body: s.ChargeCardBody,
  ok: s.PaymentResult,
  errors: [402, 403, 404, 409],
});

export const terminalCharge = route({
  method: 'post',
  path: '/slip-reservations/{id}/terminal-charge',
  operationId: 'terminalChargeSlipReservation',
  idempotent: true,
  tags,
  status: 201,
  summary: 'Take or record a card-reader (terminal, tap to pay) payment',
  description: `With \`paymentIntentId\`: records a card-present payment the reader or tap to pay completed (it must have succeeded; recording it again answers the same payment). With \`readerId\`: starts a card-present payment of \`amountCents\` (default: the balance) — a real reader answers \`status: pending\` with the \`clientSecret\` for the terminal SDK and the \`nextStep\`; the offline simulator's readers process it at once (\`tmr_simulated\` approves, \`tmr_simulated_declined\` declines with 402, \`tmr_simulated_idle\` stays pending). ${MONEY_DOC} ${PAY_PERM}`,
  params: s.IdParams,
  body: s.TerminalBody,
  ok: s.PaymentResult,
  errors: [402, 403, 404, 409],
});

export const recognizeRevenue = route({
  method: 'post',
  path: '/slip-reservations/{id}/recognize-revenue',
  operationId: 'recognizeSlipReservationRevenue',
  tags,
  summary: 'Recognise deferred revenue month by month',
  description: `Seasonal and annual terms post their base as \`deferred_revenue\` when confirmed; this moves each month's share (by nights in the month; the last month takes the rounding) to \`revenue\` for the months up to \`throughMonth\` (default: the current month at the location, on the operator's clock) not yet recognised, as memo ledger entries dated at the month (they leave the renter's balance alone). Each month is recognised once, ever: calling again recognises only new months (an empty \`recognized\` when none). Revenue is never recognised for a month that has not begun: a \`throughMonth\` after the current month at the location answers 400 \`validation_failed\` (nothing is recognised; the current month is in the message). Nightly and monthly reservations answer 409 (their revenue posts at once). ${PERM}`,
  params: s.IdParams,
  body: s.RecognizeBody,
  ok: s.RecognizeResult,
  errors: [403, 404, 409],
});

export const refund = route({
  method: 'post',
  path: '/slip-reservations/{id}/refund',
  operationId: 'refundSlipReservationPayment',
  idempotent: true,
  tags,
  summary: 'Refund a payment (never more than was paid)',
  description: `Refunds \`amountCents\` (default: all that is left) of \`paymentId\` (default: the latest payment with money left) — through the payment provider for card and terminal payments, as a record for cash, check and transfers. The amount is claimed on the payment with one conditional write first, so racing refunds can never return more than was paid: above what is left answers 409 \`refund_exceeds_paid\` with \`refundableCents\`. ${MONEY_DOC} ${PAY_PERM}`,
  params: s.IdParams,
  body: s.RefundBody,
  ok: s.RefundResult,
  status: 201,
  errors: [402, 403, 404, 409],
});
