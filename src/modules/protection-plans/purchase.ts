import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { protectionPurchases } from '../../db/schema/protection-plans';
import { payments, PaymentError } from '../../adapters/payments';
import { collectPayment, type CommitMoney } from '../payments/service';
import { bookingChargeStmts, bookingPaymentStmts, findRentalAnyOperator, getBookingRow } from '../bookings/service';
import { getRenterInTenant } from '../renters/service';
import { planOf, premiumOf } from './catalog';
import { effectivePricing, effectiveSettings } from './settings';
import { protectionFail } from './errors';

type PurchaseRow = typeof protectionPurchases.$inferSelect;
const OPEN = new Set(['pending', 'confirmed']);

/** The booking's operator as the tenant of this (public) request. */
const tenantCtx = (ctx: Ctx, customerId: string): Ctx => ({ ...ctx, principal: { ...ctx.principal, customerId } });

/** The stored payment method: the renter's default card, else the card that paid the booking. */
async function storedMethod(ctx: Ctx, b: Awaited<ReturnType<typeof getBookingRow>>): Promise<{ paymentMethodId: string; customer: string | null } | null> {
  const pay = payments(ctx);
  if (b.renterId) {
    const r = await getRenterInTenant(ctx, b.renterId).catch(() => null);
    if (r?.paymentCustomerId) {
      const methods = await pay.listPaymentMethods(r.paymentCustomerId).catch(() => []);
      const m = methods.find((x) => x.isDefault) ?? methods[0];
      if (m) return { paymentMethodId: m.id, customer: r.paymentCustomerId };
    }
  }
  if (b.paymentIntentId) {
    const pi = await pay.getPaymentIntent(b.paymentIntentId);
    if (pi?.paymentMethodId) return { paymentMethodId: pi.paymentMethodId, customer: pi.customerId };
  }
  return null;
}

async function bookingSummary(ctx: Ctx, rentalId: string) {
  const b = await getBookingRow(ctx, rentalId);
  return { total: toDollars(b.total), amountPaid: toDollars(b.amountPaid), balanceDue: toDollars(Math.max(0, b.total - b.amountPaid)) };
}

const out = async (ctx: Ctx, p: PurchaseRow, charged: boolean) => ({
  purchaseId: p.id,
  rentalId: p.rentalId,
  planCode: p.planCode,
  planName: p.planName,
  premium: toDollars(p.premium),
  currency: p.currency,
  paymentIntentId: p.paymentIntentId,
  charged,
  booking: await bookingSummary(ctx, p.rentalId),
});

type PurchaseInput = { planId: string; planName: string; calculatedCost: number; percentage?: number; minimum?: number; price?: number; bookingTotal?: number };
type Booking = Awaited<ReturnType<typeof getBookingRow>>;
type Plan = NonNullable<ReturnType<typeof planOf>>;
type Pricing = ReturnType<typeof effectivePricing>;
type StoredMethod = NonNullable<Awaited<ReturnType<typeof storedMethod>>>;

/** A purchase being charged: the booking, the plan, its pricing, the premium (cents) and the base it was computed on. */
interface PlanCharge {
  b: Booking;
  plan: Plan;
  pricing: Pricing;
  premium: number;
  base: number;
}

/**
 * POST /public/bookings/{rentalId}/protection-plans: buys a plan for a booking. The premium is
 * computed on the server (percentage of the booking total before protection, capped, floored, with
 * the location's override) and the client's `calculatedCost` must match it within a cent. The
 * booking's stored payment method is charged through the payments service, and the premium is added
 * to the booking (total and amount paid) and the ledger with `payment.completed`, in one batch. A
 * (booking, plan) pair is charged at most once: the purchase row is claimed before the charge.
 */
export async function purchasePlan(reqCtx: Ctx, rentalId: string, input: PurchaseInput) {
  const found = await findRentalAnyOperator(reqCtx, rentalId);
  // The booking's operator is known now: its clock (a sandbox test clock's time) from here on.
  const ctx = tenantCtx(await onOperatorClock(reqCtx, found.customerId), found.customerId);
  const b = await getBookingRow(ctx, rentalId);
  const existing = await purchaseOf(ctx, b.id, input.planId);
  if (existing?.status === 'paid') return out(ctx, existing, false);
  if (existing) throw new ApiError('request_in_progress', 'This plan is being bought for the booking right now; retry in a moment');
  if (!OPEN.has(b.status)) throw new ApiError('bad_request', `A ${b.status} booking cannot get a protection plan`);
  const { plan, settings } = await offeredPlan(ctx, b, input.planId);
  const charge = await quotePremium(ctx, { b, plan, settings, input });
  const method = await storedMethod(ctx, b);
  if (!method) throw protectionFail('no_payment_method', 'The booking has no stored payment method to charge; add a card to the renter first');
  // Claim the (booking, plan) pair before charging: a racing second request finds it and never charges.
  const purchaseId = newId('ppur');
  if (!(await claimPurchase(ctx, purchaseId, charge))) return purchasePlan(reqCtx, rentalId, input);
  await chargePremium(ctx, { purchaseId, charge, method });
  const row = await ctx.db.select().from(protectionPurchases).where(eq(protectionPurchases.id, purchaseId)).get();
  return out(ctx, row!, true);
}

/** The purchase of a (booking, plan) pair, paid or being bought. */
function purchaseOf(ctx: Ctx, rentalId: string, planCode: string) {
  return ctx.db
    .select()
    .from(protectionPurchases)
    .where(and(eq(protectionPurchases.rentalId, rentalId), eq(protectionPurchases.planCode, planCode)))
    .get();
}

/** The plan, when it is active and enabled at the booking's location (else `plan_not_offered`), with the location's settings. */
async function offeredPlan(ctx: Ctx, b: Booking, planId: string) {
  const plan = planOf(planId);
  const settings = await effectiveSettings(ctx, b.locationId);
  if (!plan || !plan.active || !settings.enabledPlanCodes.includes(plan.planCode))
    throw protectionFail('plan_not_offered', `The plan ${planId} is not offered at this booking's location`, {
      details: [{ field: 'planId', message: 'not offered' }],
    });
  return { plan, settings };
}

/** The premium on the booking total before protection already bought; the client's `calculatedCost` must match it within a cent. */
async function quotePremium(
  ctx: Ctx,
  { b, plan, settings, input }: { b: Booking; plan: Plan; settings: Awaited<ReturnType<typeof effectiveSettings>>; input: PurchaseInput },
): Promise<PlanCharge> {
  const bought = await ctx.db
    .select({ sum: sql<number>`coalesce(sum(${protectionPurchases.premium}), 0)` })
    .from(protectionPurchases)
    .where(and(eq(protectionPurchases.rentalId, b.id), eq(protectionPurchases.status, 'paid')))
    .get();
  const base = b.total - Number(bought?.sum ?? 0);
  const pricing = effectivePricing(plan.planCode, settings.planOverrides);
  const premium = premiumOf(base, pricing);
  if (Math.abs(toCents(input.calculatedCost) - premium) > 1)
    throw new ApiError('price_mismatch', `calculatedCost ${input.calculatedCost.toFixed(2)} differs from the premium ${toDollars(premium).toFixed(2)}`, {
      details: [{ field: 'calculatedCost', message: `expected ${toDollars(premium).toFixed(2)}` }],
      extra: {
        expectedCost: toDollars(premium),
        percentage: pricing.percentage,
        minimum: toDollars(pricing.minimum),
        maxCap: pricing.maxCap === null ? null : toDollars(pricing.maxCap),
        bookingTotal: toDollars(base),
      },
    });
  return { b, plan, pricing, premium, base };
}

/** Inserts the `pending` purchase row unless the (booking, plan) pair has one; false when a racing request got there first. */
async function claimPurchase(ctx: Ctx, purchaseId: string, { b, plan, pricing, premium, base }: PlanCharge): Promise<boolean> {
  const claim = await ctx.db
    .insert(protectionPurchases)
    .values({
      id: purchaseId,
      customerId: b.customerId,
      rentalId: b.id,
      planCode: plan.planCode,
      planName: plan.name,
      status: 'pending',
      premium,
      bookingTotal: base,
      percentage: pricing.percentage,
      minimum: pricing.minimum,
      maxCap: pricing.maxCap,
      currency: b.currency,
    })
    .onConflictDoNothing()
    .run();
  return (claim.meta.changes ?? 0) === 1;
}

/** Charges the stored card and records the purchase; a failure drops the pending claim (a provider refusal: `payment_failed` or `payment_provider_error`). */
async function chargePremium(ctx: Ctx, { purchaseId, charge, method }: { purchaseId: string; charge: PlanCharge; method: StoredMethod }): Promise<void> {
  const { b, plan, premium } = charge;
  try {
    await collectPayment(
      ctx,
      {
        mode: 'charge',
        customerId: b.customerId,
        kind: 'protection_plan',
        data: { rentalId: b.id, transactionId: b.transactionId, planCode: plan.planCode, purchaseId },
        intent: {
          amount: premium,
          currency: b.currency,
          customerId: method.customer,
          paymentMethodId: method.paymentMethodId,
          description: `${plan.name} for booking ${b.id}`,
          metadata: { kind: 'protection_plan', berthCustomerId: b.customerId, customerId: b.customerId, rentalId: b.id, planCode: plan.planCode, purchaseId },
          idempotencyKey: `prot_${purchaseId}`,
        },
      },
      (paid, commitMoney) => recordPurchase(ctx, { purchaseId, charge, reference: paid!.reference }, commitMoney),
    );
  } catch (err) {
    await ctx.db
      .delete(protectionPurchases)
      .where(and(eq(protectionPurchases.id, purchaseId), eq(protectionPurchases.status, 'pending')))
      .run()
      .catch(() => undefined);
    if (err instanceof PaymentError) {
      if (err.code === 'card_declined' || err.code === 'authentication_required')
        throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code } });
      throw new ApiError('payment_provider_error', err.message);
    }
    throw err;
  }
}

/**
 * The plan's refund rule, written on its charge (bookings/refund-lines.ts reads it when the booking is
 * cancelled): a cancellation cover was in force until the renter cancels, so its premium is kept and
 * it raises the rental's refund as it promises; a plan that covers the rental itself is refunded.
 */
function refundTermsOf(plan: Plan) {
  if (plan.category !== 'cancellation')
    return { refund: { renterPercent: 100, rule: 'Refunded in full: the plan covers the rental, which will not take place' } };
  const cover = plan.coverage as { refundPercent?: number; noticeHours?: number };
  return {
    refund: { renterPercent: 0, rule: 'Kept: the cancellation cover was in force until the cancellation' },
    cancellationCover: { refundPercent: cover.refundPercent ?? 100, noticeHours: cover.noticeHours ?? 0 },
  };
}

/** The money's batch: the purchase marked paid, the premium charged on the booking and paid on it (ledger). */
async function recordPurchase(
  ctx: Ctx,
  { purchaseId, charge, reference }: { purchaseId: string; charge: PlanCharge; reference: string | null },
  commitMoney: CommitMoney,
): Promise<void> {
  const { b, plan, pricing, premium } = charge;
  await commitMoney(
    [
      ctx.db
        .update(protectionPurchases)
        .set({ status: 'paid', paymentIntentId: reference })
        .where(and(eq(protectionPurchases.id, purchaseId), eq(protectionPurchases.status, 'pending'))),
      ...bookingChargeStmts(ctx, b, {
        amount: premium,
        entryType: 'protection_plan',
        description: `Protection: ${plan.name}`,
        source: 'protection_plan',
        reference: purchaseId,
        metadata: { planCode: plan.planCode, percentage: pricing.percentage, ...refundTermsOf(plan) },
      }),
      ...bookingPaymentStmts(ctx, b, {
        amount: premium,
        source: 'protection_plan',
        reference,
        description: `Protection plan paid (${plan.name})`,
        metadata: { purchaseId },
      }),
    ],
    {
      audit: {
        action: 'protection.purchase',
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { planCode: plan.planCode, premium, purchaseId },
      },
    },
  );
}
