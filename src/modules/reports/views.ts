/** Report rows as the API answers them: JSON objects, and RFC 4180 CSV text (CRLF lines, a header row). */
import { csv } from '../../lib/csv';
import type { z } from '@hono/zod-openapi';
import type { JournalEntry } from './queries';
import type { Figures } from './totals';
import type * as s from './schemas';

export function journalRowOut(e: JournalEntry): z.output<typeof s.JournalRow> {
  return {
    entryId: e.id,
    date: e.date,
    occurredAt: e.occurredAt,
    transactionId: e.transactionId,
    rentalId: e.rentalId,
    kind: e.kind as z.output<typeof s.JournalRow>['kind'],
    itemId: e.itemId,
    itemName: e.itemName,
    description: e.description,
    type: e.entryType,
    amountCents: e.amount,
    paymentMethod: e.method,
    memo: e.memo,
  };
}

/** "-12.05" from -1205: exact decimal text of cents (no floating point). */
export function centsText(c: number): string {
  const a = Math.abs(c);
  return `${c < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

const JOURNAL_FIELDS = [
  'date',
  'occurred_at',
  'transaction_id',
  'rental_id',
  'kind',
  'item_id',
  'item',
  'description',
  'type',
  'amount_cents',
  'amount',
  'payment_method',
  'memo',
];

/** One line per ledger entry: the amount columns add up to the ledger's sum of the range, to the cent. */
export function journalCsv(entries: JournalEntry[]): string {
  return csv(
    JOURNAL_FIELDS,
    entries.map((e) => [
      e.date,
      e.occurredAt,
      e.transactionId,
      e.rentalId,
      e.kind,
      e.itemId,
      e.itemName,
      e.description,
      e.entryType,
      e.amount,
      centsText(e.amount),
      e.method,
      e.memo ? 'yes' : 'no',
    ]),
  );
}

const FIGURE_FIELDS: (keyof Figures)[] = [
  'grossCents',
  'discountsCents',
  'adjustmentsCents',
  'refundsCents',
  'netCents',
  'taxCents',
  'tipsCents',
  'cancellationFeesCents',
  'premiumsCents',
  'platformFeesCents',
  'paymentsCents',
  'netPayoutCents',
  'depositsHeldCents',
  'depositsReleasedCents',
  'depositsCapturedCents',
  'giftCardsSoldCents',
  'giftCardsRedeemedCents',
  'ledgerSumCents',
  'entryCount',
];

const snake = (k: string) => k.replace(/Cents$/, '_cents').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One line per group (a day, an item, a payment method), then a `total` line; figures in cents. */
export function payoutsCsv(groupBy: string, rows: (Figures & { key: string | null; label: string })[], totals: Figures): string {
  return csv(
    [groupBy, 'label', ...FIGURE_FIELDS.map(snake)],
    [...rows.map((r) => [r.key, r.label, ...FIGURE_FIELDS.map((f) => r[f])]), ['total', 'Total', ...FIGURE_FIELDS.map((f) => totals[f])]],
  );
}
