import { z } from '@hono/zod-openapi';
import { zQueryBool } from '../../lib/openapi';
import { INDUSTRIES } from './catalog';

const code = () => z.string().trim().min(1).max(64);
const id = () => z.string().trim().min(1).max(128);

export const CatalogQuery = z.object({
  industry: z.enum(INDUSTRIES).default('marine'),
  locationId: id().optional(),
  includeInactive: zQueryBool(),
});
export const BundleQuery = z.object({ industry: z.enum(INDUSTRIES).default('marine'), locationId: id().optional() });
export const PlanParams = z.object({ planCode: code() });
export const BundleParams = z.object({ bundleCode: code() });
export const LocationParams = z.object({ locationId: id() });
export const LocationPlanParams = z.object({ locationId: id(), planCode: code() });
export const LocationBundleParams = z.object({ locationId: id(), bundleCode: code() });

const Override = z
  .object({
    percentage: z.number().min(0).max(100).optional(),
    maxCap: z.number().min(0).max(1_000_000).optional().openapi({ description: 'Dollars' }),
  })
  .strict();

export const SettingsBody = z
  .object({
    industry: z.enum(INDUSTRIES).optional(),
    enabledPlanCodes: z.array(code()).max(100).optional(),
    enabledBundleCodes: z.array(code()).max(100).optional(),
    planOverrides: z.record(code(), Override).optional(),
  })
  .openapi('ProtectionSettingsUpdate');
export const OverrideBody = Override.openapi('ProtectionPlanOverride');

export const PurchaseParams = z.object({ rentalId: id() });
export const PurchaseBody = z
  .object({
    planId: code().openapi({ description: 'The plan code' }),
    planName: z.string().trim().min(1).max(200),
    calculatedCost: z
      .number()
      .finite()
      .nonnegative()
      .max(1_000_000)
      .openapi({ description: "Dollars: the client's premium; must match the server's within a cent" }),
    percentage: z.number().optional(),
    minimum: z.number().optional(),
    price: z.number().optional(),
    bookingTotal: z.number().optional(),
  })
  .openapi('ProtectionPlanPurchase');

export const Plan = z
  .object({
    planCode: z.string(),
    industry: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    percentage: z.number(),
    minimum: z.number().openapi({ description: 'Dollars' }),
    maxCap: z.number().nullable().openapi({ description: 'Dollars' }),
    coverage: z.record(z.string(), z.unknown()),
    active: z.boolean(),
    enabled: z.boolean().openapi({ description: 'Offered at the location asked for (every active plan without one)' }),
    overridden: z.boolean(),
  })
  .openapi('ProtectionPlan');
export const Bundle = z
  .object({
    bundleCode: z.string(),
    industry: z.string(),
    name: z.string(),
    description: z.string(),
    planCodes: z.array(z.string()),
    discountPercentage: z.number(),
    active: z.boolean(),
    enabled: z.boolean(),
    plans: z.array(Plan).optional(),
  })
  .openapi('ProtectionBundle');
export const PlanList = z.object({ industry: z.string(), locationId: z.string().nullable(), data: z.array(Plan) }).openapi('ProtectionPlanList');
export const BundleList = z.object({ industry: z.string(), locationId: z.string().nullable(), data: z.array(Bundle) }).openapi('ProtectionBundleList');
export const Settings = z
  .object({
    locationId: z.string(),
    industry: z.string(),
    enabledPlanCodes: z.array(z.string()),
    enabledBundleCodes: z.array(z.string()),
    planOverrides: z.record(z.string(), z.object({ percentage: z.number().optional(), maxCap: z.number().optional() })),
    isDefault: z.boolean().openapi({ description: 'true when the location has no settings of its own and these are the defaults' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('ProtectionSettings');
export const PurchaseOut = z
  .object({
    purchaseId: z.string(),
    rentalId: z.string(),
    planCode: z.string(),
    planName: z.string(),
    premium: z.number().openapi({ description: 'Dollars' }),
    currency: z.string(),
    paymentIntentId: z.string().nullable(),
    charged: z.boolean().openapi({ description: 'false when the plan was bought before (nothing charged again)' }),
    booking: z.object({ total: z.number(), amountPaid: z.number(), balanceDue: z.number() }),
  })
  .openapi('ProtectionPlanPurchased');
