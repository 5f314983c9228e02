/**
 * The reads of the financial reports, in one D1 batch (analytics' reportBatch): every ledger entry of
 * a location over its local days, with its local date, kind, item and payment method, and the gift
 * card liability of the operator at the end of the last day. Ledger instants are UTC; the local date
 * of each entry is computed in SQL in the location's zone (analytics' local days).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { countedEntry, dayRange, kindOf, lit, localDateOfIso, offsetSegments, reportBatch, type AnalyticsLocation } from '../analytics/service';

/** One ledger entry as the reports read it (amount in signed cents, the renter's point of view). */
export interface JournalEntry {
  id: string;
  occurredAt: string;
  date: string;
  transactionId: string | null;
  rentalId: string | null;
  kind: string;
  itemId: string | null;
  itemName: string | null;
  entryType: string;
  amount: number;
  description: string | null;
  source: string | null;
  method: string | null;
  memo: boolean;
}

export interface GiftCardLiabilityRow {
  sold: number;
  redeemed: number;
  expired: number;
}

/** More rows than a report answers at once: the caller narrows the range. */
export const MAX_ROWS = 50_000;

/**
 * The payment method of a money entry (`payment`, `refund`): the ledger's source, with the counter's
 * prefixes taken off (`pos_cash` is cash) and a point-of-sale refund given the method of its sale. A
 * protection plan bought after the booking is paid by card (its own intent; refunds of it are `card`).
 */
const methodOf = sql.raw(`CASE WHEN l.entry_type IN ('payment', 'refund') THEN
    CASE WHEN l.source = 'pos' THEN coalesce(pt.payment_type, 'other')
         WHEN l.source LIKE 'pos\\_%' ESCAPE '\\' THEN substr(l.source, 5)
         WHEN l.source = 'protection_plan' THEN 'card'
         ELSE coalesce(l.source, 'other') END
  END`);

function entriesOf(customerId: string, l: AnalyticsLocation, from: number, to: number, fromIso: string, toIso: string): SQL {
  const day = localDateOfIso(sql.raw('l.occurred_at'), offsetSegments(l.timezone, from, to));
  return sql`SELECT l.id AS id, l.occurred_at AS occurredAt, ${day} AS date, l.transaction_id AS transactionId, l.rental_id AS rentalId,
      ${kindOf('l')} AS kind, coalesce(l.item_id, json_extract(l.metadata, '$.posItemId')) AS itemId, coalesce(ii.name, pi.name) AS itemName,
      l.entry_type AS entryType, l.amount AS amount, l.description AS description, l.source AS source, ${methodOf} AS method,
      CASE WHEN l.affects_balance THEN 0 ELSE 1 END AS memo
    FROM ledger_entries l
    LEFT JOIN inventory_items ii ON ii.id = l.item_id AND ii.customer_id = l.customer_id
    LEFT JOIN pos_items pi ON l.item_id IS NULL AND pi.id = json_extract(l.metadata, '$.posItemId') AND pi.customer_id = l.customer_id
    LEFT JOIN pos_transactions pt ON l.source = 'pos' AND pt.id = l.transaction_id AND pt.customer_id = l.customer_id
    WHERE l.location_id = ${lit(l.locationId)} AND l.occurred_at >= ${lit(fromIso)} AND l.occurred_at < ${lit(toIso)}
      AND +l.customer_id = ${lit(customerId)} AND ${countedEntry('l')}
    ORDER BY l.occurred_at, l.id
    LIMIT ${sql.raw(String(MAX_ROWS + 1))}`;
}

/**
 * The operator's gift cards in the location's currency at `toIso` (the end of the last day), from the
 * cards' own balance ledger (`gift_card_entries`): sold (issued, bought online or at the counter, less
 * what counter refunds voided), redeemed (less redemptions given back), and what expired unspent.
 */
function giftCardLiability(customerId: string, currency: string, toIso: string): SQL {
  return sql`SELECT
      coalesce(SUM(CASE WHEN e.kind IN ('issue', 'purchase', 'adjust') THEN e.amount ELSE 0 END), 0) AS sold,
      coalesce(SUM(CASE WHEN e.kind IN ('redeem', 'release') THEN -e.amount ELSE 0 END), 0) AS redeemed,
      coalesce(SUM(CASE WHEN p.expiry_date IS NOT NULL AND p.expiry_date < ${lit(toIso)} THEN e.amount ELSE 0 END), 0) AS expired
    FROM gift_card_entries e JOIN promo_codes p ON p.id = e.promo_code_id AND p.customer_id = e.customer_id
    WHERE e.customer_id = ${lit(customerId)} AND e.created_at < ${lit(toIso)} AND p.kind = 'gift_card' AND lower(p.currency) = ${lit(currency.toLowerCase())}`;
}

export interface ReportRead {
  location: AnalyticsLocation;
  fromIso: string;
  toIso: string;
  entries: JournalEntry[];
  giftCards: GiftCardLiabilityRow;
}

/** The entries of the local days `from` to `to` (inclusive) of one of the caller's locations, and the gift card liability at the end of `to`. */
export async function readReport(ctx: Ctx, q: { locationId: string; from: string; to: string }): Promise<ReportRead> {
  const customerId = tenantOf(ctx);
  let range = { fromIso: '', toIso: '' };
  const { locs, results } = await reportBatch(ctx, [q.locationId], ([l]) => {
    const r = dayRange(q.from, q.to, l.timezone);
    range = r;
    return [entriesOf(customerId, l, r.from, r.to, r.fromIso, r.toIso), giftCardLiability(customerId, l.currency, r.toIso)];
  });
  const rows = results[0] as unknown as JournalEntry[];
  if (rows.length > MAX_ROWS)
    throw new ApiError('validation_failed', `Invalid request: more than ${MAX_ROWS} ledger entries in this range; ask for fewer days`, {
      details: [{ field: 'to', location: 'query', message: 'range too large' }],
    });
  const g = (results[1][0] ?? {}) as Partial<GiftCardLiabilityRow>;
  return {
    location: locs[0],
    ...range,
    entries: rows.map((r) => ({ ...r, amount: Number(r.amount), memo: Boolean(Number(r.memo)) })),
    giftCards: { sold: Number(g.sold ?? 0), redeemed: Number(g.redeemed ?? 0), expired: Number(g.expired ?? 0) },
  };
}
