import type { z } from '@hono/zod-openapi';
import type { customers } from '../../db/schema/accounts';
import type { Subscription as ProviderSubscription } from '../../adapters/payments';
import type { Customer, Subscription } from './schemas';

export type CustomerRow = typeof customers.$inferSelect;

/** The operator account as the API answers it (`Customer`). */
export function customerOut(c: CustomerRow): z.output<typeof Customer> {
  return {
    customerId: c.id,
    name: c.name,
    email: c.email,
    business_name: c.businessName,
    affiliateCode: c.affiliateCode,
    permissions: c.permissions ?? {},
    integrations: c.integrations ?? {},
    plan: c.plan,
    paymentCustomerId: c.paymentCustomerId,
    subscriptionId: c.subscriptionId,
    isSandbox: c.isSandbox,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** The provider's subscription as the API answers it (`Subscription`; the provider's customer id left out). */
export function subscriptionOut(s: ProviderSubscription): z.output<typeof Subscription> {
  return {
    id: s.id,
    plan: s.plan,
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    currentPeriodStart: s.currentPeriodStart,
    currentPeriodEnd: s.currentPeriodEnd,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt,
  };
}
