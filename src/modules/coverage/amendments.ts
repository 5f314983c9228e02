/**
 * Date changes of bound bookings (`/reschedule`, spec rules 7 and 9). Any path that moves a
 * booking is caught twice: the `booking.rescheduled` hook, and the 5-minute sweep that compares each
 * bound policy's covered window with its booking's current dates. A change becomes one amendment per
 * policy and window (a retry is the same amendment; a newer change supersedes a pending older one),
 * delivered from the queue as the review fixed: `hourly` (after 5 minutes, so quick successive moves
 * collapse; within the hour with retries), `immediate` (at once) or `none` (recorded, never sent); the
 * sweep delivers what the queue lost. A bare 200 is acceptance; a decline leaves the policy
 * `not_covered` and flags the operator ("paid renter no longer covered"); a price in the answer is
 * ignored and logged (the renter already paid).
 */
import { and, asc, eq, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { newId } from '../../lib/ids';
import { formatLocalRange } from '../../lib/local-time';
import { enqueue } from '../../lib/queue';
import { coverageAmendments, coveragePolicies } from '../../db/schema/coverage';
import { backoffMs, callOffering, logRejected, retriable } from './calls';
import { raiseFlag } from './flags';
import { activePolicyOfRental, getOffering, getPolicy, getQuote, policyZone } from './queries';
import { inJobScope } from '../../lib/job-scope';
import type { AmendmentRow, PolicyRow } from './views';

const RETRY_WINDOW_MS = 24 * 3600_000;
/** `hourly` delivery waits this long (then the queue delivers; the sweep every 5 minutes is the net): well within the hour. */
export const HOURLY_DELAY_MS = 5 * 60_000;
const LEASE_MS = 60_000;

/** Records that a bound policy's booking now runs `start`-`end` (epoch ms), at the context's clock. */
export async function recordMove(ctx: Ctx, policy: PolicyRow, start: number, end: number) {
  if (policy.status !== 'bound') return;
  const now = ctx.clock.now();
  const nowIso = new Date(now).toISOString();
  // A newer window supersedes what was not delivered yet.
  await ctx.db
    .update(coverageAmendments)
    .set({ status: 'superseded', completedAt: nowIso })
    .where(
      and(
        eq(coverageAmendments.policyId, policy.id),
        eq(coverageAmendments.status, 'pending'),
        or(ne(coverageAmendments.start, start), ne(coverageAmendments.end, end)),
      ),
    );
  if (start === policy.coveredStart && end === policy.coveredEnd) return;
  const offering = await getOffering(ctx, policy.offeringId);
  const mode = offering?.rescheduleDelivery ?? 'hourly';
  // Hourly: delivered from the queue after HOURLY_DELAY_MS (quick successive moves collapse into one amendment), the sweep as the net.
  const dueAt = new Date(now + (mode === 'hourly' ? HOURLY_DELAY_MS : 0)).toISOString();
  const id = newId('cam');
  const inserted = await ctx.db
    .insert(coverageAmendments)
    .values({
      id,
      customerId: policy.customerId,
      policyId: policy.id,
      start,
      end,
      status: mode === 'none' ? 'skipped' : 'pending',
      dueAt,
      reason: mode === 'none' ? 'reschedule delivery is none for this offering' : null,
      completedAt: mode === 'none' ? nowIso : null,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  // The same window again: an amendment superseded earlier becomes due again; a delivered one stays as it is.
  const again =
    !inserted && mode !== 'none'
      ? await ctx.db
          .update(coverageAmendments)
          .set({ status: 'pending', dueAt, completedAt: null })
          .where(
            and(
              eq(coverageAmendments.policyId, policy.id),
              eq(coverageAmendments.start, start),
              eq(coverageAmendments.end, end),
              eq(coverageAmendments.status, 'superseded'),
            ),
          )
          .returning()
          .get()
      : undefined;
  const fresh = inserted ?? again;
  if (fresh && mode !== 'none') await queueDelivery(ctx, fresh.id, mode === 'hourly' ? HOURLY_DELAY_MS : 0);
}

/**
 * Queues a delivery and waits for the send. A lost message, or a delayed one on a test clock (not
 * sent there), is picked up by the sweep once due (`dueAt`, the sweep's `nextDue`).
 */
async function queueDelivery(ctx: Ctx, amendmentId: string, delayMs: number) {
  await enqueue(ctx, { kind: 'coverage.reschedule', amendmentId }, { delaySeconds: Math.ceil(delayMs / 1000) }).catch((err) =>
    ctx.log.warn('coverage reschedule deferred to the sweep', { amendmentId, error: String(err) }),
  );
}

/** Hook: a booking moved (operator, widget, channel or app: every path through rescheduleBooking). */
export async function onBookingRescheduled(ctx: Ctx, e: { customerId: string; rentalId: string; start: number; end: number }) {
  const policy = await activePolicyOfRental(ctx, e.customerId, e.rentalId);
  if (policy) await recordMove(ctx, policy, e.start, e.end);
}

/** Due amendments for the sweep (at the context's clock, of the operators in the job's scope). */
export const dueAmendments = (ctx: Ctx, limit = 50) =>
  ctx.db
    .select({ id: coverageAmendments.id })
    .from(coverageAmendments)
    .where(
      and(
        eq(coverageAmendments.status, 'pending'),
        lte(coverageAmendments.dueAt, new Date(ctx.clock.now()).toISOString()),
        or(isNull(coverageAmendments.leaseUntil), lt(coverageAmendments.leaseUntil, new Date(ctx.clock.now()).toISOString())),
        inJobScope(ctx, coverageAmendments.customerId),
      ),
    )
    .orderBy(asc(coverageAmendments.dueAt))
    .limit(limit)
    .all();

async function finish(ctx: Ctx, a: AmendmentRow, set: Partial<AmendmentRow>) {
  return ctx.db
    .update(coverageAmendments)
    .set({ ...set, leaseUntil: null })
    .where(and(eq(coverageAmendments.id, a.id), eq(coverageAmendments.status, 'pending')))
    .returning()
    .get();
}

/** One `/reschedule` delivery, at the context's clock. */
export async function deliverAmendment(ctx: Ctx, amendmentId: string) {
  const now = ctx.clock.now();
  const nowIso = new Date(now).toISOString();
  const a = await ctx.db
    .update(coverageAmendments)
    .set({ leaseUntil: new Date(now + LEASE_MS).toISOString(), attempts: sql`${coverageAmendments.attempts} + 1` })
    .where(
      and(
        eq(coverageAmendments.id, amendmentId),
        eq(coverageAmendments.status, 'pending'),
        lte(coverageAmendments.dueAt, nowIso),
        or(isNull(coverageAmendments.leaseUntil), lt(coverageAmendments.leaseUntil, nowIso)),
      ),
    )
    .returning()
    .get();
  if (!a) return;
  const policy = await getPolicy(ctx, a.policyId);
  if (!policy || policy.status !== 'bound') {
    await finish(ctx, a, { status: 'superseded', reason: `the policy is ${policy?.status ?? 'gone'}`, completedAt: nowIso });
    return;
  }
  const offering = await getOffering(ctx, policy.offeringId);
  const quote = await getQuote(ctx, policy.quoteId);
  if (!offering || !quote) {
    await finish(ctx, a, { status: 'failed', reason: 'the offering was deleted', completedAt: nowIso });
    return;
  }
  const r = await callOffering(
    ctx,
    offering,
    'reschedule',
    {
      policyNumber: policy.policyNumber,
      quoteId: quote.underwriterQuoteId,
      reference: policy.id,
      idempotencyKey: `${policy.id}:${a.start}:${a.end}`,
      window: { start: new Date(a.start).toISOString(), end: new Date(a.end).toISOString() },
      previousWindow: { start: new Date(policy.coveredStart).toISOString(), end: new Date(policy.coveredEnd).toISOString() },
    },
    { subjectId: policy.id },
  );
  const body = (r.json ?? {}) as { decision?: unknown; reason?: unknown; premium?: unknown };
  const decision = r.outcome === 'ok' ? (body.decision === undefined || body.decision === null ? 'accepted' : body.decision) : null;
  if (r.outcome === 'ok' && (body.premium !== undefined || (body as Record<string, unknown>).price !== undefined)) {
    const fields = { policyId: policy.id, offeringId: offering.id, premium: body.premium };
    ctx.log.warn('coverage reschedule answered a price: ignored (the premium cannot change)', fields);
    await logRejected(ctx, offering.id, 'reschedule', 'a price in a reschedule answer is ignored (spec rule 7)', policy.id);
  }
  if (decision === 'accepted') {
    const done = await finish(ctx, a, { status: 'accepted', completedAt: nowIso, lastError: null });
    if (done)
      await ctx.db
        .update(coveragePolicies)
        .set({ coveredStart: a.start, coveredEnd: a.end, updatedAt: nowIso })
        .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'bound')));
    return;
  }
  if (decision === 'declined') {
    const reason = typeof body.reason === 'string' && body.reason ? body.reason.slice(0, 500) : 'The underwriter declined the new dates';
    const done = await finish(ctx, a, { status: 'declined', reason, completedAt: nowIso });
    if (!done) return;
    const lapsed = await ctx.db
      .update(coveragePolicies)
      .set({ status: 'not_covered', lastError: `reschedule declined: ${reason}`.slice(0, 500), updatedAt: nowIso })
      .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'bound')))
      .returning()
      .get();
    if (lapsed)
      await raiseFlag(ctx, lapsed, {
        kind: 'not_covered',
        dedupeKey: `not_covered:${a.id}`,
        subject: `Paid renter no longer covered: booking ${policy.rentalId ?? policy.transactionId}`,
        message: `Paid renter no longer covered: the underwriter declined the new dates ${formatLocalRange(a.start, a.end, await policyZone(ctx, policy))} (${reason}). The renter paid the premium; void the coverage to refund it (POST /coverage/policies/${policy.id}/void) or move the booking back.`,
      });
    return;
  }
  const error =
    r.outcome === 'ok' ? `decision ${String(decision).slice(0, 40)} is neither accepted nor declined` : `${r.outcome}${r.error ? `: ${r.error}` : ''}`;
  const delay = backoffMs(a.attempts, 60, 1800);
  const giveUp = (r.outcome !== 'ok' && !retriable(r) && r.outcome !== 'http_error') || now + delay - Date.parse(a.createdAt) > RETRY_WINDOW_MS;
  if (giveUp) await finish(ctx, a, { status: 'failed', lastError: error.slice(0, 500), completedAt: nowIso });
  else {
    await finish(ctx, a, { status: 'pending', lastError: error.slice(0, 500), dueAt: new Date(now + delay).toISOString() });
    await queueDelivery(ctx, a.id, delay);
  }
}
