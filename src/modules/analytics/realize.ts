/**
 * `POST /analytics/realize-completed-bookings`: moves the deferred revenue of completed rentals to
 * realized. A trigger queues each rental that becomes `completed` in `analytics_unrealized_bookings`;
 * a run realizes the queued rentals of the chosen locations (one `revenue_realized` memo entry each,
 * written by the bookings ledger, id `led_rlz_{rentalId}`) and removes them from the queue, all in
 * one D1 batch. Runs are serialized by D1 and the entry id is unique, so parallel runs realize each
 * rental exactly once and their counts add up to the number of rentals.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { newId } from '../../lib/ids';
import { analyticsUnrealizedBookings } from '../../db/schema/analytics';
import { realizationStmt } from '../bookings/service';
import { locationsInTenant } from './queries';
import { lit, litList } from './sql-literals';

export async function realizeCompletedBookings(ctx: Ctx, input: { locationIds?: string[]; dryRun?: boolean }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const ids = input.locationIds?.length ? (await locationsInTenant(ctx, [...new Set(input.locationIds)])).map((l) => l.locationId) : null;
  const inScope: SQL = ids ? sql`p.customer_id = ${lit(customerId)} AND p.location_id IN (${litList(ids)})` : sql`p.customer_id = ${lit(customerId)}`;
  if (input.dryRun) {
    const row = await ctx.db.get<{ n: number }>(sql`
      SELECT COUNT(*) AS n FROM analytics_unrealized_bookings p
      WHERE ${inScope}
        AND EXISTS (SELECT 1 FROM bookings b WHERE b.id = p.rental_id AND b.customer_id = p.customer_id AND b.status = 'completed' AND b.test_mode = 0)
        AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.id = 'led_rlz_' || p.rental_id)`);
    return { dryRun: true, count: Number(row?.n ?? 0) };
  }
  const reference = newId('rlz');
  const pending = sql`SELECT p.rental_id FROM analytics_unrealized_bookings p WHERE ${inScope}`;
  const { results } = await commit(
    ctx,
    [
      realizationStmt(ctx, { customerId, rentals: pending, reference, nowIso: nowIso(ctx) }),
      ctx.db.all(sql`SELECT COUNT(*) AS n, coalesce(SUM(amount), 0) AS amount FROM ledger_entries
        WHERE id IN (SELECT 'led_rlz_' || p.rental_id FROM analytics_unrealized_bookings p WHERE ${inScope}) AND reference = ${lit(reference)}`),
      ctx.db
        .delete(analyticsUnrealizedBookings)
        .where(and(eq(analyticsUnrealizedBookings.customerId, customerId), ids ? inArray(analyticsUnrealizedBookings.locationId, ids) : undefined)),
    ],
    { audit: { action: 'analytics.realize_completed', targetType: 'customer', targetId: customerId, details: { reference, locationIds: ids } } },
  );
  const { n, amount } = firstRow(results[1]);
  return { dryRun: false, count: n, realizedRevenueCents: amount };
}

/** The one row of the SELECT in the batch (a raw statement in a batch binds nothing: literals only, and answers the driver's result). */
function firstRow(r: unknown): { n: number; amount: number } {
  const rows = Array.isArray(r) ? r : ((r as { results?: unknown[] } | null)?.results ?? []);
  const row = rows[0];
  if (Array.isArray(row)) return { n: Number(row[0] ?? 0), amount: Number(row[1] ?? 0) };
  const o = (row ?? {}) as { n?: unknown; amount?: unknown };
  return { n: Number(o.n ?? 0), amount: Number(o.amount ?? 0) };
}
