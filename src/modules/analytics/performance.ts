/**
 * `GET /analytics/inventory-performance`: the items and assets that earned most over a range of
 * local days (the revenue of their rentals, the one figure of ledger-sql.ts: sales less discounts,
 * with the fees kept, premiums and deposit captures, cancellations reversed),
 * with their bookings and booked hours, and the best-selling point-of-sale products (net of refunds,
 * best-sellers.ts). Aggregate SQL
 * over the ledger's (location, occurred_at) index; names joined from the inventory and POS tables.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { bestSellers, bestSellerStatement, type SoldRow } from './best-sellers';
import { countedEntry, REVENUE_TYPES, typeList } from './ledger-sql';
import { dayRange } from './local-days';
import { currencyOf, reportBatch, type AnalyticsLocation } from './queries';

type EarnedRow = {
  item: string | null;
  asset: string | null;
  gross: number;
  disc: number;
  itemName: string | null;
  loc: string | null;
  assetName: string | null;
};
type BookedRow = { item: string; asset: string | null; n: number; ms: number };
import { lit, litList } from './sql-literals';

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

export async function getInventoryPerformance(ctx: Ctx, q: { locationIds: string[]; startDate: string; endDate: string; limit: number }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const { locs, results } = await reportBatch(ctx, q.locationIds, (locs) => buildStatements(customerId, q, locs));
  const currency = currencyOf(locs);
  const ids = locs.map((l) => l.locationId);
  const [earnedRows, booked, sold] = results as [EarnedRow[], BookedRow[], SoldRow[]];

  const items = new Map<string, { name: string | null; loc: string | null; gross: number; disc: number; n: number; ms: number }>();
  const assets = new Map<string, { name: string | null; item: string | null; itemName: string | null; net: number; n: number }>();
  for (const e of earnedRows) {
    if (e.item) {
      const it = items.get(e.item) ?? { name: e.itemName, loc: e.loc, gross: 0, disc: 0, n: 0, ms: 0 };
      it.gross += Number(e.gross);
      it.disc += Number(e.disc);
      items.set(e.item, it);
    }
    if (e.asset) {
      const as = assets.get(e.asset) ?? { name: e.assetName, item: e.item, itemName: e.itemName, net: 0, n: 0 };
      as.net += Number(e.gross) + Number(e.disc);
      assets.set(e.asset, as);
    }
  }
  for (const b of booked) {
    const it = items.get(b.item);
    if (it) {
      it.n += Number(b.n);
      it.ms += Number(b.ms);
    }
    const as = b.asset ? assets.get(b.asset) : undefined;
    if (as) as.n += Number(b.n);
  }
  // Every rental's revenue, with an item or not: metrics' bookingRevenueCents for the same days.
  const total = earnedRows.reduce((s, e) => s + Number(e.gross) + Number(e.disc), 0);
  const byNet = <T>(m: Map<string, T>, net: (v: T) => number) =>
    [...m.entries()].sort(([a, x], [b, y]) => net(y) - net(x) || a.localeCompare(b)).slice(0, q.limit);
  return {
    locationIds: ids,
    startDate: q.startDate,
    endDate: q.endDate,
    currency,
    limit: q.limit,
    rentalRevenueCents: total,
    items: byNet(items, (i) => i.gross + i.disc).map(([id, i]) => ({
      inventoryId: id,
      name: i.name,
      locationId: i.loc,
      revenueCents: i.gross + i.disc,
      grossRevenueCents: i.gross,
      discountsCents: -i.disc,
      bookings: i.n,
      bookedHours: Math.round((i.ms / 3_600_000) * 100) / 100,
      sharePercent: pct(i.gross + i.disc, total),
    })),
    assets: byNet(assets, (a) => a.net).map(([id, a]) => ({
      assetId: id,
      name: a.name,
      inventoryId: a.item,
      itemName: a.itemName,
      revenueCents: a.net,
      bookings: a.n,
    })),
    products: bestSellers(sold, q.limit),
  };
}

/** The report's statements: net revenue per item and asset, best products, bookings and hours per item and asset. */
function buildStatements(customerId: string, q: { startDate: string; endDate: string; limit: number }, locs: AnalyticsLocation[]): SQL[] {
  currencyOf(locs);
  const ids = locs.map((l) => l.locationId);
  const ranged = locs.map((l) => ({ ...l, ...dayRange(q.startDate, q.endDate, l.timezone) }));
  // Each location over its own local days: one OR term per location (each served by the (location, occurred_at) index).
  const inRanges: SQL = sql`+l.customer_id = ${lit(customerId)} AND (${sql.join(
    ranged.map((l) => sql`(l.location_id = ${lit(l.locationId)} AND l.occurred_at >= ${lit(l.fromIso)} AND l.occurred_at < ${lit(l.toIso)})`),
    sql.raw(' OR '),
  )})`;
  // Revenue per item and asset (a booking's asset is its first), named in the same statement: gross (sales and money kept) and discounts.
  const earned: SQL = sql`SELECT l.item_id AS item, l.asset_id AS asset,
    SUM(CASE WHEN l.entry_type = 'discount' THEN 0 ELSE l.amount END) AS gross,
    SUM(CASE WHEN l.entry_type = 'discount' THEN l.amount ELSE 0 END) AS disc
    FROM ledger_entries l
    WHERE ${inRanges} AND l.rental_id IS NOT NULL AND l.entry_type IN (${typeList(REVENUE_TYPES)}) AND ${countedEntry('l')}
    GROUP BY l.item_id, l.asset_id`;
  return [
    sql`SELECT e.item, e.asset, e.gross, e.disc, i.name AS itemName, i.location_id AS loc, a.name AS assetName
      FROM (${earned}) e
        LEFT JOIN inventory_items i ON i.id = e.item AND i.customer_id = ${lit(customerId)}
        LEFT JOIN inventory_assets a ON a.id = e.asset AND a.customer_id = ${lit(customerId)}`,
    // Bookings (not cancelled) and hours booked per item and first asset, by the local start date.
    sql`
      SELECT item_id AS item, json_extract(asset_ids, '$[0]') AS asset, COUNT(*) AS n, SUM("end" - start) AS ms FROM bookings
      WHERE customer_id = ${lit(customerId)} AND local_date >= ${lit(q.startDate)} AND local_date <= ${lit(q.endDate)}
        AND location_id IN (${litList(ids)}) AND status <> 'cancelled' AND test_mode = 0
      GROUP BY item_id, asset`,
    bestSellerStatement(customerId, inRanges),
  ];
}
