import { z } from '@hono/zod-openapi';
import { DEPOSIT_POLICIES, HAUL_SERVICE_TYPES, RATE_TYPES } from './types';

const feet = () => z.number().finite().min(0).max(100);
const cents = () => z.number().int().min(0).max(100_000_000);
const hhmm = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm');

export const ChargeLine = z
  .object({
    name: z.string().trim().min(1).max(100),
    amountCents: cents(),
    per: z.enum(['stay', 'night', 'month', 'foot']).default('stay'),
    taxable: z.boolean().default(true),
  })
  .openapi('SlipChargeLine');

export const SlipSettings = z
  .object({
    locationId: z.string(),
    approvalRequired: z.boolean().openapi({ description: 'Public and portal bookings start `pending` until staff confirm them.' }),
    deposit: z.object({
      policy: z.enum(DEPOSIT_POLICIES),
      amountCents: z.number().int(),
      percent: z.number(),
    }),
    requiredDocuments: z.array(z.string()),
    checkInTime: z.string(),
    checkOutTime: z.string(),
    clearances: z.object({ overhangAllowanceFt: z.number(), sideClearanceFt: z.number(), underKeelClearanceFt: z.number() }),
    billHoldHours: z.number().int(),
    rates: z.object({
      nightlyPerFootCents: z.number().int(),
      monthlyPerFootCents: z.number().int(),
      seasonalPerFootCents: z.number().int(),
      annualPerFootCents: z.number().int(),
    }),
    taxRatePercent: z.number(),
    fees: z.array(ChargeLine),
    utilities: z.array(ChargeLine),
    defaultContractTemplateId: z.string().nullable(),
    cancellationPolicy: z.string().nullable(),
    waitlistOfferHoldHours: z.number().int().openapi({ description: 'How long a waitlist offer holds the unit (hours).' }),
    dailyLiftCapacity: z.number().int().openapi({ description: 'Lift operations per local day for haul services; 0 = lift out of service.' }),
    utilityRates: z.object({ electricityPerKwhCents: z.number(), waterPerGallonCents: z.number(), taxable: z.boolean() }),
    haulRates: z.object(Object.fromEntries(HAUL_SERVICE_TYPES.map((t) => [t, z.number().int()])) as Record<(typeof HAUL_SERVICE_TYPES)[number], z.ZodNumber>),
    publicBookingEnabled: z.boolean(),
    publicRateTypes: z.array(z.enum(RATE_TYPES)),
    portalUrl: z.string().nullable(),
    isCustomized: z.boolean().openapi({ description: 'false while the location runs on the defaults.' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('SlipSettings');

export const LocationParams = z.object({ locationId: z.string().min(1).max(128) });

export const UpdateSettingsBody = z
  .object({
    approvalRequired: z.boolean(),
    deposit: z
      .object({ policy: z.enum(DEPOSIT_POLICIES), amountCents: cents(), percent: z.number().min(0).max(100) })
      .partial()
      .strict(),
    requiredDocuments: z.array(z.string().trim().min(1).max(60)).max(20),
    checkInTime: hhmm(),
    checkOutTime: hhmm(),
    clearances: z.object({ overhangAllowanceFt: feet(), sideClearanceFt: feet(), underKeelClearanceFt: feet() }).partial().strict(),
    billHoldHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30),
    rates: z
      .object({ nightlyPerFootCents: cents(), monthlyPerFootCents: cents(), seasonalPerFootCents: cents(), annualPerFootCents: cents() })
      .partial()
      .strict(),
    taxRatePercent: z.number().min(0).max(50),
    fees: z.array(ChargeLine).max(20),
    utilities: z.array(ChargeLine).max(20),
    defaultContractTemplateId: z.string().max(128).nullable(),
    cancellationPolicy: z.string().max(5000).nullable(),
    waitlistOfferHoldHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30),
    dailyLiftCapacity: z.number().int().min(0).max(500),
    utilityRates: z
      .object({
        electricityPerKwhCents: z.number().finite().min(0).max(10_000),
        waterPerGallonCents: z.number().finite().min(0).max(10_000),
        taxable: z.boolean(),
      })
      .partial()
      .strict(),
    haulRates: z
      .object(Object.fromEntries(HAUL_SERVICE_TYPES.map((t) => [t, cents()])) as Record<(typeof HAUL_SERVICE_TYPES)[number], ReturnType<typeof cents>>)
      .partial()
      .strict(),
    publicBookingEnabled: z.boolean(),
    publicRateTypes: z.array(z.enum(RATE_TYPES)).max(4),
    portalUrl: z.string().url().max(500).nullable(),
  })
  .partial()
  .strict()
  .openapi('UpdateSlipSettings');
