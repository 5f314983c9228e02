import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DB } from '../../db/client';
import {
  simAccounts,
  simCheckoutSessions,
  simCustomers,
  simPaymentIntents,
  simPaymentMethods,
  simRefunds,
  simSetupIntents,
  simSubscriptions,
  simTransfers,
} from '../../db/schema/payments';
import { newId, randomString } from '../../lib/ids';
import {
  PaymentError,
  PLAN_PRICES,
  UNIT_PLAN_PRICES,
  type CheckoutSession,
  type ConnectedAccount,
  type CreateIntentInput,
  type PaymentIntent,
  type PaymentMethod,
  type PaymentsPort,
  type Subscription,
  type Transfer,
  type UnitPlan,
} from './types';

type Behavior = 'success' | 'decline' | 'authentication_required';

/**
 * Test payment-method tokens, named as the provider names its test cards:
 * success `pm_card_visa`, `pm_card_mastercard`, `tok_visa`; decline `pm_card_chargeDeclined`,
 * `pm_card_visa_chargeDeclined`, `tok_chargeDeclined`; authentication required
 * `pm_card_authenticationRequired`, `pm_card_threeDSecureRequired`.
 */
export const TEST_TOKENS: Record<string, { brand: string; last4: string; behavior: Behavior }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behavior: 'success' },
  tok_visa: { brand: 'visa', last4: '4242', behavior: 'success' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behavior: 'success' },
  pm_card_amex: { brand: 'amex', last4: '8431', behavior: 'success' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  pm_card_visa_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3155', behavior: 'authentication_required' },
  pm_card_threeDSecureRequired: { brand: 'visa', last4: '3220', behavior: 'authentication_required' },
};

type PmRow = typeof simPaymentMethods.$inferSelect;
type PiRow = typeof simPaymentIntents.$inferSelect;
type SubRow = typeof simSubscriptions.$inferSelect;

const pmOut = (r: PmRow, defaultId?: string | null): PaymentMethod => ({
  id: r.id,
  type: r.type,
  brand: r.brand,
  last4: r.last4,
  expMonth: r.expMonth,
  expYear: r.expYear,
  customerId: r.customerId,
  isDefault: defaultId ? r.id === defaultId : undefined,
});

const piOut = (r: PiRow): PaymentIntent => ({
  id: r.id,
  status: r.status as PaymentIntent['status'],
  amount: r.amount,
  amountCapturable: r.amountCapturable,
  amountReceived: r.amountReceived,
  amountRefunded: r.amountRefunded,
  currency: r.currency,
  customerId: r.customerId,
  paymentMethodId: r.paymentMethodId,
  captureMethod: r.captureMethod,
  clientSecret: r.clientSecret,
  description: r.description,
  metadata: r.metadata ?? {},
  lastError: r.lastError,
  createdAt: r.createdAt,
  applicationFeeAmount: r.applicationFeeAmount ?? null,
  transferDestination: r.transferDestination ?? null,
});

type AccountRow = typeof simAccounts.$inferSelect;
type TransferRow = typeof simTransfers.$inferSelect;

const transferOut = (r: TransferRow): Transfer => ({
  id: r.id,
  amount: r.amount,
  currency: r.currency,
  destination: r.destination,
  amountReversed: r.amountReversed,
  reversed: r.amountReversed >= r.amount,
  transferGroup: r.transferGroup,
  createdAt: r.createdAt,
});

const accountOut = (r: AccountRow): ConnectedAccount => ({
  id: r.id,
  type: r.type as ConnectedAccount['type'],
  country: r.country,
  email: r.email,
  chargesEnabled: r.detailsSubmitted,
  payoutsEnabled: r.detailsSubmitted,
  detailsSubmitted: r.detailsSubmitted,
  createdAt: r.createdAt,
});

const SIM_BASE = 'https://connect.simulator.berth.invalid';

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

/** Offline payment provider: keeps its objects in D1 and honours the test tokens above. */
export class PaymentSimulator implements PaymentsPort {
  readonly mode = 'simulator' as const;
  constructor(
    private readonly db: DB,
    private readonly region: 'US' | 'CA' = 'US',
  ) {}

  async createCustomer(input: { email?: string | null; name?: string | null; metadata?: Record<string, string> }) {
    const id = newId('cus_sim');
    await this.db.insert(simCustomers).values({ id, email: input.email ?? null, name: input.name ?? null, metadata: input.metadata ?? null });
    return { id };
  }

  async deleteCustomer(id: string) {
    await this.db.update(simCustomers).set({ deleted: true }).where(eq(simCustomers.id, id));
  }

  /** Resolves a test token or an existing simulated payment method. */
  private async resolve(paymentMethodId: string): Promise<PmRow> {
    const existing = await this.db.select().from(simPaymentMethods).where(eq(simPaymentMethods.id, paymentMethodId)).get();
    if (existing) return existing;
    const token = TEST_TOKENS[paymentMethodId];
    if (!token) throw new PaymentError('invalid_payment_method', `No such payment method: ${paymentMethodId}`);
    const row: PmRow = {
      id: newId('pm_sim'),
      customerId: null,
      type: 'card',
      brand: token.brand,
      last4: token.last4,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 3,
      behavior: token.behavior,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    await this.db.insert(simPaymentMethods).values(row);
    return row;
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string, opts: { makeDefault?: boolean } = {}) {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, customerId)).get();
    if (!cust || cust.deleted) throw new PaymentError('invalid_payment_method', `No such customer: ${customerId}`);
    const pm = await this.resolve(paymentMethodId);
    if (pm.customerId && pm.customerId !== customerId) throw new PaymentError('invalid_payment_method', 'Payment method belongs to another customer');
    await this.db.update(simPaymentMethods).set({ customerId }).where(eq(simPaymentMethods.id, pm.id));
    if (opts.makeDefault ?? true) await this.db.update(simCustomers).set({ defaultPaymentMethodId: pm.id }).where(eq(simCustomers.id, customerId));
    return pmOut({ ...pm, customerId }, (opts.makeDefault ?? true) ? pm.id : cust.defaultPaymentMethodId);
  }

  async listPaymentMethods(customerId: string) {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, customerId)).get();
    const rows = await this.db.select().from(simPaymentMethods).where(eq(simPaymentMethods.customerId, customerId)).all();
    return rows.map((r) => pmOut(r, cust?.defaultPaymentMethodId ?? null));
  }

  async createSetupIntent(customerId: string) {
    const id = newId('seti_sim');
    const clientSecret = `${id}_secret_${randomString(24)}`;
    await this.db.insert(simSetupIntents).values({ id, customerId, clientSecret, status: 'requires_payment_method' });
    return { id, clientSecret, status: 'requires_payment_method' };
  }

  async createSubscription(customerId: string, plan: 'standard' | 'enterprise', opts: { trialDays?: number } = {}) {
    const now = new Date().toISOString();
    const trialEnd = opts.trialDays ? new Date(Date.now() + opts.trialDays * 86_400_000).toISOString() : null;
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
    await this.db.insert(simSubscriptions).values(row);
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
      patch.canceledAt = change.cancelAtPeriodEnd ? new Date().toISOString() : null;
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

  private async charge(pi: PiRow, pm: PmRow): Promise<PiRow> {
    const patch: Partial<PiRow> = { paymentMethodId: pm.id };
    if (pm.behavior === 'decline') {
      Object.assign(patch, { status: 'requires_payment_method', lastError: 'card_declined' });
    } else if (pm.behavior === 'authentication_required') {
      Object.assign(patch, { status: 'requires_action', lastError: 'authentication_required' });
    } else if (pi.captureMethod === 'manual') {
      Object.assign(patch, { status: 'requires_capture', amountCapturable: pi.amount, lastError: null });
    } else {
      Object.assign(patch, { status: 'succeeded', amountReceived: pi.amount, lastError: null });
    }
    await this.db.update(simPaymentIntents).set(patch).where(eq(simPaymentIntents.id, pi.id));
    const out = { ...pi, ...patch } as PiRow;
    if (pm.behavior === 'decline') throw new PaymentError('card_declined', 'Your card was declined.', piOut(out));
    if (pm.behavior === 'authentication_required') throw new PaymentError('authentication_required', 'This payment requires authentication.', piOut(out));
    return out;
  }

  async createPaymentIntent(input: CreateIntentInput) {
    if (input.idempotencyKey) {
      const prior = await this.db
        .select()
        .from(simPaymentIntents)
        .where(eq(simPaymentIntents.id, `pi_sim_${input.idempotencyKey}`))
        .get();
      if (prior) return piOut(prior);
    }
    const id = input.idempotencyKey ? `pi_sim_${input.idempotencyKey}` : newId('pi_sim');
    const row: PiRow = {
      id,
      customerId: input.customerId ?? null,
      paymentMethodId: null,
      amount: input.amount,
      amountCapturable: 0,
      amountReceived: 0,
      amountRefunded: 0,
      currency: (input.currency ?? 'usd').toLowerCase(),
      captureMethod: input.captureMethod ?? 'automatic',
      status: 'requires_payment_method',
      description: input.description ?? null,
      metadata: {
        ...(input.metadata ?? {}),
        ...(input.paymentMethodTypes ? { paymentMethodTypes: input.paymentMethodTypes.join(',') } : {}),
        ...(input.setupFutureUsage ? { setupFutureUsage: input.setupFutureUsage } : {}),
      },
      clientSecret: `${id}_secret_${randomString(24)}`,
      lastError: null,
      applicationFeeAmount: input.applicationFeeAmount ?? null,
      transferDestination: input.transferDestination ?? input.onBehalfOfAccount ?? null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new PaymentError('provider_error', 'Amount must be a positive integer of cents');
    if (input.applicationFeeAmount != null && (input.applicationFeeAmount < 0 || input.applicationFeeAmount > input.amount))
      throw new PaymentError('provider_error', 'The application fee must be between 0 and the amount');
    for (const acct of [input.transferDestination, input.onBehalfOfAccount])
      if (acct && !(await this.getAccount(acct))) throw new PaymentError('provider_error', `No such connected account: ${acct}`);
    await this.db.insert(simPaymentIntents).values(row);
    if (input.confirm && input.paymentMethodId) {
      const pm = await this.resolve(input.paymentMethodId);
      const charged = await this.charge(row, pm);
      // As the provider does: a card kept for later is attached to the customer once the payment succeeds.
      if (input.setupFutureUsage && input.customerId && !pm.customerId) {
        await this.db
          .update(simPaymentMethods)
          .set({ customerId: input.customerId })
          .where(and(eq(simPaymentMethods.id, pm.id), isNull(simPaymentMethods.customerId)));
      }
      return piOut(charged);
    }
    return piOut(row);
  }

  async getPaymentIntent(id: string) {
    const row = await this.db.select().from(simPaymentIntents).where(eq(simPaymentIntents.id, id)).get();
    return row ? piOut(row) : null;
  }

  private async mustGet(id: string): Promise<PiRow> {
    const row = await this.db.select().from(simPaymentIntents).where(eq(simPaymentIntents.id, id)).get();
    if (!row) throw new PaymentError('provider_error', `No such payment intent: ${id}`);
    return row;
  }

  async confirmPaymentIntent(id: string, paymentMethodId = 'pm_card_visa') {
    const row = await this.mustGet(id);
    if (row.status !== 'requires_payment_method' && row.status !== 'requires_confirmation' && row.status !== 'requires_action') {
      throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be confirmed`);
    }
    const pm = await this.resolve(paymentMethodId);
    return piOut(await this.charge(row, pm));
  }

  async capturePaymentIntent(id: string, amountToCapture?: number) {
    const row = await this.mustGet(id);
    if (row.status !== 'requires_capture') throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be captured`);
    const amount = amountToCapture ?? row.amountCapturable;
    if (amount <= 0 || amount > row.amountCapturable)
      throw new PaymentError('provider_error', `Capture amount must be between 1 and ${row.amountCapturable} cents`);
    const patch = { status: 'succeeded', amountReceived: amount, amountCapturable: 0 };
    await this.db
      .update(simPaymentIntents)
      .set(patch)
      .where(and(eq(simPaymentIntents.id, id), eq(simPaymentIntents.status, 'requires_capture')));
    return piOut({ ...row, ...patch });
  }

  async cancelPaymentIntent(id: string) {
    const row = await this.mustGet(id);
    if (row.status === 'succeeded' || row.status === 'canceled')
      throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be canceled`);
    const patch = { status: 'canceled', amountCapturable: 0 };
    await this.db.update(simPaymentIntents).set(patch).where(eq(simPaymentIntents.id, id));
    return piOut({ ...row, ...patch });
  }

  async refund(paymentIntentId: string, amount?: number, reason?: string) {
    const row = await this.mustGet(paymentIntentId);
    if (row.status !== 'succeeded') throw new PaymentError('provider_error', 'Only a succeeded payment can be refunded');
    const refundable = row.amountReceived - row.amountRefunded;
    const amt = amount ?? refundable;
    if (amt <= 0 || amt > refundable) throw new PaymentError('provider_error', `Refund must be between 1 and ${refundable} cents`);
    const id = newId('re_sim');
    // One conditional UPDATE: two racing refunds can never together exceed what was received.
    const res = await this.db
      .update(simPaymentIntents)
      .set({ amountRefunded: sql`${simPaymentIntents.amountRefunded} + ${amt}` })
      .where(and(eq(simPaymentIntents.id, paymentIntentId), sql`${simPaymentIntents.amountReceived} - ${simPaymentIntents.amountRefunded} >= ${amt}`))
      .run();
    if ((res.meta.changes ?? 0) !== 1) throw new PaymentError('provider_error', 'The refund exceeds what is left to refund');
    await this.db.insert(simRefunds).values({ id, paymentIntentId, amount: amt, status: 'succeeded', reason: reason ?? null });
    return { id, paymentIntentId, amount: amt, status: 'succeeded' };
  }

  async createConnectionToken() {
    return { secret: `pst_sim_${randomString(32)}` };
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
    const now = new Date().toISOString();
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

  async createAccount(input: { country?: string; email?: string | null; type?: 'express' | 'standard'; metadata?: Record<string, string> }) {
    const now = new Date().toISOString();
    const row: AccountRow = {
      id: newId('acct_sim'),
      type: input.type ?? 'express',
      country: (input.country ?? this.region).toUpperCase(),
      email: input.email ?? null,
      region: this.region,
      detailsSubmitted: false,
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(simAccounts).values(row);
    return accountOut(row);
  }

  async getAccount(id: string) {
    const row = await this.db.select().from(simAccounts).where(eq(simAccounts.id, id)).get();
    return row ? accountOut(row) : null;
  }

  private async mustAccount(id: string) {
    const a = await this.getAccount(id);
    if (!a) throw new PaymentError('invalid_payment_method', `No such connected account: ${id}`);
    return a;
  }

  /**
   * The simulator completes the hosted onboarding at once, as if the account holder had filled it
   * in (like its checkout sessions): the account can take charges and payouts from now on.
   */
  async createAccountLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }) {
    await this.mustAccount(accountId);
    await this.db.update(simAccounts).set({ detailsSubmitted: true }).where(eq(simAccounts.id, accountId));
    const expires = new Date(Date.now() + 300_000).toISOString();
    const q = new URLSearchParams({ refresh_url: urls.refreshUrl, return_url: urls.returnUrl });
    return { url: `${SIM_BASE}/setup/${accountId}/${randomString(24)}?${q.toString()}`, expiresAt: expires };
  }

  async createAccountSession(accountId: string) {
    await this.mustAccount(accountId);
    return { clientSecret: `accs_sim_${randomString(16)}_secret_${randomString(24)}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() };
  }

  async createLoginLink(accountId: string) {
    const a = await this.mustAccount(accountId);
    if (a.type !== 'express') throw new PaymentError('provider_error', 'Login links are for express accounts');
    return { url: `${SIM_BASE}/express/${accountId}/${randomString(24)}`, expiresAt: null };
  }

  async createTransfer(input: {
    amount: number;
    currency: string;
    destination: string;
    transferGroup?: string;
    metadata?: Record<string, string>;
    idempotencyKey?: string;
  }): Promise<Transfer> {
    const id = input.idempotencyKey ? `tr_sim_${input.idempotencyKey.replace(/[^A-Za-z0-9_]/g, '_')}` : newId('tr_sim');
    const existing = await this.db.select().from(simTransfers).where(eq(simTransfers.id, id)).get();
    if (existing) return transferOut(existing);
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new PaymentError('provider_error', 'A transfer amount must be a positive number of cents');
    const acct = await this.getAccount(input.destination);
    if (!acct) throw new PaymentError('provider_error', `No such connected account: ${input.destination}`);
    if (!acct.payoutsEnabled) throw new PaymentError('provider_error', `The account ${input.destination} has not completed onboarding`);
    const now = new Date().toISOString();
    const row: TransferRow = {
      id,
      amount: input.amount,
      currency: input.currency,
      destination: input.destination,
      amountReversed: 0,
      transferGroup: input.transferGroup ?? null,
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(simTransfers).values(row).onConflictDoNothing();
    return transferOut((await this.db.select().from(simTransfers).where(eq(simTransfers.id, id)).get())!);
  }

  /** Reverses what is left of a transfer (one conditional UPDATE: a second reversal changes nothing). */
  async reverseTransfer(transferId: string): Promise<Transfer> {
    const row = await this.db.select().from(simTransfers).where(eq(simTransfers.id, transferId)).get();
    if (!row) throw new PaymentError('provider_error', `No such transfer: ${transferId}`);
    await this.db
      .update(simTransfers)
      .set({ amountReversed: sql`${simTransfers.amount}`, updatedAt: new Date().toISOString() })
      .where(and(eq(simTransfers.id, transferId), sql`${simTransfers.amountReversed} < ${simTransfers.amount}`));
    return transferOut((await this.db.select().from(simTransfers).where(eq(simTransfers.id, transferId)).get())!);
  }
}
