import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, timestamps } from './_columns';

/**
 * State of the offline payment simulator (used when no STRIPE_SECRET_KEY is configured).
 * Shapes mirror the provider's objects closely enough that callers cannot tell the difference.
 */
export const simCustomers = sqliteTable('sim_customers', {
  id: text('id').primaryKey(),
  email: text('email'),
  name: text('name'),
  metadata: json<Record<string, string>>('metadata'),
  defaultPaymentMethodId: text('default_payment_method_id'),
  deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
  ...timestamps(),
});

export const simPaymentMethods = sqliteTable(
  'sim_payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id'),
    type: text('type').notNull().default('card'),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** Behaviour of the test token: succeeds, declines, or requires authentication. */
    behavior: text('behavior', { enum: ['success', 'decline', 'authentication_required'] }).notNull(),
    ...timestamps(),
  },
  (t) => [index('sim_pm_customer_idx').on(t.customerId)],
);

export const simSetupIntents = sqliteTable('sim_setup_intents', {
  id: text('id').primaryKey(),
  customerId: text('customer_id'),
  clientSecret: text('client_secret').notNull(),
  status: text('status').notNull(),
  ...timestamps(),
});

export const simSubscriptions = sqliteTable('sim_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  plan: text('plan').notNull(),
  status: text('status').notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull().default('usd'),
  currentPeriodStart: text('current_period_start').notNull(),
  currentPeriodEnd: text('current_period_end').notNull(),
  cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
  canceledAt: text('canceled_at'),
  /** Units billed (per-unit plans such as the slip subscription; 1 for the platform plans). */
  quantity: integer('quantity').notNull().default(1),
  ...timestamps(),
});

/** Hosted checkout sessions of the simulator (completed at once, as if paid with the test card). */
export const simCheckoutSessions = sqliteTable('sim_checkout_sessions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  mode: text('mode').notNull(),
  plan: text('plan').notNull(),
  quantity: integer('quantity').notNull().default(1),
  status: text('status').notNull(),
  url: text('url').notNull(),
  subscriptionId: text('subscription_id'),
  metadata: json<Record<string, string>>('metadata'),
  ...timestamps(),
});

export const simPaymentIntents = sqliteTable(
  'sim_payment_intents',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id'),
    paymentMethodId: text('payment_method_id'),
    amount: integer('amount').notNull(),
    amountCapturable: integer('amount_capturable').notNull().default(0),
    amountReceived: integer('amount_received').notNull().default(0),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    captureMethod: text('capture_method', { enum: ['automatic', 'manual'] })
      .notNull()
      .default('automatic'),
    status: text('status').notNull(),
    description: text('description'),
    metadata: json<Record<string, string>>('metadata'),
    clientSecret: text('client_secret').notNull(),
    lastError: text('last_error'),
    applicationFeeAmount: integer('application_fee_amount'),
    transferDestination: text('transfer_destination'),
    ...timestamps(),
  },
  (t) => [index('sim_pi_customer_idx').on(t.customerId)],
);

/** Simulated connected accounts (operators' merchant accounts); `region` is the platform account (US or CA) that created them. */
export const simAccounts = sqliteTable('sim_accounts', {
  id: text('id').primaryKey(),
  type: text('type').notNull().default('express'),
  country: text('country').notNull(),
  email: text('email'),
  region: text('region').notNull().default('US'),
  detailsSubmitted: integer('details_submitted', { mode: 'boolean' }).notNull().default(false),
  metadata: json<Record<string, string>>('metadata'),
  ...timestamps(),
});

export const simRefunds = sqliteTable('sim_refunds', {
  id: text('id').primaryKey(),
  paymentIntentId: text('payment_intent_id').notNull(),
  amount: integer('amount').notNull(),
  status: text('status').notNull(),
  reason: text('reason'),
  ...timestamps(),
});

/** Simulated transfers to connected accounts and their reversals. */
export const simTransfers = sqliteTable('sim_transfers', {
  id: text('id').primaryKey(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  destination: text('destination').notNull(),
  amountReversed: integer('amount_reversed').notNull().default(0),
  transferGroup: text('transfer_group'),
  metadata: json<Record<string, string>>('metadata'),
  ...timestamps(),
});
