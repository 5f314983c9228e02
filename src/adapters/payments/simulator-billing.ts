/** The payment simulator's subscriptions, subscription checkouts (paid at once with the test card) and billing portal sessions. */
import { eq } from 'drizzle-orm';
import { simCheckoutSessions, simCustomers, simSubscriptions } from '../../db/schema/payments';
import { newId } from '../../lib/ids';
import { PaymentError, PLAN_PRICES, UNIT_PLAN_PRICES, type CheckoutSession, type Subscription, type UnitPlan } from './types';
import { SimulatorIntents } from './simulator-intents';

type SubRow = typeof simSubscriptions.$inferSelect;

const subOut = (r: SubRow): Subscription => ({
  id: r.id,
  customerId: r.customerId,
  plan: r.plan,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  currentPeriodStart: r.currentPeriodStart,
  currentPeriodEnd: r.currentPeriodEnd,
  cancelAtPeriodEnd: r.cancelAtPeriodEnd,
  canceledAt: r.canceledAt,
  quantity: r.quantity,
});

type CheckoutRow = typeof simCheckoutSessions.$inferSelect;
const checkoutOut = (r: CheckoutRow): CheckoutSession => ({
  id: r.id,
  url: r.url,
  status: r.status as CheckoutSession['status'],
  customerId: r.customerId,
  quantity: r.quantity,
  subscriptionId: r.subscriptionId,
});

const addMonth = (iso: string) => {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
};

/** Subscriptions, checkouts and billing portal sessions of the simulator. */
export class SimulatorBilling extends SimulatorIntents {
  async createSubscription(customerId: string, plan: 'standard' | 'enterprise', opts: { trialDays?: number } = {}) {
    const now = this.nowIso();
    const trialEnd = opts.trialDays ? new Date(this.clock.now() + opts.trialDays * 86_400_000).toISOString() : null;
    const row = {
      id: newId('sub_sim'),
      customerId,
      plan,
      status: trialEnd ? 'trialing' : 'active',
      amount: PLAN_PRICES[plan],
      currency: 'usd',
      currentPeriodStart: now,
      currentPeriodEnd: trialEnd ?? addMonth(now),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      quantity: 1,
    };
    await this.db.insert(simSubscriptions).values({ ...row, createdAt: now, updatedAt: now });
    return subOut({ ...row, createdAt: now, updatedAt: now });
  }

  async getSubscription(id: string) {
    const row = await this.db.select().from(simSubscriptions).where(eq(simSubscriptions.id, id)).get();
    return row ? subOut(row) : null;
  }

  async updateSubscription(id: string, change: { cancelAtPeriodEnd?: boolean; plan?: 'standard' | 'enterprise' }) {
    const row = await this.db.select().from(simSubscriptions).where(eq(simSubscriptions.id, id)).get();
    if (!row) throw new PaymentError('provider_error', `No such subscription: ${id}`);
    const patch: Partial<SubRow> = {};
    if (change.cancelAtPeriodEnd !== undefined) {
      patch.cancelAtPeriodEnd = change.cancelAtPeriodEnd;
      patch.canceledAt = change.cancelAtPeriodEnd ? this.nowIso() : null;
    }
    if (change.plan && change.plan !== row.plan) {
      if (change.plan === 'enterprise') {
        const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, row.customerId)).get();
        if (!cust?.defaultPaymentMethodId) throw new PaymentError('invalid_payment_method', 'An upgrade needs a default payment method on file');
      }
      patch.plan = change.plan;
      patch.amount = PLAN_PRICES[change.plan];
    }
    await this.db.update(simSubscriptions).set(patch).where(eq(simSubscriptions.id, id));
    return subOut({ ...row, ...patch });
  }

  async createSubscriptionCheckout(input: {
    customerId: string;
    plan: UnitPlan;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata?: Record<string, string>;
  }): Promise<CheckoutSession> {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, input.customerId)).get();
    if (!cust || cust.deleted) throw new PaymentError('invalid_payment_method', `No such customer: ${input.customerId}`);
    const now = this.nowIso();
    const subscriptionId = newId('sub_sim');
    const id = newId('cs_sim');
    // The offline checkout is paid at once with the test card: the subscription starts active.
    await this.db.batch([
      this.db.insert(simSubscriptions).values({
        id: subscriptionId,
        customerId: input.customerId,
        plan: input.plan,
        status: 'active',
        amount: UNIT_PLAN_PRICES[input.plan] * input.quantity,
        currency: 'usd',
        currentPeriodStart: now,
        currentPeriodEnd: addMonth(now),
        cancelAtPeriodEnd: false,
        canceledAt: null,
        quantity: input.quantity,
        createdAt: now,
        updatedAt: now,
      }),
      this.db.insert(simCheckoutSessions).values({
        id,
        customerId: input.customerId,
        mode: 'subscription',
        plan: input.plan,
        quantity: input.quantity,
        status: 'complete',
        url: `${input.successUrl}${input.successUrl.includes('?') ? '&' : '?'}session_id=${id}`,
        subscriptionId,
        metadata: input.metadata ?? null,
      }),
    ]);
    return {
      id,
      url: `${input.successUrl}${input.successUrl.includes('?') ? '&' : '?'}session_id=${id}`,
      status: 'complete',
      customerId: input.customerId,
      quantity: input.quantity,
      subscriptionId,
    };
  }

  async getCheckoutSession(id: string) {
    const row = await this.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, id)).get();
    return row ? checkoutOut(row) : null;
  }

  async setSubscriptionQuantity(subscriptionId: string, quantity: number) {
    const row = await this.db.select().from(simSubscriptions).where(eq(simSubscriptions.id, subscriptionId)).get();
    if (!row) throw new PaymentError('provider_error', `No such subscription: ${subscriptionId}`);
    if (row.status === 'canceled') throw new PaymentError('provider_error', 'A canceled subscription cannot be changed');
    if (!Number.isInteger(quantity) || quantity < 1) throw new PaymentError('provider_error', 'Quantity must be a positive integer');
    const unit = UNIT_PLAN_PRICES[row.plan as UnitPlan] ?? Math.round(row.amount / Math.max(1, row.quantity));
    const patch = { quantity, amount: unit * quantity };
    await this.db.update(simSubscriptions).set(patch).where(eq(simSubscriptions.id, subscriptionId));
    return subOut({ ...row, ...patch });
  }

  async createBillingPortalSession(customerId: string, returnUrl: string) {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, customerId)).get();
    if (!cust || cust.deleted) throw new PaymentError('invalid_payment_method', `No such customer: ${customerId}`);
    const id = newId('bps_sim');
    return { id, url: `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}portal_session=${id}` };
  }
}
