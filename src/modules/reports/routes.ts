import { route } from '../../lib/openapi';
import * as s from './schemas';

/** What both reports share: the tag, JSON or CSV, and the refusals beyond validation and credentials. */
const REPORT = { tags: ['Reports'], produces: ['application/json', 'text/csv'], errors: [403, 404] };

const ACCESS = `\`locationId\` is one of the caller's locations (another operator's answers 404). Needs the \`reports\` permission (admins and
managers have it; give a staff user or an API key \`reports\` to let an accountant read them).`;

const FIGURES = `Totals (integer cents, positive as the operator reads them): \`grossCents\` (sales and what is kept beside them: cancellation fees,
premiums, deposits captured), \`discountsCents\`, \`adjustmentsCents\` (prices lowered after the sale: partial refunds and goodwill credits),
\`refundsCents\` (money given back), \`netCents\` (net sales after discounts, adjustments, cancellations and returns: the same figure
as \`revenueCents\` of GET /analytics/metrics for the same days), \`taxCents\`, \`tipsCents\`, the fees
(\`cancellationFeesCents\`, \`premiumsCents\`, \`platformFeesCents\`), \`paymentsCents\` and \`netPayoutCents\` (received less given back), the
deposits (\`depositsHeldCents\`, \`depositsReleasedCents\`, \`depositsCapturedCents\`) and gift cards (\`giftCardsSoldCents\` at the counter, a
liability and never revenue; \`giftCardsRedeemedCents\`, payments made with them). \`giftCardLiability\` is the operator's, in the location's
currency, as of the end of \`to\`: sold − redeemed − expired, from the cards' own balance ledger.

Days are the location's local days (23 or 25 hours on DST changes), from \`from\` to \`to\` inclusive, at most 366 days. Sandbox (test-mode)
channel bookings are left out, as in analytics.`;

export const salesJournal = route({
  method: 'get',
  path: '/reports/sales-journal',
  operationId: 'getSalesJournal',
  ...REPORT,
  summary: 'Every ledger entry of a location over its local days, with the totals an accountant reads',
  query: s.SalesJournalQuery,
  ok: s.SalesJournal,
  description: `One row per ledger entry (signed cents from the renter's point of view: charges +, payments and discounts −, refunds +): local date,
booking (\`rentalId\`) or transaction, item, description, entry type, amount and, for payments and refunds, the payment method.

${FIGURES}

\`format=csv\` answers RFC 4180 text (a header row, CRLF lines) with every row and the columns date, occurred_at, transaction_id, rental_id,
kind, item_id, item, description, type, amount_cents, amount, payment_method, memo: the amount column adds up to the ledger's sum of the range
to the cent (\`totals.ledgerSumCents\`). JSON pages the rows with \`limit\` and \`offset\`; the totals are of every row.

\`\`\`
curl -H "x-api-key: $KEY" "$BASE/reports/sales-journal?locationId=loc_...&from=2026-07-01&to=2026-07-31&format=csv"
\`\`\`

${ACCESS}`,
});

export const payouts = route({
  method: 'get',
  path: '/reports/payouts',
  operationId: 'getPayouts',
  ...REPORT,
  summary: 'The figures of a location by day, by item or by payment method',
  query: s.PayoutsQuery,
  ok: s.Payouts,
  description: `\`groupBy=day\` (default): one row per local date of the range, zeros included; \`item\`: per inventory item or point-of-sale
product (entries of no item, such as payments, in one row of key null); \`method\`: per payment method (cash, card, terminal, gift_card,
channel, ...: money received, given back and the net payout), charges in one row of key null. Each row carries the figures below and the rows
add up to \`totals\`. \`format=csv\` answers one line per row and a last \`total\` line, figures in cents.

${FIGURES}

${ACCESS}`,
});
