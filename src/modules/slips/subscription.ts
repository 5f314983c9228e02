/**
 * The marina's slip subscription at the payment provider. The operator subscribes `quota` slips;
 * the subscription bills max(quota, slips in service) slips at 10 dollars per slip per month, so
 * slips above the quota are billed automatically: every change of the number of slips in service
 * (create, bulk create, delete, re-opening) sets the subscription quantity through the payments
 * adapter, and a daily job reconciles any drift (a provider call that failed, racing changes).
 */
import { eq, sql } from 'drizzle-orm';
import { nextScheduledRun } from '../../lib/module';
import type { Ctx } from '../../lib/context';
import { requireAdmin, systemCtxFor, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { slipSubscriptions } from '../../db/schema/slips';
import { payments, PaymentError } from '../../adapters/payments';
import { ensurePaymentCustomer } from '../customers/service';
import { slipErrors } from './errors';
import { slipsInService } from './queries';
import { SLIP_UNIT_PRICE_CENTS } from './types';

type SubRow = typeof slipSubscriptions.$inferSelect;
const ACTIVE = ['active', 'trialing'];

function providerFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required') throw new ApiError('payment_failed', err.message);
    throw new ApiError('payment_provider_error', err.message);
  }
  throw err;
}

async function rowOf(ctx: Ctx, customerId: string): Promise<SubRow | undefined> {
  return ctx.db.select().from(slipSubscriptions).where(eq(slipSubscriptions.customerId, customerId)).get();
}

function view(row: SubRow | undefined, inService: number) {
  const quota = row?.quota ?? 0;
  const billed = row?.billedQuantity ?? 0;
  return {
    status: row?.status ?? 'none',
    active: !!row && ACTIVE.includes(row.status),
    quota,
    slipsInService: inService,
    extraSlips: Math.max(0, inService - quota),
    billedQuantity: billed,
    unitPriceCents: row?.unitAmountCents ?? SLIP_UNIT_PRICE_CENTS,
    monthlyAmountCents: billed * (row?.unitAmountCents ?? SLIP_UNIT_PRICE_CENTS),
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    currentPeriodEnd: row?.currentPeriodEnd ?? null,
    providerSubscriptionId: row?.providerSubscriptionId ?? null,
    checkoutSessionId: row?.checkoutSessionId ?? null,
  };
}

/** Reads the provider's state into the row: a finished checkout becomes the subscription; status, period end and cancellation follow the provider. */
async function refresh(ctx: Ctx, row: SubRow): Promise<SubRow> {
  const pay = payments(ctx);
  const patch: Partial<SubRow> = {};
  let subscriptionId = row.providerSubscriptionId;
  if (!subscriptionId && row.checkoutSessionId) {
    const cs = await pay.getCheckoutSession(row.checkoutSessionId).catch(() => null);
    if (cs?.status === 'complete' && cs.subscriptionId) subscriptionId = patch.providerSubscriptionId = cs.subscriptionId;
    else if (cs?.status === 'expired') patch.status = 'none';
  }
  if (subscriptionId) {
    const sub = await pay.getSubscription(subscriptionId).catch(() => null);
    if (sub) {
      patch.status = sub.status;
      patch.currentPeriodEnd = sub.currentPeriodEnd;
      patch.cancelAtPeriodEnd = sub.cancelAtPeriodEnd;
      if (sub.quantity != null) patch.billedQuantity = sub.quantity;
    }
  }
  const changed = Object.entries(patch).some(([k, v]) => row[k as keyof SubRow] !== v);
  if (!changed) return row;
  patch.lastSyncedAt = nowIso(ctx);
  await ctx.db.update(slipSubscriptions).set(patch).where(eq(slipSubscriptions.customerId, row.customerId));
  return { ...row, ...patch };
}

export async function subscriptionStatus(ctx: Ctx) {
  const customerId = tenantOf(ctx);
  let row = await rowOf(ctx, customerId);
  if (row) row = await refresh(ctx, row);
  return view(row, await slipsInService(ctx, customerId));
}

/** 402 unless the operator's slip subscription is active (a just-finished checkout is picked up here). */
export async function requireActiveSubscription(ctx: Ctx): Promise<void> {
  const customerId = tenantOf(ctx);
  let row = await rowOf(ctx, customerId);
  if (row && !ACTIVE.includes(row.status)) row = await refresh(ctx, row);
  if (!row || !ACTIVE.includes(row.status)) {
    throw slipErrors.fail(
      'slip_subscription_required',
      row?.status === 'incomplete'
        ? 'The slip subscription checkout is not finished yet; complete it, then retry'
        : 'Adding slips needs an active slip subscription: start one with POST /slip-subscription/create-checkout',
    );
  }
}

/**
 * Sets the billed quantity to max(quota, slips in service) when it differs. Called after every
 * change of the number of slips in service; never fails the caller (a provider failure is logged
 * and the daily reconciliation retries). Re-reads after each change so racing changes settle.
 */
export async function syncSlipQuantity(ctx: Ctx, customerId = tenantOf(ctx)): Promise<number | null> {
  for (let i = 0; i < 3; i++) {
    const row = await rowOf(ctx, customerId);
    if (!row || !ACTIVE.includes(row.status) || !row.providerSubscriptionId) return null;
    const desired = Math.max(1, row.quota, await slipsInService(ctx, customerId));
    if (desired === row.billedQuantity) return desired;
    try {
      await payments(ctx).setSubscriptionQuantity(row.providerSubscriptionId, desired);
    } catch (err) {
      ctx.log.warn('slip subscription quantity not updated', { customerId, desired, error: String(err) });
      return null;
    }
    await ctx.db
      .update(slipSubscriptions)
      .set({ billedQuantity: desired, lastSyncedAt: nowIso(ctx) })
      .where(eq(slipSubscriptions.customerId, customerId));
  }
  return null;
}

export async function createCheckout(ctx: Ctx, input: { quota: number; successUrl?: string; cancelUrl?: string }, baseUrl: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  let row = await rowOf(ctx, customerId);
  if (row) row = await refresh(ctx, row);
  if (row && ACTIVE.includes(row.status))
    throw new ApiError('already_exists', 'The slip subscription is already active; use POST /slip-subscription/add-slips to subscribe more slips');
  const { row: account } = await ensurePaymentCustomer(ctx);
  const inService = await slipsInService(ctx, customerId);
  const quantity = Math.max(input.quota, inService);
  let cs;
  try {
    cs = await payments(ctx).createSubscriptionCheckout({
      customerId: account.paymentCustomerId!,
      plan: 'marina_slip',
      quantity,
      successUrl: input.successUrl ?? `${baseUrl}/slip-subscription/status`,
      cancelUrl: input.cancelUrl ?? `${baseUrl}/slip-subscription/status`,
      metadata: { berthCustomerId: customerId, product: 'slip_subscription' },
    });
  } catch (err) {
    providerFailure(err);
  }
  const values = {
    customerId,
    status: cs.status === 'complete' ? 'active' : 'incomplete',
    providerSubscriptionId: cs.subscriptionId,
    checkoutSessionId: cs.id,
    quota: input.quota,
    billedQuantity: quantity,
    unitAmountCents: SLIP_UNIT_PRICE_CENTS,
    cancelAtPeriodEnd: false,
    currentPeriodEnd: null,
  };
  await commit(ctx, [ctx.db.insert(slipSubscriptions).values(values).onConflictDoUpdate({ target: slipSubscriptions.customerId, set: values })], {
    audit: {
      action: 'slip_subscription.checkout',
      targetType: 'slip_subscription',
      targetId: customerId,
      details: { quota: input.quota, quantity, session: cs.id },
    },
  });
  return { checkoutSessionId: cs.id, url: cs.url, status: cs.status, subscription: await subscriptionStatus(ctx) };
}

export async function addSubscribedSlips(ctx: Ctx, input: { count: number }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await requireActiveSubscription(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(slipSubscriptions)
        .set({ quota: sql`${slipSubscriptions.quota} + ${input.count}` })
        .where(eq(slipSubscriptions.customerId, customerId)),
    ],
    { audit: { action: 'slip_subscription.add_slips', targetType: 'slip_subscription', targetId: customerId, details: { count: input.count } } },
  );
  const row = (await rowOf(ctx, customerId))!;
  const desired = Math.max(1, row.quota, await slipsInService(ctx, customerId));
  if (desired !== row.billedQuantity) {
    try {
      await payments(ctx).setSubscriptionQuantity(row.providerSubscriptionId!, desired);
    } catch (err) {
      // The quota stays raised; the daily reconciliation bills it once the provider answers.
      ctx.log.warn('slip subscription quantity not updated', { customerId, desired, error: String(err) });
      providerFailure(err);
    }
    await ctx.db.update(slipSubscriptions).set({ billedQuantity: desired }).where(eq(slipSubscriptions.customerId, customerId));
  }
  return subscriptionStatus(ctx);
}

export async function billingPortal(ctx: Ctx, input: { returnUrl?: string }, baseUrl: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const row = await rowOf(ctx, customerId);
  if (!row || row.status === 'none') throw new ApiError('not_found', 'No slip subscription: start one with POST /slip-subscription/create-checkout');
  const { row: account } = await ensurePaymentCustomer(ctx);
  try {
    return await payments(ctx).createBillingPortalSession(account.paymentCustomerId!, input.returnUrl ?? `${baseUrl}/slip-subscription/status`);
  } catch (err) {
    providerFailure(err);
  }
}

export async function cancelSubscriptionAtPeriodEnd(ctx: Ctx) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  let row = await rowOf(ctx, customerId);
  if (row) row = await refresh(ctx, row);
  if (!row || !row.providerSubscriptionId || !ACTIVE.includes(row.status)) throw new ApiError('not_found', 'No active slip subscription');
  if (row.cancelAtPeriodEnd) return subscriptionStatus(ctx);
  let sub;
  try {
    sub = await payments(ctx).updateSubscription(row.providerSubscriptionId, { cancelAtPeriodEnd: true });
  } catch (err) {
    providerFailure(err);
  }
  await commit(
    ctx,
    [
      ctx.db
        .update(slipSubscriptions)
        .set({ cancelAtPeriodEnd: true, currentPeriodEnd: sub.currentPeriodEnd })
        .where(eq(slipSubscriptions.customerId, customerId)),
    ],
    { audit: { action: 'slip_subscription.cancel', targetType: 'slip_subscription', targetId: customerId, details: { endsAt: sub.currentPeriodEnd } } },
  );
  return subscriptionStatus(ctx);
}

/**
 * Daily (on the clock): brings every active subscription in scope (quantity and status) in line with
 * the slips in service. No due time of its own: the provider's state is read each run.
 */
/** When the reconciliation has work for the operators in scope: the next daily run while a subscription is live, else never. */
export async function nextSlipReconcile(ctx: Ctx): Promise<number | null> {
  const rows = await ctx.db.select({ status: slipSubscriptions.status }).from(slipSubscriptions).where(inJobScope(ctx, slipSubscriptions.customerId)).all();
  return rows.some((r) => ACTIVE.includes(r.status) || r.status === 'incomplete') ? nextScheduledRun('0 3 * * *', ctx.clock.now()) : null;
}

export async function reconcileSlipSubscriptions(ctx: Ctx) {
  const rows = await ctx.db.select().from(slipSubscriptions).where(inJobScope(ctx, slipSubscriptions.customerId)).all();
  let changed = 0;
  for (const row of rows) {
    if (!ACTIVE.includes(row.status) && row.status !== 'incomplete') continue;
    const octx = systemCtxFor(ctx, row.customerId);
    const fresh = await refresh(octx, row);
    const before = fresh.billedQuantity;
    const after = await syncSlipQuantity(octx, row.customerId);
    if (after != null && after !== before) changed++;
  }
  return { subscriptions: rows.length, changed };
}
