import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Bookings'];

export const book = route({
  method: 'post',
  path: '/coreBooking/book',
  operationId: 'createBooking',
  idempotent: true,
  tags,
  status: 201,
  summary: 'Place a booking: renter, price, payment, assets, deposit, ledger, notifications and loyalty in one operation',
  description: [
    `One atomic operation. **Renter**: created or updated by e-mail for the operator (\`customer.created\` on creation). **Price**: computed on the
server (seasons, daily/hourly/half-day rates with minimum and maximum hours and multi-hour discounts, tour fares per tier or private charter, add-ons
by price type, bundle / promo / manual discounts before tax, taxes by \`appliesTo\`, untaxed tip); \`rentalPricing.total\`, when sent, must match
within one cent or the answer is 400 \`price_mismatch\` with the server's breakdown. Promo codes are read from the operator's settings
(\`settings.promoCodes\`: \`{promoCode, Details: {"%Discount"|"$Discount"}, ExpiryDate, inventoryIds, locationId}\`); an unknown, expired or
inapplicable code is 400 \`invalid_promo_code\`. Manual \`discountPercentage\`/\`discountAmount\` are for operator bookings.`,
    `**Availability**: checked and reserved inside the item's lock (one Durable Object per item; multi-item orders and bundles all-or-nothing in
item-id order) — 409 \`unavailable\` with \`reasons\` when the time is taken, closed or has no departure. A renter's own active hold on the item does
not block them and is consumed. Operator bookings skip the minimum-notice and advance-window rules. A start already past (on the operator's
clock) is 400 \`in_the_past\` for every seller.`,
    `**Payment** (\`paymentPlan.type\`): \`full\` charges the total (default when \`paymentMethodId\` is given), \`installments\` charges the first of
\`installments\` equal parts (or of \`schedule\`) and stores the schedule, \`pay_later\` charges nothing (default without a payment method) and the
booking is \`pending\` until POST /coreBooking/{rentalId}/confirm. A decline is 402 \`payment_failed\` (\`declineCode\`, \`stage\`) and leaves nothing
behind: no renter, booking, allocation, ledger entry, deposit or event. **Deposit**: \`depositInformation.amount\` (or the item's required deposit) is
pre-authorized (manual capture) and recorded in deposits.`,
    `**Written in one batch**: bookings (one per rental, grouped by \`transactionId\`, bundles by \`bundleGroupId\`), allocations, ledger entries
(revenue, add-ons, discounts, taxes, tip, payment, deposit memo), loyalty points (1 per whole dollar of the pre-tax total), confirmation e-mail,
activity log, audit row and webhooks \`booking.created\` (per rental) and \`payment.completed\`.`,
    `Tours: \`startTime\` must be a departure; give \`tickets\` per tier (\`{"Adult": 2, "Child": 1}\`) or \`quantity\` standard tickets. Rentals:
\`endTime\`, \`quantity\` assets or \`assetIds\`. Multi-item orders: \`rentalDetails.items\`. Bundles: \`rentalDetails.bundleCode\` (operator settings
\`bundles: [{bundleCode, name, items: [{inventoryId, quantity}], discountPercentage}]\`). Money in the response is in dollars.`,
  ].join('\n\n'),
  body: s.BookBody,
  ok: s.BookResult,
  errors: [402, 403, 404, 409],
});

export const getOne = route({
  method: 'get',
  path: '/coreBooking/{rentalId}',
  operationId: 'getBooking',
  tags,
  summary: 'A rental (booking line) with its status, assets, price breakdown and payment',
  params: s.RentalParams,
  ok: s.Booking,
  errors: [404],
  description: `One rental of the caller's account by its \`rentalId\`: status, window (UTC with the local date), assets or seats, renter, the price
breakdown in dollars and the payment state. Another operator's rental answers 404.`,
});

const STATUS_DOC = `Statuses: \`pending\` (placed, unpaid or awaiting approval; holds inventory) -> \`confirmed\` -> \`checked_in\` -> \`completed\`;
\`pending\`/\`confirmed\` -> \`cancelled\`; \`confirmed\` -> \`no_show\`. Every move is a compare-and-swap on the booking version (a concurrent change
answers 409 \`version_conflict\`) and fires \`booking.status_changed\` plus its own event.`;

export const cancel = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/cancel',
  operationId: 'cancelBooking',
  tags,
  summary: 'Cancel a booking (capacity released once, charges reversed, payment refunded)',
  description: `Releases the allocations, reverses the charges in the ledger and the loyalty points, refunds what Berth collected through the payment
provider (\`refund: false\` keeps it as the renter's credit; a reseller-paid booking has its payment entry reversed instead), voids an authorized
deposit, e-mails the renter, fires \`booking.cancelled\`, \`booking.status_changed\` and \`payment.refunded\`. Cancelling again answers 200 with
\`alreadyCancelled: true\` and changes nothing, even when two cancellations race. Checked-in, completed and no-show bookings: 409 \`not_cancellable\`.
Goodwill credit this booking moved to the renter's account is taken back as far as the account still holds it; what the renter spent of it
stays spent and the refund keeps that much (the rental line's \`kept\`). 409 \`account_credit_changed\` when the renter spent it at that very
moment (nothing written: cancel again). Needs the \`bookings\` permission (admins and managers have it). ${STATUS_DOC}`,
  params: s.RentalParams,
  body: s.CancelBody,
  ok: s.CancelResult,
  errors: [403, 404, 409],
});

export const reschedule = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/reschedule',
  operationId: 'rescheduleBooking',
  tags,
  summary: 'Move a pending or confirmed booking to another window (re-checked inside the lock), repriced',
  description: [
    `The new window is checked inside the item's lock, its own current allocations not counting; the old allocations are released and the
new ones taken in one batch. Rentals keep their assets when they are free (or take \`assetIds\`); tours move their seats to the departure at
\`startTime\`. The item's allowed durations hold. 400 \`in_the_past\` for a start already past, 409 \`unavailable\` when the new window is taken,
\`invalid_state\` for other statuses, \`staff_conflict\` when staff assigned to it are on another booking at the new time (nothing moves; the
staff move with the booking otherwise). Fires \`booking.updated\` and \`booking.rescheduled\` (with \`price\`, the price change).`,
    `**Price.** The move reprices: the new window is priced like a new booking of the same units or tickets, party, add-ons and tip
(\`pricing.breakdown\` is the new one), and the booking's discounts keep applying: a percentage (promo code, manual, membership, bundle) at its
percentage of the new price, a fixed amount as the amount the booking got. The old charges are reversed in the ledger and the new ones written
at the new start; \`total\` and \`amountPaid\` follow the ledger. A window that cannot be priced is 400 \`bad_request\`. \`keepPrice: true\` keeps
the price and breakdown and marks the booking \`extendedData.priceKept: true\`; a price a reseller set (channel, OCTO, marketplace) is always
kept.`,
    `**Difference.** Higher: a balance due, or with \`chargeDifference: true\` charged to the card on file in the same write
(\`payment.completed\`, kind \`reschedule\`; 402 \`payment_failed\` on a decline, nothing moved; no card on file leaves a balance due). Lower: what
was paid beyond the new total is refunded to the card after the write (\`payment.refunded\`), or kept as credit with \`refundDifference: false\`.
An installment plan is fitted to the new balance (never raised). The renter is e-mailed the old and new times (the location's) and the price.
The answer's \`pricing.change\` says what happened.`,
  ].join('\n\n'),
  params: s.RentalParams,
  body: s.RescheduleBody,
  ok: s.RescheduleResult,
  errors: [402, 404, 409],
});

export const modify = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/modify',
  operationId: 'modifyBooking',
  idempotent: true,
  tags,
  summary: 'Change a pending or confirmed booking: its party, add-ons and (optionally) time, repriced',
  description: [
    `One operation for any change of the booking's shape (POST, like the other booking actions: it is a sale of the new shape, not a field
edit). **Party**: \`tickets\` per fare tier or \`participants\` for a tour (its one fare, else standard tickets; the tour's minimum party
holds), \`participants\` for a rental (at most the item's \`capacity\` per boat times its boats). **Add-ons**: \`addons\` is the whole list after
the change (the item's own and the location's global add-ons, each up to its \`maxQuantity\`; one left out is removed, \`[]\` removes all); an
unknown add-on is 400. **Time**: \`startTime\`/\`endTime\` (and \`assetIds\`) as POST /coreBooking/{rentalId}/reschedule takes them; without
them the booking keeps its window. **Item**: \`inventoryId\` moves the booking to another item of the same kind at its location (another boat,
another tour; 400 otherwise), at its window or the one asked, reserved in that item's lock like a new sale (409 \`unavailable\` when it is
taken) and priced at its prices; the old item's time is released in the same write. Add-ons the other item does not offer must be left out.
Fields not sent stay as they are.`,
    `**Capacity**: a new window, or a tour's seats, are taken inside the item's lock (the booking's own allocations set aside), so two
changes racing for the last seats cannot both win: the loser answers 409 \`unavailable\` and nothing of it is written. Two changes of one
booking from the same version: 409 \`version_conflict\`.`,
    `**Price**: repriced by default like a new booking of the changed shape, the booking's discounts kept (a percentage at its percentage, a
fixed amount as the amount it got); the old charges are reversed in the ledger and the new ones written; \`total\` and \`amountPaid\` follow
the ledger, and \`pricing.breakdown\`, \`addons\`, \`participants\` and \`rentalDetails\` follow the change. \`keepPrice: true\` keeps the
price and breakdown (the booking says \`extendedData.priceKept: true\`; its add-ons and party still change). **Difference**: higher, a balance
due or, with \`chargeDifference: true\`, charged to the card on file in the same write (402 \`payment_failed\` on a decline: nothing changed);
lower, refunded to the card (or kept as credit with \`refundDifference: false\`). The answer's \`pricing.change\` has the previous and new total,
the difference and its settlement.`,
    `The renter is e-mailed what changed (was / now, times in the location's zone) and the price change. Fires \`booking.updated\` (with
\`change\`), and \`booking.rescheduled\` when the time moved. Needs the \`bookings\` permission (admins and managers have it).`,
  ].join('\n\n'),
  params: s.RentalParams,
  body: s.ModifyBody,
  ok: s.ModifyResult,
  errors: [402, 403, 404, 409],
});

export const confirm = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/confirm',
  operationId: 'confirmBooking',
  tags,
  summary: 'Confirm a pending booking (compare-and-swap), optionally collecting the balance',
  description: `pending -> confirmed. With \`paymentMethodId\` the balance due is charged first (402 on decline; the booking stays pending) and
\`payment.completed\` fires. 409 \`not_pending\` for any other status. ${STATUS_DOC}`,
  params: s.RentalParams,
  body: s.ConfirmBody,
  ok: s.Booking,
  errors: [402, 404, 409],
});

export const checkIn = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/check-in',
  operationId: 'checkInBooking',
  tags,
  summary: 'Check a renter in (confirmed -> checked_in)',
  description: `Fires \`booking.checked_in\` and \`booking.status_changed\`. A checked-in booking can no longer be cancelled. 409 \`invalid_state\`
from other statuses. ${STATUS_DOC}`,
  params: s.RentalParams,
  body: s.TransitionBody,
  ok: s.Booking,
  errors: [404, 409],
});

export const checkOut = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/check-out',
  operationId: 'checkOutBooking',
  tags,
  summary: 'Check a rental back in (checked_in -> completed)',
  description: `Fires \`booking.checked_out\` and \`booking.status_changed\`. A rental returned early gives its remaining time back (its assets are
free from now plus the turnaround buffer). ${STATUS_DOC}`,
  params: s.RentalParams,
  body: s.TransitionBody,
  ok: s.Booking,
  errors: [404, 409],
});

export const noShow = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/no-show',
  operationId: 'markBookingNoShow',
  tags,
  summary: 'Mark a confirmed booking as a no-show (capacity released, charges kept)',
  description: `Fires \`booking.updated\` and \`booking.status_changed\`. Needs the \`bookings\` permission. ${STATUS_DOC}`,
  params: s.RentalParams,
  body: s.TransitionBody,
  ok: s.Booking,
  errors: [403, 404, 409],
});

const MONEY_ACTION = `Needs the \`bookings\` permission (admins and managers have it). Takes an \`Idempotency-Key\`: the same key and body
replay the first answer. The booking keeps its status; the answer is the booking with its \`money\` (the one money view, from the ledger).`;

export const partialRefund = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/refunds',
  operationId: 'refundBookingPart',
  idempotent: true,
  tags,
  summary: 'Refund part of a booking to its card, without cancelling it: an amount, or by ledger line',
  description: [
    `Body: \`amount\` (dollars) **or** \`lines\` (\`[{entryId, amount?}]\`: charges of the booking's ledger, e.g. an add-on, the tip or a tax
line; each line at most what is left of it, default all of it; 400 \`line_not_refundable\` otherwise), and \`reason\` (required).`,
    `The money goes back to the card(s) that paid, the booking's own payment intent first, through the payment provider; each intent's refund
is written with its ledger entries and \`payment.refunded\` (kind \`booking_refund\`, with the reason) in one batch. A refund first gives back
money the renter holds on file (paid beyond the total); the rest lowers the price by the same amount (a \`refund_adjustment\` line; by line, one
per line naming it), so \`money.refunded\` grows, \`money.total\` drops and the balance due does not grow. Never more than the card payments have
left to refund: the amount is claimed with one conditional write before the provider is called, so parallel refunds cannot together exceed
what was paid; beyond it, 409 \`exceeds_refundable\` with \`refundable\` (dollars). The provider refusing the refund answers 400
\`payment_provider_error\`, nothing written.`,
    MONEY_ACTION,
  ].join('\n\n'),
  params: s.RentalParams,
  body: s.PartialRefundBody,
  ok: s.PartialRefundResult,
  errors: [403, 404, 409],
});

export const goodwillCredit = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/credits',
  operationId: 'creditBooking',
  idempotent: true,
  tags,
  summary: "Give a goodwill credit on a booking: what the renter owes drops, anything beyond it goes to the renter's account credit",
  description: [
    `Body: \`amount\` (dollars) and \`reason\` (required). No money moves. The credit is a \`goodwill\` line of the booking's ledger that lowers
its total, so the balance due drops by it. The part beyond what the booking still owed (a booking paid in full) moves to the renter's account
credit: a \`credit\` entry (\`money.credited\`; the booking's balance stays 0), summed on the renter as \`accounting.accountCreditCents\`
(GET /renters/{id}?includeAccounting=true). Installments still scheduled are fitted to the lower balance. Fires \`booking.updated\` with
\`change: "credited"\`. Two credits racing from the same version: the second answers 409 \`version_conflict\`.`,
    MONEY_ACTION,
  ].join('\n\n'),
  params: s.RentalParams,
  body: s.CreditBody,
  ok: s.CreditResult,
  errors: [403, 404, 409],
});

export const chargeBalance = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/charge-balance',
  operationId: 'chargeBookingBalance',
  idempotent: true,
  tags,
  summary: 'Charge the balance due (from the ledger) to the card on file',
  description: [
    `No body. Charges \`money.balanceDue\` to the card of the booking's own payment, else to the renter's default saved card (POST
/renters/{id}/payment-methods). 409 \`nothing_to_charge\` when nothing is due, 409 \`no_card_on_file\` without a stored card, 402
\`payment_failed\` on a decline (nothing written). The card \`payment\` entry, the installments fitted to the new balance and
\`payment.completed\` (kind \`balance\`) are written in one batch; two charges racing from the same version cannot both be recorded (the second
is refunded at once and answers 409 \`version_conflict\`).`,
    MONEY_ACTION,
  ].join('\n\n'),
  params: s.RentalParams,
  ok: s.ChargeBalanceResult,
  errors: [402, 403, 404, 409],
});
