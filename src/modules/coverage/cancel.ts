/**
 * Cancellation of coverage: when the booking is cancelled (any path: the `booking.cancelled`
 * hook), or when the operator voids or refunds the coverage. The policy turns `cancelled` at once
 * (one winner: a conditional UPDATE), the premium's transfer to the underwriter is reversed, a void
 * gives the premium back to the renter through the payments service (a cancelled booking refunds it
 * with the rest of its payment), and `/cancel` is called from the queue with retries.
 */
import { and, eq, inArray, lte } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { enqueue } from '../../lib/queue';
import { payments } from '../../adapters/payments';
import { coveragePolicies } from '../../db/schema/coverage';
import { bookingChargeStmts, bookingRefundStmts, getBookingRow } from '../bookings/service';
import { refundPayment } from '../payments/service';
import { backoffMs, callOffering } from './calls';
import { activePolicyOfRental, getOffering, getPolicy, getPolicyInTenant, getQuote } from './queries';
import type { PolicyRow } from './views';

const CANCEL_RETRY_WINDOW_MS = 24 * 3600_000;
const forOperator = (ctx: Ctx, customerId: string): Ctx => ({ ...ctx, principal: { ...ctx.principal, customerId } });

/**
 * Queues a `/cancel` delivery (after `delaySeconds`) and waits for the send; a failed send, or a
 * delayed one on a test clock, is left to the sweep at `nextCancelAt`.
 */
async function queueCancel(ctx: Ctx, policyId: string, delaySeconds = 0) {
  await enqueue(ctx, { kind: 'coverage.cancel', policyId }, { delaySeconds }).catch((err) =>
    ctx.log.warn('coverage cancel deferred to the sweep', { policyId, error: String(err) }),
  );
}

/** Marks `/cancel` as due now and queues it. */
export async function requestCancelCall(ctx: Ctx, policy: PolicyRow) {
  await ctx.db
    .update(coveragePolicies)
    .set({ cancelStatus: 'pending', nextCancelAt: nowIso(ctx) })
    .where(eq(coveragePolicies.id, policy.id));
  await queueCancel(ctx, policy.id);
}

/** Reverses the premium's transfer of a cancelled policy (idempotent); a failure is retried by the sweep. */
export async function reverseTransfer(ctx: Ctx, policy: PolicyRow) {
  if (policy.transferStatus !== 'done' || !policy.transferId) {
    if (policy.transferStatus === 'none' || policy.transferStatus === 'failed')
      await ctx.db.update(coveragePolicies).set({ transferStatus: 'not_needed' }).where(eq(coveragePolicies.id, policy.id));
    return;
  }
  try {
    await payments(ctx).reverseTransfer(policy.transferId, { idempotencyKey: `coverage_reversal_${policy.id}`, metadata: { policyId: policy.id } });
    await ctx.db
      .update(coveragePolicies)
      .set({ transferStatus: 'reversed' })
      .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.transferStatus, 'done')));
  } catch (err) {
    ctx.log.error('coverage transfer reversal failed', { policyId: policy.id, transferId: policy.transferId, error: String(err) });
  }
}

/** Turns a policy `cancelled` (once), reverses its transfer and queues `/cancel`. Answers the cancelled row, or null when it already was. */
async function cancel(ctx: Ctx, policy: PolicyRow, reason: string): Promise<PolicyRow | null> {
  const now = nowIso(ctx);
  const done = await ctx.db
    .update(coveragePolicies)
    .set({ status: 'cancelled', cancelledAt: now, cancelReason: reason.slice(0, 500), bindLeaseUntil: null, nextBindAt: null, updatedAt: now })
    .where(and(eq(coveragePolicies.id, policy.id), inArray(coveragePolicies.status, ['pending', 'bound', 'not_issued', 'not_covered'])))
    .returning()
    .get();
  if (!done) return null;
  await reverseTransfer(ctx, done);
  await requestCancelCall(ctx, done);
  return done;
}

/** Hook: a booking was cancelled (through any path); its card refund already gave the premium back. */
export async function onBookingCancelled(ctx: Ctx, e: { customerId: string; rentalId: string }) {
  const policy = await activePolicyOfRental(ctx, e.customerId, e.rentalId);
  if (policy) await cancel(ctx, policy, 'booking_cancelled');
}

/** POST /coverage/policies/{policyId}/void: the operator voids the coverage (and by default refunds the premium); the booking stays. */
export async function voidPolicy(ctx: Ctx, policyId: string, input: { reason: string; refund: boolean }) {
  const p = await getPolicyInTenant(ctx, policyId);
  if (p.status === 'cancelled') throw new ApiError('invalid_state', 'This coverage is already cancelled');
  const done = await cancel(ctx, p, input.reason);
  if (!done) throw new ApiError('invalid_state', 'This coverage is already cancelled');
  if (input.refund && p.rentalId) await refundPremium(ctx, done);
  return (await getPolicy(ctx, p.id))!;
}

/** Gives the premium back to the renter (a refund on the booking's payment) and takes it off the booking's total. */
async function refundPremium(ctx: Ctx, policy: PolicyRow) {
  const octx = forOperator(ctx, policy.customerId);
  const b = await getBookingRow(octx, policy.rentalId!);
  if (!b.paymentIntentId) return;
  await refundPayment(
    octx,
    {
      mode: 'provider',
      customerId: b.customerId,
      kind: 'coverage_refund',
      paymentIntentId: b.paymentIntentId,
      amount: policy.premium,
      currency: policy.currency,
      reason: 'requested_by_customer',
      data: { rentalId: b.id, transactionId: b.transactionId, policyId: policy.id },
    },
    async (refund, commitMoney) => {
      await commitMoney(
        [
          ...bookingChargeStmts(octx, b, {
            amount: -policy.premium,
            entryType: 'coverage_premium',
            description: 'Coverage voided: premium taken off',
            source: 'coverage',
            reference: policy.id,
            metadata: { policyId: policy.id },
          }),
          ...bookingRefundStmts(octx, b, {
            amount: policy.premium,
            refundId: refund.refundId,
            description: 'Coverage premium refunded',
            metadata: { policyId: policy.id },
          }),
          octx.db.update(coveragePolicies).set({ premiumRefunded: true }).where(eq(coveragePolicies.id, policy.id)),
        ],
        {
          audit: {
            action: 'coverage.refund',
            targetType: 'coverage_policy',
            targetId: policy.id,
            customerId: policy.customerId,
            details: { amount: policy.premium / 100, refundId: refund.refundId },
          },
        },
      );
    },
  );
}

/** One `/cancel` delivery (queue and sweep), at the context's clock; retried with backoff for 24 hours. */
export async function deliverCancel(ctx: Ctx, policyId: string) {
  const now = ctx.clock.now();
  const at = new Date(now).toISOString();
  const claimed = await ctx.db
    .update(coveragePolicies)
    .set({ nextCancelAt: new Date(now + 60_000).toISOString() })
    .where(and(eq(coveragePolicies.id, policyId), eq(coveragePolicies.cancelStatus, 'pending'), lte(coveragePolicies.nextCancelAt, at)))
    .returning()
    .get();
  if (!claimed) return;
  const attempts = claimed.cancelAttempts + 1;
  const offering = await getOffering(ctx, claimed.offeringId);
  const quote = await getQuote(ctx, claimed.quoteId);
  if (!offering || !quote) {
    const set = { cancelStatus: 'failed' as const, cancelAttempts: attempts, lastError: 'the offering was deleted' };
    await ctx.db.update(coveragePolicies).set(set).where(eq(coveragePolicies.id, policyId));
    return;
  }
  const r = await callOffering(
    ctx,
    offering,
    'cancel',
    { quoteId: quote.underwriterQuoteId, policyNumber: claimed.policyNumber, reference: claimed.id, reason: claimed.cancelReason },
    { subjectId: claimed.id },
  );
  if (r.outcome === 'ok') {
    await ctx.db.update(coveragePolicies).set({ cancelStatus: 'done', cancelAttempts: attempts, nextCancelAt: null }).where(eq(coveragePolicies.id, policyId));
    return;
  }
  const delay = backoffMs(attempts, 30, 3600);
  const giveUp = now + delay - Date.parse(claimed.cancelledAt ?? at) > CANCEL_RETRY_WINDOW_MS;
  await ctx.db
    .update(coveragePolicies)
    .set({
      cancelStatus: giveUp ? 'failed' : 'pending',
      cancelAttempts: attempts,
      nextCancelAt: giveUp ? null : new Date(now + delay).toISOString(),
      lastError: `cancel: ${r.outcome}${r.error ? `: ${r.error}` : ''}`.slice(0, 500),
    })
    .where(eq(coveragePolicies.id, policyId));
  if (!giveUp) await queueCancel(ctx, policyId, Math.ceil(delay / 1000));
}
