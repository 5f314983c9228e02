/**
 * Queue consumers (`coverage.bind`, `coverage.reschedule`, `coverage.cancel`) and the 5-minute
 * sweep: binds that are due (retries, lost queue messages, the bind window that turns a policy
 * `not_issued` and flags the booking), date changes of bound bookings made by any path, amendments
 * and cancellations that are due, transfers to retry or reverse, abandoned purchases, and the
 * pruning of old quotes; the call log is purged by a platform job.
 *
 * Everything runs at the context's clock and, for the sweep, for the operators in the job's scope
 * (`inJobScope`): on the wall clock every operator not on a sandbox test clock, during a test
 * clock's advance that clock's operator. `nextCoverageDue` answers the sweep's next due instant (a
 * bind retry, a `/cancel` retry, a reschedule delivery, a transfer to retry or reverse, a purchase to
 * release), so an advance runs each retry at its own time.
 */
import { and, eq, gt, inArray, isNotNull, lt, lte, min, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import type { QueueMessage } from '../../lib/module';
import { coverageAmendments, coveragePolicies, coverageQuotes } from '../../db/schema/coverage';
import { bindPolicy, transferPremium } from './bind';
import { deliverAmendment, dueAmendments, recordMove } from './amendments';
import { deliverCancel, reverseTransfer } from './cancel';
import { purgeCalls } from './calls';
import { getOffering, movedPolicies } from './queries';

export const onBindMessage = async (ctx: Ctx, m: QueueMessage) => void (await bindPolicy(ctx, String(m.policyId)));
export const onRescheduleMessage = (ctx: Ctx, m: QueueMessage) => deliverAmendment(ctx, String(m.amendmentId));
export const onCancelMessage = (ctx: Ctx, m: QueueMessage) => deliverCancel(ctx, String(m.policyId));

/** A transfer is retried (or reversed) once its policy has been left alone this long. */
const TRANSFER_SETTLE_MS = 60_000;
/** A purchase whose request vanished frees its quote after this long. */
const PURCHASE_ABANDONED_MS = 10 * 60_000;
/** Quotes never bought and the call log are kept this long. */
const KEEP_MS = 30 * 86_400_000;

/** Policies with a premium transfer to retry (bound, failed) or to reverse (cancelled, done). */
const transferPending = or(
  and(eq(coveragePolicies.status, 'bound'), eq(coveragePolicies.transferStatus, 'failed')),
  and(eq(coveragePolicies.status, 'cancelled'), eq(coveragePolicies.transferStatus, 'done')),
)!;

export async function sweepCoverage(ctx: Ctx) {
  const t = ctx.clock.now();
  const iso = new Date(t).toISOString();
  const out = { binds: 0, moves: 0, amendments: 0, cancels: 0, transfers: 0, released: 0 };

  const dueBinds = await ctx.db
    .select({ id: coveragePolicies.id })
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.status, 'pending'), lte(coveragePolicies.nextBindAt, iso), inJobScope(ctx, coveragePolicies.customerId)))
    .limit(50)
    .all();
  for (const p of dueBinds) {
    await bindPolicy(ctx, p.id);
    out.binds++;
  }

  for (const m of await movedPolicies(ctx)) {
    await recordMove(ctx, m.policy, m.start, m.end);
    out.moves++;
  }
  for (const a of await dueAmendments(ctx)) {
    await deliverAmendment(ctx, a.id);
    out.amendments++;
  }

  const dueCancels = await ctx.db
    .select({ id: coveragePolicies.id })
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.cancelStatus, 'pending'), lte(coveragePolicies.nextCancelAt, iso), inJobScope(ctx, coveragePolicies.customerId)))
    .limit(50)
    .all();
  for (const p of dueCancels) {
    await deliverCancel(ctx, p.id);
    out.cancels++;
  }

  const transfers = await ctx.db
    .select()
    .from(coveragePolicies)
    .where(
      and(
        inArray(coveragePolicies.status, ['bound', 'cancelled']),
        inArray(coveragePolicies.transferStatus, ['failed', 'done']),
        lt(coveragePolicies.updatedAt, new Date(t - TRANSFER_SETTLE_MS).toISOString()),
        inJobScope(ctx, coveragePolicies.customerId),
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
    .where(
      and(
        eq(coverageQuotes.status, 'purchasing'),
        lt(coverageQuotes.updatedAt, new Date(t - PURCHASE_ABANDONED_MS).toISOString()),
        inJobScope(ctx, coverageQuotes.customerId),
      ),
    )
    .returning({ id: coverageQuotes.id })
    .all();
  out.released = released.length;

  // Quotes never bought are kept 30 days.
  await ctx.db
    .delete(coverageQuotes)
    .where(
      and(
        inArray(coverageQuotes.status, ['quoted', 'ready', 'needs_acceptance', 'declined', 'failed']),
        lt(coverageQuotes.expiresAt, new Date(t - KEEP_MS).toISOString()),
        isNotNull(coverageQuotes.expiresAt),
        inJobScope(ctx, coverageQuotes.customerId),
      ),
    );
  return out;
}

/**
 * The sweep's next due instant strictly after the context's clock, for the operators in scope: the
 * first of a pending bind (`nextBindAt`), a pending `/cancel` (`nextCancelAt`), a pending reschedule
 * delivery (`dueAt`, or the end of its lease), a transfer to retry or reverse, and an abandoned
 * purchase to release. Null when nothing is pending.
 */
export async function nextCoverageDue(ctx: Ctx): Promise<number | null> {
  const t = ctx.clock.now();
  const iso = new Date(t).toISOString();
  const firstAfter = (col: SQLiteColumn, ...where: (SQL | undefined)[]) =>
    ctx.db
      .select({ at: min(col) })
      .from(col.table)
      .where(and(gt(col, iso), ...where));
  // Rows that become due a fixed time after `updatedAt`: the first such `updatedAt` still within that time.
  const settleAfter = (col: SQLiteColumn, ms: number, ...where: (SQL | undefined)[]) =>
    ctx.db
      .select({ at: min(col) })
      .from(col.table)
      .where(and(gt(col, new Date(t - ms).toISOString()), ...where));
  const policyScope = inJobScope(ctx, coveragePolicies.customerId);
  const [binds, cancels, amendments, leases, transfers, purchases] = (await ctx.db.batch([
    firstAfter(coveragePolicies.nextBindAt, eq(coveragePolicies.status, 'pending'), policyScope),
    firstAfter(coveragePolicies.nextCancelAt, eq(coveragePolicies.cancelStatus, 'pending'), policyScope),
    firstAfter(coverageAmendments.dueAt, eq(coverageAmendments.status, 'pending'), inJobScope(ctx, coverageAmendments.customerId)),
    firstAfter(coverageAmendments.leaseUntil, eq(coverageAmendments.status, 'pending'), inJobScope(ctx, coverageAmendments.customerId)),
    settleAfter(coveragePolicies.updatedAt, TRANSFER_SETTLE_MS, transferPending, policyScope),
    settleAfter(coverageQuotes.updatedAt, PURCHASE_ABANDONED_MS, eq(coverageQuotes.status, 'purchasing'), inJobScope(ctx, coverageQuotes.customerId)),
  ])) as { at: string | null }[][];
  const at = (rows: { at: string | null }[], plus = 0) => (rows[0]?.at ? Date.parse(rows[0].at) + plus : null);
  const dues = [
    at(binds),
    at(cancels),
    at(amendments),
    at(leases),
    // Strictly after the settle time (the sweep compares with `<`).
    at(transfers, TRANSFER_SETTLE_MS + 1),
    at(purchases, PURCHASE_ABANDONED_MS + 1),
  ].filter((d): d is number => d != null && Number.isFinite(d) && d > t);
  return dues.length ? Math.min(...dues) : null;
}

/** The platform's housekeeping: the underwriters' call log keeps 30 days. */
export const purgeCoverageCalls = (ctx: Ctx) => purgeCalls(ctx);
