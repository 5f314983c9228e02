import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Customers'];

export const getCustomer = route({
  method: 'get',
  path: '/customer',
  operationId: 'getCustomer',
  tags,
  summary: "The caller's operator account",
  ok: s.Customer,
  errors: [404],
  description: 'The operator account the credentials belong to: names, plan, permissions, integrations and the payment-provider ids.',
});
export const updateCustomer = route({
  method: 'patch',
  path: '/customer',
  operationId: 'updateCustomer',
  tags,
  access: 'admin',
  summary: 'Update the operator account (integrations merged)',
  body: s.UpdateBody,
  ok: s.Customer,
  errors: [404],
  description: `Changes the fields given. \`integrations\` is merged into the stored object (a null value removes a key); \`plan\` changes the
subscription at the payment provider first (400 \`subscription_change_failed\` when it refuses or the account has none). A body with nothing to
change answers 400 \`no_changes\`.`,
});
export const createCustomer = route({
  method: 'post',
  path: '/customer',
  operationId: 'createCustomer',
  tags,
  summary: 'Create an operator account for a signed-in identity',
  body: s.CreateBody,
  ok: s.Customer,
  status: 201,
  errors: [409],
  description: `Called with the bearer token of an identity that has no Berth user yet: creates the account, its payment-provider customer, a 14-day
trial subscription on the standard plan, and the caller as its admin user. 409 \`already_exists\` when the caller already belongs to an account.`,
});
export const createStripeCustomer = route({
  method: 'post',
  path: '/customer/create-stripe-customer',
  operationId: 'createStripeCustomer',
  tags,
  access: 'admin',
  summary: 'Create the payment-provider customer of the account (no-op if it exists)',
  ok: z.object({ created: z.boolean(), paymentCustomerId: z.string() }),
  errors: [404],
  description:
    "Creates the account's customer at the payment provider when it has none (`created: true`); otherwise answers the existing id with `created: false`.",
});
export const addPaymentMethod = route({
  method: 'post',
  path: '/customer/payment-method',
  operationId: 'addCustomerPaymentMethod',
  tags,
  access: 'admin',
  summary: 'Attach a payment method and make it the default',
  body: s.PaymentMethodBody,
  ok: s.PaymentMethod,
  errors: [404],
  description: `Attaches \`paymentMethodId\` (a payment-method id from the provider, or a test token such as \`pm_card_visa\`) to the account's
payment customer, created first when missing, and makes it the default for the subscription. A method the provider refuses answers 400
\`invalid_payment_method\`.`,
});
export const createSetupIntent = route({
  method: 'post',
  path: '/customer/create-setup-intent',
  operationId: 'createCustomerSetupIntent',
  tags,
  access: 'admin',
  summary: 'Start saving a card (setup intent client secret)',
  ok: z.object({ id: z.string(), clientSecret: z.string(), status: z.string() }),
  errors: [404],
  description: `A setup intent of the account's payment customer (created first when missing): the client confirms \`clientSecret\` with the
provider's SDK to save a card without charging it.`,
});
export const listPaymentMethods = route({
  method: 'get',
  path: '/customer/payment-methods',
  operationId: 'listCustomerPaymentMethods',
  tags,
  summary: 'Payment methods of the account',
  ok: z.object({ data: z.array(s.PaymentMethod) }),
  errors: [404],
  description: "The cards saved on the account's payment customer, the default one flagged `isDefault`; an empty list before any payment customer exists.",
});
export const getSubscription = route({
  method: 'get',
  path: '/customer/subscription',
  operationId: 'getSubscription',
  tags,
  summary: 'Berth subscription of the account',
  ok: s.Subscription,
  errors: [404],
  description: `The Berth subscription of the account as the payment provider reports it (plan, status, price per period in cents, current period). An
account without a subscription answers 404.`,
});
export const cancelSubscription = route({
  method: 'post',
  path: '/customer/cancel-subscription',
  operationId: 'cancelSubscription',
  tags,
  access: 'admin',
  summary: 'Cancel at the end of the billing period',
  ok: s.Subscription,
  errors: [404],
  description: `Sets the subscription to end at the end of the current period (\`cancelAtPeriodEnd: true\`); the account keeps working until then. No
subscription, or one already ended, answers 404.`,
});
export const reactivateSubscription = route({
  method: 'post',
  path: '/customer/reactivate-subscription',
  operationId: 'reactivateSubscription',
  tags,
  access: 'admin',
  summary: 'Undo a scheduled cancellation',
  ok: s.Subscription,
  errors: [404],
  description: 'Clears a scheduled cancellation (`cancelAtPeriodEnd: false`). A subscription that has already ended answers 404.',
});
