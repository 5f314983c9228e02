/**
 * `/bind` after payment: the only call that carries the renter's identity. It runs from the queue
 * (and the 5-minute sweep), one binder at a time per policy (a lease claimed with a conditional
 * UPDATE), retried on timeouts and 5xx answers with backoff; the underwriter must be idempotent on
 * the quote, so a retry never makes a second policy. On success the policy number and the https
 * document link are stored and the premium is transferred to the underwriter's payout account (only
 * then). A bind still failing BIND_WINDOW_MS after payment (or refused outright) leaves the policy
 * `not_issued`: the booking stands, the operator is flagged and e-mailed (within 30 minutes), and the
 * renter's page says the policy has not issued yet.
 *
 * Times are the context's clock (an operator's sandbox test clock included): a retry is recorded as
 * due (`nextBindAt`) and also queued with the queue's delay; on a test clock delayed messages are not
 * sent, and the sweep's `nextDue` makes the clock's advance run the retry at its due time.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { enqueue, enqueueLater } from '../../lib/queue';
import { toDollars } from '../../lib/money';
import { payments } from '../../adapters/payments';
import { coveragePolicies } from '../../db/schema/coverage';
import { getBookingRow } from '../bookings/service';
import { backoffMs, callOffering, logRejected, retriable } from './calls';
import { raiseFlag } from './flags';
import { firstRentalOf, getOffering, getPolicy, getPolicyInTenant, getQuote } from './queries';
import { requestCancelCall } from './cancel';
import { BIND_WINDOW_MS } from './types';
import type { OfferingRow, PolicyRow } from './views';

const LEASE_MS = 60_000;

/** Queues a bind attempt now, after the response (a lost message is picked up by the sweep: `nextBindAt` is due). */
export function enqueueBind(ctx: Ctx, policyId: string) {
  enqueueLater(ctx, { kind: 'coverage.bind', policyId });
}

/**
 * Queues a retry after `delaySeconds` and waits for the send (a queue handler's retries are awaited).
 * A failed send, or a test clock (where delayed messages are not sent), leaves it to the sweep at `nextBindAt`.
 */
async function enqueueBindRetry(ctx: Ctx, policyId: string, delaySeconds: number) {
  await enqueue(ctx, { kind: 'coverage.bind', policyId }, { delaySeconds }).catch((err) =>
    ctx.log.warn('coverage bind retry deferred to the sweep', { policyId, error: String(err) }),
  );
}

/** A context acting for the policy's operator (jobs run as the system). */
export const forOperator = (ctx: Ctx, customerId: string): Ctx => ({ ...ctx, principal: { ...ctx.principal, customerId } });

const isHttps = (v: unknown): v is string => {
  if (typeof v !== 'string' || v.length > 2000) return false;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
};

/** Transfers the premium of a bound policy to the offering's payout account (idempotent on the policy). */
export async function transferPremium(ctx: Ctx, policy: PolicyRow, offering: OfferingRow | undefined): Promise<void> {
  if (!offering?.payoutAccountId) {
    await ctx.db.update(coveragePolicies).set({ transferStatus: 'not_needed' }).where(eq(coveragePolicies.id, policy.id));
    return;
  }
  try {
    const t = await payments(ctx).createTransfer({
      amount: policy.premium,
      currency: policy.currency,
      destination: offering.payoutAccountId,
      transferGroup: policy.transactionId,
      metadata: { policyId: policy.id, offeringId: offering.id },
      idempotencyKey: `coverage_premium_${policy.id}`,
    });
    await ctx.db
      .update(coveragePolicies)
      .set({ transferStatus: 'done', transferId: t.id })
      .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'bound')));
  } catch (err) {
    ctx.log.error('coverage premium transfer failed', { policyId: policy.id, error: String(err) });
    await ctx.db
      .update(coveragePolicies)
      .set({ transferStatus: 'failed', lastError: `transfer: ${String(err)}`.slice(0, 500) })
      .where(eq(coveragePolicies.id, policy.id));
  }
}

async function notIssued(ctx: Ctx, policy: PolicyRow, error: string) {
  const updated = await ctx.db
    .update(coveragePolicies)
    .set({ status: 'not_issued', lastError: error.slice(0, 500), bindLeaseUntil: null, nextBindAt: null, updatedAt: nowIso(ctx) })
    .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'pending')))
    .returning()
    .get();
  if (!updated) return;
  await raiseFlag(ctx, updated, {
    kind: 'bind_failed',
    dedupeKey: `bind_failed:${policy.id}`,
    subject: `Coverage not issued for booking ${policy.rentalId ?? policy.transactionId}`,
    message: `The renter paid for coverage but the underwriter did not issue the policy (${error.slice(0, 300)}). The booking stands; retry the bind (POST /coverage/policies/${policy.id}/bind) or void the coverage and refund the premium (POST /coverage/policies/${policy.id}/void).`,
  });
}

/**
 * One bind attempt. Answers the policy's status afterwards (`busy` when another binder holds it).
 * `manual`: an operator's retry, which is not bound by the bind window.
 */
export async function bindPolicy(ctx: Ctx, policyId: string, opts: { manual?: boolean } = {}): Promise<PolicyRow['status'] | 'busy' | 'missing'> {
  const now = ctx.clock.now();
  const at = new Date(now).toISOString();
  const claimed = await ctx.db
    .update(coveragePolicies)
    .set({ bindLeaseUntil: new Date(now + LEASE_MS).toISOString(), bindAttempts: sql`${coveragePolicies.bindAttempts} + 1`, updatedAt: at })
    .where(
      and(
        eq(coveragePolicies.id, policyId),
        eq(coveragePolicies.status, 'pending'),
        or(isNull(coveragePolicies.bindLeaseUntil), lt(coveragePolicies.bindLeaseUntil, at)),
      ),
    )
    .returning()
    .get();
  if (!claimed) {
    const p = await getPolicy(ctx, policyId);
    return p ? (p.status === 'pending' ? 'busy' : p.status) : 'missing';
  }
  return attemptBind(ctx, claimed, now, !!opts.manual);
}

async function attemptBind(ctx: Ctx, policy: PolicyRow, now: number, manual: boolean): Promise<PolicyRow['status']> {
  const offering = await getOffering(ctx, policy.offeringId);
  const quote = await getQuote(ctx, policy.quoteId);
  const octx = forOperator(ctx, policy.customerId);
  const rentalId = policy.rentalId ?? (await firstRentalOf(ctx, policy.customerId, policy.transactionId));
  if (!offering || !quote || !rentalId) {
    await notIssued(ctx, policy, !offering ? 'the offering was deleted' : !quote ? 'the quote is missing' : 'the booking is missing');
    return 'not_issued';
  }
  const b = await getBookingRow(octx, rentalId);
  const info = (b.customerInfo ?? {}) as { firstName?: string; lastName?: string; email?: string; phone?: string; address?: unknown; dob?: string };
  const body = {
    quoteId: quote.underwriterQuoteId,
    reference: policy.id,
    idempotencyKey: policy.id,
    premium: toDollars(policy.premium),
    currency: policy.currency,
    policyholder: {
      firstName: info.firstName ?? null,
      lastName: info.lastName ?? null,
      email: info.email ?? null,
      phone: info.phone ?? null,
      address: info.address ?? null,
      dateOfBirth: info.dob ?? null,
    },
    answers: quote.answers ?? {},
    booking: {
      reference: policy.transactionId,
      rentalId,
      inventoryId: b.itemId,
      start: new Date(b.start).toISOString(),
      end: new Date(b.end).toISOString(),
    },
  };
  const r = await callOffering(ctx, offering, 'bind', body, { subjectId: policy.id });
  const a = (r.json ?? {}) as { policyNumber?: unknown; documentUrl?: unknown };
  if (r.outcome === 'ok' && typeof a.policyNumber === 'string' && a.policyNumber && a.policyNumber.length <= 100 && isHttps(a.documentUrl)) {
    const bound = await ctx.db
      .update(coveragePolicies)
      .set({
        status: 'bound',
        policyNumber: a.policyNumber,
        documentUrl: a.documentUrl,
        boundAt: nowIso(ctx),
        coveredStart: b.start,
        coveredEnd: b.end,
        rentalId,
        bindLeaseUntil: null,
        nextBindAt: null,
        lastError: null,
        updatedAt: nowIso(ctx),
      })
      .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'pending')))
      .returning()
      .get();
    if (bound) {
      await transferPremium(ctx, bound, offering);
      return 'bound';
    }
    // Cancelled while the bind was in flight: the underwriter now holds a policy, so /cancel it (again).
    const now2 = await getPolicy(ctx, policy.id);
    if (now2?.status === 'cancelled') await requestCancelCall(ctx, now2);
    return now2?.status ?? 'cancelled';
  }
  let error: string;
  if (r.outcome === 'ok') {
    error =
      typeof a.policyNumber !== 'string' || !a.policyNumber ? 'the bind answer has no policyNumber' : 'the bind answer has no https documentUrl (spec rule 6)';
    await logRejected(ctx, offering.id, 'bind', error, policy.id);
  } else error = `${r.outcome}${r.error ? `: ${r.error}` : ''}`;
  if (!retriable(r)) {
    await notIssued(ctx, policy, error);
    return 'not_issued';
  }
  const delay = backoffMs(policy.bindAttempts, 15, 300);
  const paidAt = Date.parse(policy.paidAt);
  if (manual || now + delay - paidAt > BIND_WINDOW_MS) {
    await notIssued(ctx, policy, error);
    return 'not_issued';
  }
  await ctx.db
    .update(coveragePolicies)
    .set({ lastError: error.slice(0, 500), nextBindAt: new Date(now + delay).toISOString(), bindLeaseUntil: null, updatedAt: nowIso(ctx) })
    .where(and(eq(coveragePolicies.id, policy.id), eq(coveragePolicies.status, 'pending')));
  await enqueueBindRetry(ctx, policy.id, Math.ceil(delay / 1000));
  return 'pending';
}

/** POST /coverage/policies/{policyId}/bind: the operator retries now (a pending or not-issued policy). */
export async function retryBind(ctx: Ctx, policyId: string) {
  const p = await getPolicyInTenant(ctx, policyId);
  if (p.status !== 'pending' && p.status !== 'not_issued')
    throw new ApiError('invalid_state', `Only a policy that has not issued can be bound again (this one is ${p.status})`);
  if (p.status === 'not_issued')
    await ctx.db
      .update(coveragePolicies)
      .set({ status: 'pending', nextBindAt: nowIso(ctx), updatedAt: nowIso(ctx) })
      .where(and(eq(coveragePolicies.id, p.id), eq(coveragePolicies.status, 'not_issued')));
  await bindPolicy(ctx, p.id, { manual: p.status === 'not_issued' });
  return getPolicyInTenant(ctx, p.id);
}
