/**
 * Queue consumers (`coverage.bind`, `coverage.reschedule`, `coverage.cancel`) and the 5-minute
 * sweep: binds that are due (retries, lost queue messages, the bind window that turns a policy
 * `not_issued` and flags the booking), date changes of bound bookings made by any path, amendments
 * and cancellations that are due, transfers to retry or reverse, abandoned purchases, and the
 * pruning of old quotes and calls.
 */
import { and, eq, inArray, isNotNull, lt, lte } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { QueueMessage } from '../../lib/module';
import { coveragePolicies, coverageQuotes } from '../../db/schema/coverage';
import { bindPolicy, transferPremium } from './bind';
import { deliverAmendment, dueAmendments, recordMove } from './amendments';
import { deliverCancel, reverseTransfer } from './cancel';
import { purgeCalls } from './calls';
import { getOffering, movedPolicies } from './queries';

export const onBindMessage = async (ctx: Ctx, m: QueueMessage) => void (await bindPolicy(ctx, String(m.policyId)));
export const onRescheduleMessage = (ctx: Ctx, m: QueueMessage) => deliverAmendment(ctx, String(m.amendmentId));
export const onCancelMessage = (ctx: Ctx, m: QueueMessage) => deliverCancel(ctx, String(m.policyId));

export async function sweepCoverage(ctx: Ctx, now: Date) {
  const t = now.getTime();
  const iso = now.toISOString();
  const out = { binds: 0, moves: 0, amendments: 0, cancels: 0, transfers: 0, released: 0 };

  const dueBinds = await ctx.db
    .select({ id: coveragePolicies.id })
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.status, 'pending'), lte(coveragePolicies.nextBindAt, iso)))
    .limit(50)
    .all();
  for (const p of dueBinds) {
    await bindPolicy(ctx, p.id, { now: t });
    out.binds++;
  }

  for (const m of await movedPolicies(ctx)) {
    await recordMove(ctx, m.policy, m.start, m.end, t);
    out.moves++;
  }
  for (const a of await dueAmendments(ctx, t)) {
    await deliverAmendment(ctx, a.id, t);
    out.amendments++;
  }

  const dueCancels = await ctx.db
    .select({ id: coveragePolicies.id })
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.cancelStatus, 'pending'), lte(coveragePolicies.nextCancelAt, iso)))
    .limit(50)
    .all();
  for (const p of dueCancels) {
    await deliverCancel(ctx, p.id, t);
    out.cancels++;
  }

  const transfers = await ctx.db
    .select()
    .from(coveragePolicies)
    .where(
      and(
        inArray(coveragePolicies.status, ['bound', 'cancelled']),
        inArray(coveragePolicies.transferStatus, ['failed', 'done']),
        lt(coveragePolicies.updatedAt, new Date(t - 60_000).toISOString()),
      ),
    )
    .limit(50)
    .all();
  for (const p of transfers) {
    if (p.status === 'bound' && p.transferStatus === 'failed') await transferPremium(ctx, p, await getOffering(ctx, p.offeringId));
    else if (p.status === 'cancelled' && p.transferStatus === 'done') await reverseTransfer(ctx, p);
    else continue;
    out.transfers++;
  }

  // A purchase whose request vanished between the claim and the booking: the quote is free again.
  const released = await ctx.db
    .update(coverageQuotes)
    .set({ status: 'ready', updatedAt: iso })
    .where(and(eq(coverageQuotes.status, 'purchasing'), lt(coverageQuotes.updatedAt, new Date(t - 10 * 60_000).toISOString())))
    .returning({ id: coverageQuotes.id })
    .all();
  out.released = released.length;

  // Quotes never bought are kept 30 days; calls 30 days.
  await ctx.db
    .delete(coverageQuotes)
    .where(
      and(
        inArray(coverageQuotes.status, ['quoted', 'ready', 'needs_acceptance', 'declined', 'failed']),
        lt(coverageQuotes.expiresAt, new Date(t - 30 * 86_400_000).toISOString()),
        isNotNull(coverageQuotes.expiresAt),
      ),
    );
  await purgeCalls(ctx, now);
  return out;
}
