/** Payment provider port. `simulator.ts` is the offline default; `stripe.ts` the real one. */
export type IntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'succeeded' | 'canceled';

export interface PaymentMethod {
  id: string;
  type: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  customerId: string | null;
  isDefault?: boolean;
}

export interface PaymentIntent {
  id: string;
  status: IntentStatus;
  amount: number;
  amountCapturable: number;
  amountReceived: number;
  amountRefunded: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  captureMethod: 'automatic' | 'manual';
  clientSecret: string;
  description: string | null;
  metadata: Record<string, string>;
  lastError: string | null;
  createdAt: string;
  /** Connected-account charges: the platform's fee (cents) and the destination account of a destination charge. */
  applicationFeeAmount?: number | null;
  transferDestination?: string | null;
}

/** A connected (merchant) account of an operator at the payment provider. */
export interface ConnectedAccount {
  id: string;
  type: 'express' | 'standard' | 'custom';
  country: string;
  email: string | null;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  createdAt: string;
}

/** A hosted onboarding link, an embedded-components session or a dashboard login link. */
export interface AccountLink {
  url: string;
  expiresAt: string | null;
}

export interface Subscription {
  id: string;
  customerId: string;
  plan: string;
  status: string;
  amount: number;
  currency: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** Units billed (the slip subscription bills per slip; 1 for the platform plans). */
  quantity?: number;
}

/** Per-unit plans billed by quantity, with their monthly price per unit in cents (spec Limits: 10 dollars per slip per month). */
export type UnitPlan = 'marina_slip';
export const UNIT_PLAN_PRICES: Record<UnitPlan, number> = { marina_slip: 1000 };

/** A hosted checkout page that starts a subscription. */
export interface CheckoutSession {
  id: string;
  url: string;
  status: 'open' | 'complete' | 'expired';
  customerId: string;
  quantity: number;
  /** The subscription it started, once complete. */
  subscriptionId: string | null;
}

/** Money moved from the platform's balance to a connected account (the coverage premium to the underwriter's payout account). */
export interface Transfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  /** Cents given back by reversals. */
  amountReversed: number;
  reversed: boolean;
  transferGroup: string | null;
  createdAt: string;
}

export interface Refund {
  id: string;
  paymentIntentId: string;
  amount: number;
  status: string;
}

export interface CreateIntentInput {
  amount: number; // cents
  currency?: string;
  customerId?: string | null;
  paymentMethodId?: string | null;
  captureMethod?: 'automatic' | 'manual';
  /** Confirm now with the given payment method (card payments); false leaves it for a terminal or client. */
  confirm?: boolean;
  paymentMethodTypes?: string[];
  description?: string;
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  /** Platform fee in cents, taken from a connected-account charge. */
  applicationFeeAmount?: number;
  /** Destination charge: the connected account that receives the funds (less the fee). */
  transferDestination?: string;
  /** Direct charge on a connected account (the request runs as that account). */
  onBehalfOfAccount?: string;
  /** Keep the card for later charges without the cardholder (memberships, installments); the provider attaches it to `customerId`. */
  setupFutureUsage?: 'off_session';
}

/** A refused payment: the caller answers 402. */
export class PaymentError extends Error {
  constructor(
    readonly code: 'card_declined' | 'authentication_required' | 'invalid_payment_method' | 'provider_error',
    message: string,
    readonly intent?: PaymentIntent,
  ) {
    super(message);
  }
}

export interface PaymentsPort {
  readonly mode: 'simulator' | 'stripe';
  createCustomer(input: { email?: string | null; name?: string | null; metadata?: Record<string, string> }): Promise<{ id: string }>;
  deleteCustomer(id: string): Promise<void>;
  attachPaymentMethod(customerId: string, paymentMethodId: string, opts?: { makeDefault?: boolean }): Promise<PaymentMethod>;
  listPaymentMethods(customerId: string): Promise<PaymentMethod[]>;
  createSetupIntent(customerId: string): Promise<{ id: string; clientSecret: string; status: string }>;
  createSubscription(customerId: string, plan: 'standard' | 'enterprise', opts?: { trialDays?: number }): Promise<Subscription>;
  getSubscription(id: string): Promise<Subscription | null>;
  updateSubscription(id: string, change: { cancelAtPeriodEnd?: boolean; plan?: 'standard' | 'enterprise' }): Promise<Subscription>;
  createPaymentIntent(input: CreateIntentInput): Promise<PaymentIntent>;
  getPaymentIntent(id: string): Promise<PaymentIntent | null>;
  /** Simulated reader or client confirmation of an intent left unconfirmed. */
  confirmPaymentIntent(id: string, paymentMethodId?: string): Promise<PaymentIntent>;
  capturePaymentIntent(id: string, amountToCapture?: number): Promise<PaymentIntent>;
  cancelPaymentIntent(id: string): Promise<PaymentIntent>;
  refund(paymentIntentId: string, amount?: number, reason?: string): Promise<Refund>;
  createConnectionToken(locationId?: string): Promise<{ secret: string }>;
  /** Hosted checkout of a per-unit subscription (the simulator completes it at once, as if paid with the test card). */
  createSubscriptionCheckout(input: {
    customerId: string;
    plan: UnitPlan;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata?: Record<string, string>;
  }): Promise<CheckoutSession>;
  getCheckoutSession(id: string): Promise<CheckoutSession | null>;
  /** Changes the billed quantity of a per-unit subscription (pro-rated by the provider). */
  setSubscriptionQuantity(subscriptionId: string, quantity: number): Promise<Subscription>;
  /** The provider's billing portal for a customer (invoices, card, cancellation). */
  createBillingPortalSession(customerId: string, returnUrl: string): Promise<{ id: string; url: string }>;
  /** Connected accounts (operators' merchant accounts): create, onboarding link, embedded session, dashboard login link. */
  createAccount(input: {
    country?: string;
    email?: string | null;
    type?: 'express' | 'standard';
    metadata?: Record<string, string>;
  }): Promise<ConnectedAccount>;
  getAccount(id: string): Promise<ConnectedAccount | null>;
  createAccountLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }): Promise<AccountLink>;
  createAccountSession(accountId: string): Promise<{ clientSecret: string; expiresAt: string }>;
  createLoginLink(accountId: string): Promise<AccountLink>;
  /** Transfers to a connected account (idempotent on `idempotencyKey`), and their full reversal (idempotent too). */
  createTransfer(input: {
    amount: number;
    currency: string;
    destination: string;
    transferGroup?: string;
    metadata?: Record<string, string>;
    idempotencyKey?: string;
  }): Promise<Transfer>;
  reverseTransfer(transferId: string, opts?: { idempotencyKey?: string; metadata?: Record<string, string> }): Promise<Transfer>;
}

export const PLAN_PRICES: Record<'standard' | 'enterprise', number> = { standard: 4900, enterprise: 29900 };

/** Currencies the API accepts (ISO 4217, lower case). */
export const CURRENCY = /^[a-z]{3}$/;
