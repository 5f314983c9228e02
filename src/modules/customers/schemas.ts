import { z } from '@hono/zod-openapi';

export const Customer = z
  .object({
    customerId: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    business_name: z.string().nullable(),
    affiliateCode: z.string().nullable(),
    permissions: z.record(z.string(), z.unknown()),
    integrations: z.record(z.string(), z.unknown()),
    plan: z.enum(['standard', 'enterprise']),
    paymentCustomerId: z.string().nullable(),
    subscriptionId: z.string().nullable(),
    isSandbox: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Customer');

export const CreateBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    email: z.string().trim().toLowerCase().email().max(254).optional(),
    business_name: z.string().trim().max(200).optional(),
    affiliateCode: z.string().trim().max(64).optional(),
    permissions: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('CreateCustomer');

export const UpdateBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.string().trim().toLowerCase().email().max(254).optional(),
    business_name: z.string().trim().max(200).optional(),
    permissions: z.record(z.string(), z.unknown()).optional(),
    integrations: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Merged into the stored integrations (nested objects merged; a null value removes a key).' }),
    plan: z
      .enum(['standard', 'enterprise'])
      .optional()
      .openapi({ description: 'Changes the subscription plan; 400 `subscription_change_failed` if the provider refuses.' }),
  })
  .openapi('UpdateCustomer');

export const PaymentMethodBody = z.object({ paymentMethodId: z.string().trim().min(1).max(255) }).openapi('AttachPaymentMethod');

export const PaymentMethod = z
  .object({
    id: z.string(),
    type: z.string(),
    brand: z.string(),
    last4: z.string(),
    expMonth: z.number(),
    expYear: z.number(),
    isDefault: z.boolean().optional(),
  })
  .openapi('PaymentMethod');

export const Subscription = z
  .object({
    id: z.string(),
    plan: z.string(),
    status: z.string(),
    amount: z.number().openapi({ description: 'Price per period in cents' }),
    currency: z.string(),
    currentPeriodStart: z.string(),
    currentPeriodEnd: z.string(),
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: z.string().nullable(),
  })
  .openapi('Subscription');
