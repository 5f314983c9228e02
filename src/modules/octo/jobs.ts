import { and, eq, gt, inArray, lte, min, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import type { ChannelSandboxReset } from '../../lib/hooks';
import { forgetKeys } from '../../lib/idempotency';
import { deleteAllocationsOf, expireAllocationsOf, forgetDeleted, type DeletedAllocation } from '../availability/service';
import { octoBookings } from '../../db/schema/octo';

/**
 * Cron (every 5 minutes): marks lapsed OCTO holds EXPIRED and deactivates their allocations. The
 * time was already free at the expiry instant (expired allocations count for nobody); this keeps
 * the records tidy. `version` moves by one, so a confirmation racing the sweep is refused. On the
 * job's clock, for the operators in its scope.
 */
export async function expireOctoHolds(ctx: Ctx) {
  const t = ctx.clock.now();
  const lapsed = and(eq(octoBookings.status, 'ON_HOLD'), lte(octoBookings.expiresAt, t), inJobScope(ctx, octoBookings.customerId));
  const ids = (await ctx.db.select({ id: octoBookings.id }).from(octoBookings).where(lapsed).limit(500).all()).map((r) => r.id);
  if (!ids.length) return { expired: 0 };
  const [, res] = await ctx.db.batch([
    expireAllocationsOf(ctx, ids, t),
    ctx.db
      .update(octoBookings)
      .set({ status: 'EXPIRED', version: sql`${octoBookings.version} + 1`, updatedAt: new Date(t).toISOString() })
      .where(and(inArray(octoBookings.id, ids), lapsed)),
  ]);
  return { expired: (res as { meta?: { changes?: number } }).meta?.changes ?? 0 };
}

/** The next hold to lapse after the clock's "now" for the operators in scope (ms), or null. */
export async function nextOctoHoldExpiry(ctx: Ctx): Promise<number | null> {
  const row = await ctx.db
    .select({ at: min(octoBookings.expiresAt) })
    .from(octoBookings)
    .where(and(eq(octoBookings.status, 'ON_HOLD'), gt(octoBookings.expiresAt, ctx.clock.now()), inJobScope(ctx, octoBookings.customerId)))
    .get();
  return row?.at ?? null;
}

/**
 * Hook `channel.sandbox_reset`: a test key reset its sandbox (its bookings, and its private operator when it owns one); its OCTO bookings go too
 * (their holds' allocations, the OCTO records and their uuids), so a certification run starts over.
 */
export async function onSandboxReset(ctx: Ctx, e: ChannelSandboxReset) {
  if (!e.scope.endsWith(':test')) return;
  const ids = (await ctx.db.select({ id: octoBookings.id }).from(octoBookings).where(eq(octoBookings.scope, e.scope)).all()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    const [deleted] = await ctx.db.batch([
      deleteAllocationsOf(ctx, { customerId: e.customerId, sourceIds: chunk }),
      ctx.db.delete(octoBookings).where(and(inArray(octoBookings.id, chunk), eq(octoBookings.testMode, true))),
    ]);
    await forgetDeleted(ctx, deleted as DeletedAllocation[]);
  }
  await forgetKeys(ctx.db, `octo:${e.scope}`);
}
