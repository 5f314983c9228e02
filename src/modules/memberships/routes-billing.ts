import { route } from '../../lib/openapi';
import * as s from './schemas';
import { BILLING, CID, tags } from './routes-docs';

const PRORATION = `**Proration** (\`proRate: true\`) counts whole UTC days. With the current period [S, E), today T and price P: the unused part is credited at the old price, \`-round(P × days(T, E) / days(S, E))\`, and the remaining part charged at the new price, \`round(P' × days(T, E') / periodDays')\`. Each line of the invoice carries \`proration: {days, periodDays, rate, formula}\`. A positive total is charged at once (a decline answers 400 \`payment_declined\` and changes nothing); a negative total is added to the membership's credits (invoice status \`credited\`). The membership must be \`active\` without an unpaid renewal (400 otherwise).`;

// ------------------------------------------------------------------------------------------------
// Invoices, billing changes, refunds, receipts and credits

export const listInvoices = route({
  method: 'get',
  path: '/memberships/{membershipId}/invoices',
  operationId: 'listMembershipInvoices',
  tags,
  summary: 'Invoices (with lines and payments) and billing history',
  description: `\`data\`: invoices newest first (\`limit\`, max 100), each with its lines (proration lines carry their formula) and payment attempts and refunds. \`history\`: the last 100 changes (created, renewed, renewal_declined, past_due, paused, resumed, canceled, billing changes, credits, family). ${BILLING} ${CID}`,
  params: s.MembershipParams,
  query: s.InvoicesQuery,
  ok: s.InvoiceList,
  errors: [403, 404],
});

export const addFreeMonth = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/add-free-month',
  operationId: 'addMembershipFreeMonth',
  tags,
  summary: 'Extend the period by one cycle without a charge',
  description: `The period end (next billing date) moves one billing cycle later (a month, or a year for yearly memberships); a 0 invoice of kind \`free_period\` records it. Active or paused memberships. ${CID}`,
  params: s.MembershipParams,
  body: s.FreeMonthBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const changeDate = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/change-date',
  operationId: 'changeMembershipBillingDate',
  tags,
  summary: 'Move the next billing date (future dates only)',
  description: `The current period now ends at \`newBillingDate\` (which must be in the future: 400). With \`proRate\`: credit \`-round(P × days(T, E) / days(S, E))\` and charge \`round(P × days(T, newBillingDate) / days(S, E))\`. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.ChangeDateBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const switchCycle = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/switch-cycle',
  operationId: 'switchMembershipBillingCycle',
  tags,
  summary: 'Switch between monthly and yearly billing',
  description: `The price becomes the tier's price for the new cycle (400 when it has none). With \`proRate\` the new cycle starts today: the unused part of the current period is credited and the whole new-cycle price charged. Without, the current period runs out and the next renewal bills the new cycle. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.SwitchCycleBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const changePrice = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/change-price',
  operationId: 'changeMembershipPrice',
  tags,
  summary: 'Change the price per cycle (cents)',
  description: `\`newPrice\` in cents per cycle. With \`proRate\`: credit the unused days at the old price and charge them at the new one, \`round(newPrice × days(T, E) / days(S, E))\`. Without, the new price applies from the next renewal. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.ChangePriceBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const refund = route({
  method: 'post',
  path: '/memberships/{membershipId}/refund',
  operationId: 'refundMembershipInvoice',
  tags,
  summary: 'Refund an invoice payment (partial allowed)',
  description: `Body: \`customerId\`, \`invoiceId\` (an invoice of this membership), \`amount\` in cents (default: all that is left), \`reason\`. Never more than the invoice collected minus earlier refunds: 400 \`refund_exceeds_payment\` (the amount is reserved with a conditional update first, so parallel refunds cannot exceed it). The money goes back to the card through the payment provider (400 \`payment_provider_error\` when it refuses, nothing changed); \`payment.refunded\` fires. The membership itself is not changed (cancel it separately). Answers the membership, the invoice with its payments and the refund. ${CID}`,
  params: s.MembershipParams,
  body: s.RefundBody,
  ok: s.RefundResult,
  errors: [403, 404],
});

export const resend = route({
  method: 'post',
  path: '/memberships/{membershipId}/invoices/{invoiceId}/resend',
  operationId: 'resendMembershipReceipt',
  tags,
  summary: 'Send the receipt e-mail of an invoice again',
  description: `Body: \`customerId\` and optionally \`email\` (another address). The receipt lists the invoice lines (with proration formulas), total, paid and refunded amounts; it goes to the e-mail outbox (template \`membership.receipt\`). Answers where it went and the message id. ${CID}`,
  params: s.InvoiceParams,
  body: s.ResendBody,
  ok: s.ResendResult,
  errors: [403, 404],
});

export const getCredits = route({
  method: 'get',
  path: '/memberships/{membershipId}/credits',
  operationId: 'getMembershipCredits',
  tags,
  summary: 'Credit balance and history (cents)',
  description: `The credits ledger is append-only: grants with each paid period (\`creditsPerPeriod\`), proration credits, staff adjustments, bookings paid with credits and their return when a booking is cancelled. Each entry shows \`balanceAfter\`. ${CID}`,
  params: s.MembershipParams,
  query: s.CreditsQuery,
  ok: s.Credits,
  errors: [403, 404],
});

export const adjustCredits = route({
  method: 'post',
  path: '/memberships/{membershipId}/credits/adjust',
  operationId: 'adjustMembershipCredits',
  tags,
  summary: 'Add or deduct credits (staff only)',
  description: `\`amount\` in cents: positive adds, negative deducts. Staff-only (admins, managers or the \`membership_overrides\` permission; anyone else 403). 400 \`insufficient_credits\` when the balance would become negative — checked by the insert itself, so parallel adjustments can never overdraw. \`staffId\` defaults to the caller. Answers the balance and history. ${CID}`,
  params: s.MembershipParams,
  body: s.AdjustCreditsBody,
  ok: s.Credits,
  errors: [403, 404],
});
