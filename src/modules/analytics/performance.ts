/**
 * `GET /analytics/inventory-performance`: the items and assets that earned most over a range of
 * local days (net rental revenue from the ledger: revenue less discounts, cancellations reversed),
 * with their bookings and booked hours, and the best-selling point-of-sale products. Aggregate SQL
 * over the ledger's (location, occurred_at) index; names joined from the inventory and POS tables.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { countedEntry } from './ledger-sql';
import { dayRange } from './local-days';
import { currencyOf, locationsInTenant, readBatch } from './queries';

type ItemRow = { id: string; name: string | null; loc: string | null; gross: number; disc: number; bookings: number; total: number };
type AssetRow = { id: string; name: string | null; item: string | null; itemName: string | null; net: number; bookings: number };
type ProductRow = { id: string; name: string | null; amount: number; qty: number };
type HoursRow = { id: string; ms: number };
import { lit, litList } from './sql-literals';

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

export async function getInventoryPerformance(ctx: Ctx, q: { locationIds: string[]; startDate: string; endDate: string; limit: number }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const locs = await locationsInTenant(ctx, q.locationIds);
  const currency = currencyOf(locs);
  const ids = locs.map((l) => l.locationId);
  const ranged = locs.map((l) => ({ ...l, ...dayRange(q.startDate, q.endDate, l.timezone) }));
  // Each location over its own local days: one OR term per location (each served by the (location, occurred_at) index).
  const inRanges: SQL = sql`+l.customer_id = ${lit(customerId)} AND (${sql.join(
    ranged.map((l) => sql`(l.location_id = ${lit(l.locationId)} AND l.occurred_at >= ${lit(l.fromIso)} AND l.occurred_at < ${lit(l.toIso)})`),
    sql.raw(' OR '),
  )})`;
  // Net revenue per rental (its item and first asset).
  const rentals: SQL = sql`SELECT l.rental_id, l.item_id, l.asset_id,
    SUM(CASE WHEN l.entry_type = 'revenue' THEN l.amount ELSE 0 END) AS gross,
    SUM(CASE WHEN l.entry_type = 'discount' THEN l.amount ELSE 0 END) AS disc
    FROM ledger_entries l
    WHERE ${inRanges} AND l.rental_id IS NOT NULL AND l.entry_type IN ('revenue', 'discount') AND ${countedEntry('l')}
    GROUP BY l.rental_id, l.item_id, l.asset_id`;
  const products: SQL = sql`SELECT json_extract(l.metadata, '$.posItemId') AS pid, l.amount AS amount, coalesce(json_extract(l.metadata, '$.quantity'), 0) AS qty
    FROM ledger_entries l
    WHERE ${inRanges} AND l.source = 'pos' AND l.rental_id IS NULL AND l.entry_type = 'revenue' AND l.deleted_at IS NULL`;
  const [items, assets, prods, hours] = (await readBatch(ctx, [
    sql`
      WITH r AS (${rentals})
      SELECT r.item_id AS id, i.name AS name, i.location_id AS loc, SUM(r.gross) AS gross, SUM(r.disc) AS disc,
        SUM(CASE WHEN r.gross + r.disc > 0 THEN 1 ELSE 0 END) AS bookings, SUM(SUM(r.gross + r.disc)) OVER () AS total
      FROM r LEFT JOIN inventory_items i ON i.id = r.item_id AND i.customer_id = ${lit(customerId)}
      WHERE r.item_id IS NOT NULL
      GROUP BY r.item_id
      ORDER BY SUM(r.gross + r.disc) DESC, r.item_id
      LIMIT ${sql.raw(String(q.limit))}`,
    sql`
      WITH r AS (${rentals})
      SELECT r.asset_id AS id, a.name AS name, a.item_id AS item, i.name AS itemName, SUM(r.gross + r.disc) AS net,
        SUM(CASE WHEN r.gross + r.disc > 0 THEN 1 ELSE 0 END) AS bookings
      FROM r LEFT JOIN inventory_assets a ON a.id = r.asset_id AND a.customer_id = ${lit(customerId)}
        LEFT JOIN inventory_items i ON i.id = a.item_id AND i.customer_id = ${lit(customerId)}
      WHERE r.asset_id IS NOT NULL
      GROUP BY r.asset_id
      ORDER BY net DESC, r.asset_id
      LIMIT ${sql.raw(String(q.limit))}`,
    sql`
      SELECT p.pid AS id, pi.name AS name, SUM(p.amount) AS amount, SUM(p.qty) AS qty
      FROM (${products}) p LEFT JOIN pos_items pi ON pi.id = p.pid AND pi.customer_id = ${lit(customerId)}
      WHERE p.pid IS NOT NULL
      GROUP BY p.pid
      ORDER BY amount DESC, p.pid
      LIMIT ${sql.raw(String(q.limit))}`,
    sql`
      SELECT item_id AS id, SUM("end" - start) AS ms FROM bookings
      WHERE customer_id = ${lit(customerId)} AND local_date >= ${lit(q.startDate)} AND local_date <= ${lit(q.endDate)}
        AND location_id IN (${litList(ids)}) AND status <> 'cancelled' AND test_mode = 0
      GROUP BY item_id`,
  ])) as [ItemRow[], AssetRow[], ProductRow[], HoursRow[]];
  const hoursOf = new Map(hours.map((h) => [h.id, Math.round((Number(h.ms) / 3_600_000) * 100) / 100]));
  const total = Number(items[0]?.total ?? 0);
  return {
    locationIds: ids,
    startDate: q.startDate,
    endDate: q.endDate,
    currency,
    limit: q.limit,
    rentalRevenueCents: total,
    items: items.map((i) => ({
      inventoryId: i.id,
      name: i.name,
      locationId: i.loc,
      revenueCents: Number(i.gross) + Number(i.disc),
      grossRevenueCents: Number(i.gross),
      discountsCents: -Number(i.disc),
      bookings: Number(i.bookings),
      bookedHours: hoursOf.get(i.id) ?? 0,
      sharePercent: pct(Number(i.gross) + Number(i.disc), total),
    })),
    assets: assets.map((a) => ({
      assetId: a.id,
      name: a.name,
      inventoryId: a.item,
      itemName: a.itemName,
      revenueCents: Number(a.net),
      bookings: Number(a.bookings),
    })),
    products: prods.map((p) => ({ posItemId: String(p.id), name: p.name, revenueCents: Number(p.amount), quantity: Number(p.qty) })),
  };
}
