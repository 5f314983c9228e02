import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { allocations } from '../../db/schema/inventory';
import { octoBookings } from '../../db/schema/octo';

/**
 * Cron (every 5 minutes): marks lapsed OCTO holds EXPIRED and deactivates their allocations. The
 * time was already free at the expiry instant (expired allocations count for nobody); this keeps
 * the records tidy. `version` moves by one, so a confirmation racing the sweep is refused.
 */
export async function expireOctoHolds(ctx: Ctx, now = new Date()) {
  const t = now.getTime();
  const lapsed = and(eq(octoBookings.status, 'ON_HOLD'), lte(octoBookings.expiresAt, t));
  const ids = (await ctx.db.select({ id: octoBookings.id }).from(octoBookings).where(lapsed).limit(500).all()).map((r) => r.id);
  if (!ids.length) return { expired: 0 };
  const [, res] = await ctx.db.batch([
    ctx.db
      .update(allocations)
      .set({ active: false })
      .where(and(inArray(allocations.sourceId, ids), eq(allocations.active, true), lte(allocations.expiresAt, t))),
    ctx.db
      .update(octoBookings)
      .set({ status: 'EXPIRED', version: sql`${octoBookings.version} + 1`, updatedAt: now.toISOString() })
      .where(and(inArray(octoBookings.id, ids), lapsed)),
  ]);
  return { expired: (res as { meta?: { changes?: number } }).meta?.changes ?? 0 };
}
