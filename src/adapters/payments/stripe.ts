import Stripe from 'stripe';
import {
  PaymentError,
  type CheckoutSession,
  type ConnectedAccount,
  type CreateIntentInput,
  type PaymentIntent,
  type PaymentMethod,
  type PaymentsPort,
  type Subscription,
  type UnitPlan,
  type Transfer,
} from './types';

const PRICE_LOOKUP: Record<'standard' | 'enterprise', string> = { standard: 'berth_standard_monthly', enterprise: 'berth_enterprise_monthly' };
/** Per-unit prices, found by lookup key (create them once in the provider's dashboard: 10 dollars per slip per month). */
const UNIT_PRICE_LOOKUP: Record<UnitPlan, string> = { marina_slip: 'berth_marina_slip_monthly' };

const checkoutOut = (cs: Stripe.Checkout.Session, quantity: number): CheckoutSession => ({
  id: cs.id,
  url: cs.url ?? '',
  status: (cs.status ?? 'open') as CheckoutSession['status'],
  customerId: typeof cs.customer === 'string' ? cs.customer : (cs.customer?.id ?? ''),
  quantity,
  subscriptionId: typeof cs.subscription === 'string' ? cs.subscription : (cs.subscription?.id ?? null),
});

const pmOut = (pm: Stripe.PaymentMethod, defaultId?: string | null): PaymentMethod => ({
  id: pm.id,
  type: pm.type,
  brand: pm.card?.brand ?? pm.type,
  last4: pm.card?.last4 ?? '',
  expMonth: pm.card?.exp_month ?? 0,
  expYear: pm.card?.exp_year ?? 0,
  customerId: typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null),
  isDefault: defaultId ? pm.id === defaultId : undefined,
});

const piOut = (pi: Stripe.PaymentIntent): PaymentIntent => ({
  id: pi.id,
  status: pi.status as PaymentIntent['status'],
  amount: pi.amount,
  amountCapturable: pi.amount_capturable,
  amountReceived: pi.amount_received,
  amountRefunded: 0,
  currency: pi.currency,
  customerId: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null),
  paymentMethodId: typeof pi.payment_method === 'string' ? pi.payment_method : (pi.payment_method?.id ?? null),
  captureMethod: pi.capture_method === 'manual' ? 'manual' : 'automatic',
  clientSecret: pi.client_secret ?? '',
  description: pi.description,
  metadata: pi.metadata ?? {},
  lastError: pi.last_payment_error?.code ?? null,
  createdAt: new Date(pi.created * 1000).toISOString(),
  applicationFeeAmount: pi.application_fee_amount ?? null,
  transferDestination: typeof pi.transfer_data?.destination === 'string' ? pi.transfer_data.destination : (pi.transfer_data?.destination?.id ?? null),
});

const transferOut = (t: Stripe.Transfer): Transfer => ({
  id: t.id,
  amount: t.amount,
  currency: t.currency,
  destination: typeof t.destination === 'string' ? t.destination : (t.destination?.id ?? ''),
  amountReversed: t.amount_reversed,
  reversed: t.reversed,
  transferGroup: t.transfer_group ?? null,
  createdAt: new Date(t.created * 1000).toISOString(),
});

const accountOut = (a: Stripe.Account): ConnectedAccount => ({
  id: a.id,
  type: (a.type as ConnectedAccount['type']) ?? 'express',
  country: a.country ?? '',
  email: a.email ?? null,
  chargesEnabled: a.charges_enabled ?? false,
  payoutsEnabled: a.payouts_enabled ?? false,
  detailsSubmitted: a.details_submitted ?? false,
  createdAt: new Date((a.created ?? 0) * 1000).toISOString(),
});

const subOut = (s: Stripe.Subscription): Subscription => {
  const item = s.items.data[0];
  return {
    id: s.id,
    customerId: typeof s.customer === 'string' ? s.customer : s.customer.id,
    plan: (item?.price.lookup_key ?? '').includes('enterprise') ? 'enterprise' : 'standard',
    status: s.status,
    amount: item?.price.unit_amount ?? 0,
    currency: s.currency,
    currentPeriodStart: new Date((item?.current_period_start ?? s.start_date) * 1000).toISOString(),
    currentPeriodEnd: new Date((item?.current_period_end ?? s.start_date) * 1000).toISOString(),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    canceledAt: s.canceled_at ? new Date(s.canceled_at * 1000).toISOString() : null,
    quantity: item?.quantity ?? 1,
  };
};

function rethrow(err: unknown): never {
  if (err instanceof Stripe.errors.StripeCardError) {
    throw new PaymentError(err.code === 'authentication_required' ? 'authentication_required' : 'card_declined', err.message);
  }
  if (err instanceof Stripe.errors.StripeInvalidRequestError) throw new PaymentError('invalid_payment_method', err.message);
  throw new PaymentError('provider_error', (err as Error).message);
}

/** The payment provider through its official SDK and the Workers fetch client. */
export class StripePayments implements PaymentsPort {
  readonly mode = 'stripe' as const;
  private readonly stripe: Stripe;
  constructor(secretKey: string) {
    this.stripe = new Stripe(secretKey, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 2 });
  }

  async createCustomer(input: { email?: string | null; name?: string | null; metadata?: Record<string, string> }) {
    try {
      const c = await this.stripe.customers.create({ email: input.email ?? undefined, name: input.name ?? undefined, metadata: input.metadata });
      return { id: c.id };
    } catch (e) {
      rethrow(e);
    }
  }
  async deleteCustomer(id: string) {
    try {
      await this.stripe.customers.del(id);
    } catch (e) {
      rethrow(e);
    }
  }
  async attachPaymentMethod(customerId: string, paymentMethodId: string, opts: { makeDefault?: boolean } = {}) {
    try {
      const pm = await this.stripe.paymentMethods.attach(paymentMethodId, { customer: customerId });
      if (opts.makeDefault ?? true) await this.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
      return pmOut(pm, (opts.makeDefault ?? true) ? pm.id : null);
    } catch (e) {
      rethrow(e);
    }
  }
  async listPaymentMethods(customerId: string) {
    try {
      const [list, cust] = await Promise.all([
        this.stripe.paymentMethods.list({ customer: customerId, limit: 100 }),
        this.stripe.customers.retrieve(customerId),
      ]);
      const def = 'deleted' in cust ? null : (cust.invoice_settings?.default_payment_method as string | null);
      return list.data.map((pm) => pmOut(pm, def));
    } catch (e) {
      rethrow(e);
    }
  }
  async createSetupIntent(customerId: string) {
    try {
      const si = await this.stripe.setupIntents.create({ customer: customerId, usage: 'off_session' });
      return { id: si.id, clientSecret: si.client_secret ?? '', status: si.status };
    } catch (e) {
      rethrow(e);
    }
  }
  async createSubscription(customerId: string, plan: 'standard' | 'enterprise', opts: { trialDays?: number } = {}) {
    try {
      const prices = await this.stripe.prices.list({ lookup_keys: [PRICE_LOOKUP[plan]], limit: 1 });
      if (!prices.data[0]) throw new PaymentError('provider_error', `No price with lookup key ${PRICE_LOOKUP[plan]}`);
      const s = await this.stripe.subscriptions.create({ customer: customerId, items: [{ price: prices.data[0].id }], trial_period_days: opts.trialDays });
      return subOut(s);
    } catch (e) {
      if (e instanceof PaymentError) throw e;
      rethrow(e);
    }
  }
  async getSubscription(id: string) {
    try {
      return subOut(await this.stripe.subscriptions.retrieve(id));
    } catch {
      return null;
    }
  }
  async updateSubscription(id: string, change: { cancelAtPeriodEnd?: boolean; plan?: 'standard' | 'enterprise' }) {
    try {
      const params: Stripe.SubscriptionUpdateParams = {};
      if (change.cancelAtPeriodEnd !== undefined) params.cancel_at_period_end = change.cancelAtPeriodEnd;
      if (change.plan) {
        const current = await this.stripe.subscriptions.retrieve(id);
        const prices = await this.stripe.prices.list({ lookup_keys: [PRICE_LOOKUP[change.plan]], limit: 1 });
        params.items = [{ id: current.items.data[0].id, price: prices.data[0].id }];
        params.proration_behavior = 'create_prorations';
      }
      return subOut(await this.stripe.subscriptions.update(id, params));
    } catch (e) {
      rethrow(e);
    }
  }
  async createPaymentIntent(input: CreateIntentInput) {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency ?? 'usd',
          customer: input.customerId ?? undefined,
          payment_method: input.paymentMethodId ?? undefined,
          capture_method: input.captureMethod ?? 'automatic',
          confirm: input.confirm && Boolean(input.paymentMethodId),
          // A card saved for later is confirmed with the cardholder present (the two flags exclude each other).
          off_session: input.confirm && Boolean(input.customerId) && !input.setupFutureUsage ? true : undefined,
          setup_future_usage: input.setupFutureUsage,
          ...(input.paymentMethodTypes ? ({ payment_method_types: input.paymentMethodTypes } as object) : {}),
          description: input.description,
          metadata: input.metadata,
          ...(input.applicationFeeAmount != null ? { application_fee_amount: input.applicationFeeAmount } : {}),
          ...(input.transferDestination ? { transfer_data: { destination: input.transferDestination } } : {}),
        },
        {
          ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
          ...(input.onBehalfOfAccount ? { stripeAccount: input.onBehalfOfAccount } : {}),
        },
      );
      if (input.confirm && pi.status === 'requires_action')
        throw new PaymentError('authentication_required', 'This payment requires authentication.', piOut(pi));
      return piOut(pi);
    } catch (e) {
      if (e instanceof PaymentError) throw e;
      rethrow(e);
    }
  }
  async getPaymentIntent(id: string) {
    try {
      return piOut(await this.stripe.paymentIntents.retrieve(id));
    } catch {
      return null;
    }
  }
  async confirmPaymentIntent(id: string, paymentMethodId?: string) {
    try {
      return piOut(await this.stripe.paymentIntents.confirm(id, paymentMethodId ? { payment_method: paymentMethodId } : {}));
    } catch (e) {
      rethrow(e);
    }
  }
  async capturePaymentIntent(id: string, amountToCapture?: number) {
    try {
      return piOut(await this.stripe.paymentIntents.capture(id, amountToCapture ? { amount_to_capture: amountToCapture } : {}));
    } catch (e) {
      rethrow(e);
    }
  }
  async cancelPaymentIntent(id: string) {
    try {
      return piOut(await this.stripe.paymentIntents.cancel(id));
    } catch (e) {
      rethrow(e);
    }
  }
  async refund(paymentIntentId: string, amount?: number, reason?: string) {
    try {
      const r = await this.stripe.refunds.create({ payment_intent: paymentIntentId, amount, metadata: reason ? { reason } : undefined });
      return { id: r.id, paymentIntentId, amount: r.amount, status: r.status ?? 'pending' };
    } catch (e) {
      rethrow(e);
    }
  }
  async createConnectionToken(locationId?: string) {
    try {
      const t = await this.stripe.terminal.connectionTokens.create(locationId ? { location: locationId } : {});
      return { secret: t.secret };
    } catch (e) {
      rethrow(e);
    }
  }
  async createSubscriptionCheckout(input: {
    customerId: string;
    plan: UnitPlan;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata?: Record<string, string>;
  }) {
    try {
      const prices = await this.stripe.prices.list({ lookup_keys: [UNIT_PRICE_LOOKUP[input.plan]], limit: 1 });
      if (!prices.data[0]) throw new PaymentError('provider_error', `No price with lookup key ${UNIT_PRICE_LOOKUP[input.plan]}`);
      const cs = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        line_items: [{ price: prices.data[0].id, quantity: input.quantity }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
        subscription_data: input.metadata ? { metadata: input.metadata } : undefined,
      });
      return checkoutOut(cs, input.quantity);
    } catch (e) {
      if (e instanceof PaymentError) throw e;
      rethrow(e);
    }
  }
  async getCheckoutSession(id: string) {
    try {
      const cs = await this.stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
      return checkoutOut(cs, cs.line_items?.data[0]?.quantity ?? 1);
    } catch {
      return null;
    }
  }
  async setSubscriptionQuantity(subscriptionId: string, quantity: number) {
    try {
      const current = await this.stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      return subOut(await this.stripe.subscriptions.update(subscriptionId, { items: [{ id: item.id, quantity }], proration_behavior: 'create_prorations' }));
    } catch (e) {
      rethrow(e);
    }
  }
  async createBillingPortalSession(customerId: string, returnUrl: string) {
    try {
      const ps = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { id: ps.id, url: ps.url };
    } catch (e) {
      rethrow(e);
    }
  }
  async createAccount(input: { country?: string; email?: string | null; type?: 'express' | 'standard'; metadata?: Record<string, string> }) {
    try {
      return accountOut(
        await this.stripe.accounts.create({ type: input.type ?? 'express', country: input.country, email: input.email ?? undefined, metadata: input.metadata }),
      );
    } catch (e) {
      rethrow(e);
    }
  }
  async getAccount(id: string) {
    try {
      return accountOut(await this.stripe.accounts.retrieve(id));
    } catch {
      return null;
    }
  }
  async createAccountLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }) {
    try {
      const l = await this.stripe.accountLinks.create({
        account: accountId,
        refresh_url: urls.refreshUrl,
        return_url: urls.returnUrl,
        type: 'account_onboarding',
      });
      return { url: l.url, expiresAt: new Date(l.expires_at * 1000).toISOString() };
    } catch (e) {
      rethrow(e);
    }
  }
  async createAccountSession(accountId: string) {
    try {
      const s = await this.stripe.accountSessions.create({
        account: accountId,
        components: { account_onboarding: { enabled: true }, payments: { enabled: true }, payouts: { enabled: true } },
      });
      return { clientSecret: s.client_secret, expiresAt: new Date(s.expires_at * 1000).toISOString() };
    } catch (e) {
      rethrow(e);
    }
  }
  async createLoginLink(accountId: string) {
    try {
      const l = await this.stripe.accounts.createLoginLink(accountId);
      return { url: l.url, expiresAt: null };
    } catch (e) {
      rethrow(e);
    }
  }
  async createTransfer(input: {
    amount: number;
    currency: string;
    destination: string;
    transferGroup?: string;
    metadata?: Record<string, string>;
    idempotencyKey?: string;
  }) {
    try {
      const t = await this.stripe.transfers.create(
        { amount: input.amount, currency: input.currency, destination: input.destination, transfer_group: input.transferGroup, metadata: input.metadata },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
      );
      return transferOut(t);
    } catch (e) {
      rethrow(e);
    }
  }
  async reverseTransfer(transferId: string, opts: { idempotencyKey?: string; metadata?: Record<string, string> } = {}) {
    try {
      const t = await this.stripe.transfers.retrieve(transferId);
      if (t.amount_reversed < t.amount)
        await this.stripe.transfers.createReversal(
          transferId,
          { metadata: opts.metadata },
          opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : undefined,
        );
      return transferOut(await this.stripe.transfers.retrieve(transferId));
    } catch (e) {
      rethrow(e);
    }
  }
}
