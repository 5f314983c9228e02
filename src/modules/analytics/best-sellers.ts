/**
 * The best-selling point-of-sale products of inventory-performance, net of refunds like every revenue
 * figure (ledger-sql.ts): a sale books a `revenue` entry per line (its product and quantity), and a
 * refund reverses its share of them, each reversal naming the product and the units it put back in
 * stock (negative quantity), on the day it is given (pos/refunds.ts). So the products are summed
 * from the ledger alone.
 */
import { sql, type SQL } from 'drizzle-orm';
import { lit } from './sql-literals';

type SoldRow = { id: string; name: string | null; amount: number; qty: number };

/** The products sold over the ledger rows `inRanges` selects (alias `l`), net of refunds, with their names. */
export function bestSellerStatement(customerId: string, inRanges: SQL): SQL {
  const sold: SQL = sql`SELECT json_extract(l.metadata, '$.posItemId') AS pid, l.amount AS amount, coalesce(json_extract(l.metadata, '$.quantity'), 0) AS qty
    FROM ledger_entries l
    WHERE ${inRanges} AND l.source = 'pos' AND l.rental_id IS NULL AND l.entry_type = 'revenue' AND l.deleted_at IS NULL`;
  return sql`
      SELECT p.pid AS id, pi.name AS name, SUM(p.amount) AS amount, SUM(p.qty) AS qty
      FROM (${sold}) p LEFT JOIN pos_items pi ON pi.id = p.pid AND pi.customer_id = ${lit(customerId)}
      WHERE p.pid IS NOT NULL
      GROUP BY p.pid`;
}

/** The `limit` products that earned most, net of refunds. */
export function bestSellers(sold: SoldRow[], limit: number) {
  return sold
    .map((p) => ({ id: String(p.id), name: p.name, amount: Number(p.amount), qty: Number(p.qty) }))
    .sort((x, y) => y.amount - x.amount || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .slice(0, limit)
    .map((p) => ({ posItemId: p.id, name: p.name, revenueCents: p.amount, quantity: p.qty }));
}

export type { SoldRow };
