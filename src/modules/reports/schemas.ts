import { z } from '@hono/zod-openapi';
import { zCalendarDay } from '../../lib/openapi';

const MAX_RANGE_DAYS = 366;

const rangeQuery = {
  locationId: z.string().trim().min(1).max(128).openapi({ description: "The location (its time zone gives the days; its currency the money's)" }),
  from: zCalendarDay().openapi({ description: "First local day, inclusive (the location's time zone)" }),
  to: zCalendarDay().openapi({ description: 'Last local day, inclusive; the gift card liability is as of the end of this day' }),
  format: z.enum(['json', 'csv']).default('json').openapi({ description: 'csv: RFC 4180 text (CRLF lines, a header row), amounts in cents' }),
};

function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (!q.from || !q.to) return;
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be on or after from' });
  else if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 >= MAX_RANGE_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the range may span at most ${MAX_RANGE_DAYS} days` });
}

export const SalesJournalQuery = z
  .object({
    ...rangeQuery,
    limit: z.coerce.number().int().min(1).max(5000).default(1000).openapi({ description: 'JSON rows per page (the CSV has every row)' }),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .superRefine(checkRange);

export const GROUP_BY = ['day', 'item', 'method'] as const;
export const PayoutsQuery = z
  .object({ ...rangeQuery, groupBy: z.enum(GROUP_BY).default('day').openapi({ description: 'Rows per local day, per item or per payment method' }) })
  .superRefine(checkRange);

const cents = (description: string) => z.number().int().openapi({ description });

export const ReportFigures = z
  .object({
    grossCents: cents('Sales and what is kept beside them (cancellation fees, premiums, deposits captured), before discounts'),
    discountsCents: cents('Discounts given (positive)'),
    adjustmentsCents: cents("Prices lowered after the sale (positive): operators' partial refunds (`refund_adjustment`) and goodwill credits (`goodwill`)"),
    refundsCents: cents('Money given back (positive)'),
    netCents: cents("Net sales: gross less discounts, net of cancellations and returns (analytics' revenueCents for the same days)"),
    taxCents: cents('Sales tax charged'),
    tipsCents: cents('Tips charged'),
    cancellationFeesCents: cents('Cancellation fees kept'),
    premiumsCents: cents('Protection plan and coverage premiums'),
    platformFeesCents: cents("Platform fees owed by the operator (memo entries, not the renter's money)"),
    paymentsCents: cents('Money received (positive), every method including gift cards'),
    netPayoutCents: cents('Money received less money given back'),
    depositsHeldCents: cents('Security deposits authorized (held on the card; memo)'),
    depositsReleasedCents: cents('Security deposit holds released'),
    depositsCapturedCents: cents('Security deposits captured (kept)'),
    giftCardsSoldCents: cents('Gift cards sold or reloaded at the counter (a liability, not revenue)'),
    giftCardsRedeemedCents: cents('Payments made with gift cards'),
    ledgerSumCents: cents('The signed sum of every entry counted (what the CSV amount column adds up to)'),
    entryCount: z.number().int(),
  })
  .openapi('ReportFigures');

export const GiftCardLiability = z
  .object({
    asOf: z.string().openapi({ description: 'The end of the last day (UTC instant)' }),
    soldCents: cents('Value issued on every gift card up to then (online, at the counter, by the operator), less counter refunds'),
    redeemedCents: cents('Value spent, less spending given back'),
    expiredCents: cents('Value left on cards expired by then'),
    liabilityCents: cents('sold − redeemed − expired: what the operator still owes card holders'),
  })
  .openapi('GiftCardLiability');

export const JournalRow = z
  .object({
    entryId: z.string(),
    date: z.string().openapi({ description: 'Local date of the entry' }),
    occurredAt: z.string(),
    transactionId: z.string().nullable(),
    rentalId: z.string().nullable().openapi({ description: 'The booking (rental), when the entry is one' }),
    kind: z.enum(['booking', 'pos', 'slip', 'other']),
    itemId: z.string().nullable(),
    itemName: z.string().nullable(),
    description: z.string().nullable(),
    type: z.string().openapi({ description: 'The ledger entry type (revenue, discount, tax, tip, payment, refund, gift_card_sale, deposit_capture, ...)' }),
    amountCents: z.number().int().openapi({ description: "Signed cents, the renter's point of view (charges +, payments −, refunds +)" }),
    paymentMethod: z.string().nullable().openapi({ description: 'payment and refund entries: cash, card, terminal, gift_card, channel, ...' }),
    memo: z.boolean().openapi({ description: "A memo entry (deposit holds, platform fees): moves no renter's balance" }),
  })
  .openapi('SalesJournalRow');

const header = {
  locationId: z.string(),
  timezone: z.string(),
  currency: z.string(),
  from: z.string(),
  to: z.string(),
  totals: ReportFigures,
  giftCardLiability: GiftCardLiability,
};

export const SalesJournal = z
  .object({ ...header, data: z.array(JournalRow), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SalesJournal');

export const PayoutRow = ReportFigures.extend({
  key: z.string().nullable().openapi({ description: 'The date, item id or payment method; null for entries with none (charges have no method)' }),
  label: z.string(),
}).openapi('PayoutRow');

export const Payouts = z.object({ ...header, groupBy: z.enum(GROUP_BY), rows: z.array(PayoutRow) }).openapi('Payouts');
