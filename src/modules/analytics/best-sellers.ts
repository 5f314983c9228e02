/**
 * The best-selling point-of-sale products of inventory-performance, net of refunds like every revenue
 * figure (ledger-sql.ts): a refund takes its share of the sale's revenue (round(a·S/T), as the
 * reports reverse it) off the sale's lines in proportion to their subtotals, and the units it put back
 * in stock off their quantities, on the day it is given. Refunds are found through the point of
 * sale's refund records, as posRefundReversals finds them.
 */
import { sql, type SQL } from 'drizzle-orm';
import { shareByWeight } from '../../lib/money';
import type { LedgerWindow } from './ledger-sql';
import { lit } from './sql-literals';

type SoldRow = { id: string; name: string | null; amount: number; qty: number };
type RefundLineRow = {
  refund: string;
  a: number;
  s: number;
  t: number;
  pid: string | null;
  name: string | null;
  variant: string | null;
  ls: number;
  restocked: string | null;
};

/**
 * Two statements: the products sold (over the ledger rows `inRanges` selects, alias `l`), and the sale
 * lines of each refund given in the locations' windows.
 */
export function bestSellerStatements(customerId: string, inRanges: SQL, windows: LedgerWindow[]): SQL[] {
  const sold: SQL = sql`SELECT json_extract(l.metadata, '$.posItemId') AS pid, l.amount AS amount, coalesce(json_extract(l.metadata, '$.quantity'), 0) AS qty
    FROM ledger_entries l
    WHERE ${inRanges} AND l.source = 'pos' AND l.rental_id IS NULL AND l.entry_type = 'revenue' AND l.deleted_at IS NULL`;
  const refundWindows = sql.join(
    windows.map((w) => sql`(pr.location_id = ${lit(w.locationId)} AND pr.created_at >= ${lit(w.fromIso)} AND pr.created_at < ${lit(w.toIso)})`),
    sql.raw(' OR '),
  );
  return [
    sql`
      SELECT p.pid AS id, pi.name AS name, SUM(p.amount) AS amount, SUM(p.qty) AS qty
      FROM (${sold}) p LEFT JOIN pos_items pi ON pi.id = p.pid AND pi.customer_id = ${lit(customerId)}
      WHERE p.pid IS NOT NULL
      GROUP BY p.pid`,
    sql`
      SELECT pr.id AS refund, pr.amount AS a, p.subtotal AS s, p.subtotal - p.discount_total + p.tax_total AS t,
        json_extract(j.value, '$.itemId') AS pid, pi.name AS name, json_extract(j.value, '$.variantId') AS variant,
        coalesce(json_extract(j.value, '$.subtotal'), 0) AS ls, pr.restocked AS restocked
      FROM pos_refunds pr
        JOIN pos_transactions p ON p.id = pr.transaction_id AND p.customer_id = pr.customer_id
        JOIN json_each(p.lines) j
        LEFT JOIN pos_items pi ON pi.id = json_extract(j.value, '$.itemId') AND pi.customer_id = ${lit(customerId)}
      WHERE pr.customer_id = ${lit(customerId)} AND (${refundWindows}) AND p.kind = 'sale' AND p.settle_booking = 0
      ORDER BY pr.id, j.key`,
  ];
}

type Product = { name: string | null; amount: number; qty: number };

/** What each refund takes off its sale's products: its revenue share by line subtotal, and the units restocked. */
function subtractRefunds(products: Map<string, Product>, rows: RefundLineRow[]) {
  const byRefund = new Map<string, RefundLineRow[]>();
  for (const r of rows) byRefund.set(r.refund, [...(byRefund.get(r.refund) ?? []), r]);
  for (const lines of byRefund.values()) {
    const { a, s, t } = lines[0];
    if (Number(t) <= 0) continue;
    const shares = shareByWeight(
      Math.round((Number(a) * Number(s)) / Number(t)),
      lines.map((l) => Number(l.ls)),
    );
    const restocked = new Map<string, number>();
    for (const x of JSON.parse(lines[0].restocked ?? '[]') as { variantId: string; quantity: number }[])
      restocked.set(x.variantId, (restocked.get(x.variantId) ?? 0) + x.quantity);
    lines.forEach((l, i) => {
      if (!l.pid) return;
      const p = products.get(l.pid) ?? { name: l.name, amount: 0, qty: 0 };
      const units = restocked.get(l.variant ?? '') ?? 0;
      restocked.delete(l.variant ?? '');
      products.set(l.pid, { ...p, amount: p.amount - shares[i], qty: p.qty - units });
    });
  }
}

/** The `limit` products that earned most, net of refunds. */
export function bestSellers(sold: SoldRow[], refundLines: RefundLineRow[], limit: number) {
  const products = new Map<string, Product>(sold.map((p) => [String(p.id), { name: p.name, amount: Number(p.amount), qty: Number(p.qty) }]));
  subtractRefunds(products, refundLines);
  return [...products.entries()]
    .sort(([a, x], [b, y]) => y.amount - x.amount || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([id, p]) => ({ posItemId: id, name: p.name, revenueCents: p.amount, quantity: p.qty }));
}

export type { SoldRow, RefundLineRow };
