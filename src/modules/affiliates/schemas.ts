import { z } from '@hono/zod-openapi';
import { zEmail } from '../../lib/openapi';

const zCustomerId = () =>
  z.string().trim().min(1).max(128).openapi({ example: 'cus_demo_marina', description: "The caller's operator id (another operator's answers 403)" });
export const zAffiliateId = () =>
  z
    .string()
    .trim()
    .min(3)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .openapi({ example: 'SUNNY-DAYS' });
const dollars = () => z.number().positive().max(10_000_000).openapi({ description: 'Dollars' });
const percent = () => z.number().min(0).max(100);

export const Affiliate = z
  .object({
    affiliateId: z.string().openapi({ description: 'The ID referral links (`refAffiliate`) and promo codes name' }),
    customerId: z.string(),
    name: z.string(),
    email: z.string(),
    percentageEarned: z.number(),
    customAffiliateId: z.string().nullable(),
    commissionTotal: z.number().openapi({ description: 'Dollars earned: bookings (cancelled ones reversed), code uses, manual commissions' }),
    paidOut: z.number().openapi({ description: 'Dollars paid to the affiliate' }),
    balanceDue: z.number().openapi({ description: 'commissionTotal - paidOut, dollars' }),
    recalculatedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Affiliate');

export const AvailabilityQuery = z.object({ affiliateId: zAffiliateId() });
export const Availability = z.object({ affiliateId: z.string(), available: z.boolean() }).openapi('AffiliateIdAvailability');

export const CreateBody = z
  .object({
    customerId: zCustomerId(),
    name: z.string().trim().min(1).max(200),
    email: zEmail(),
    percentageEarned: percent().optional().openapi({ description: 'Commission rate in percent (default 0)' }),
    customAffiliateId: zAffiliateId().optional().openapi({ description: 'The ID to use (409 when taken); default a generated aff_... ID' }),
  })
  .openapi('CreateAffiliate');

export const ListQuery = z.object({ customerId: zCustomerId() });
export const AffiliateList = z.object({ data: z.array(Affiliate) }).openapi('AffiliateList');

export const DeleteQuery = z.object({ affiliateId: zAffiliateId(), customerId: zCustomerId().optional() });
export const Deleted = z.object({ affiliateId: z.string(), deleted: z.boolean() }).openapi('AffiliateDeleted');

export const ACTIONS = ['addPayout', 'editPercentage', 'addACommission'] as const;
export const PatchQuery = z.object({ action: z.enum(ACTIONS) });
export const PatchBody = z
  .object({
    affiliateId: zAffiliateId(),
    customerId: zCustomerId().optional(),
    paidOut: dollars().optional().openapi({ description: 'addPayout: dollars paid to the affiliate' }),
    percentageEarned: percent().optional().openapi({ description: 'editPercentage: the new rate (applies to what is earned from now on)' }),
    totalAmount: dollars().optional().openapi({ description: 'addACommission: dollars of commission to add' }),
    note: z.string().trim().max(500).optional(),
  })
  .openapi('UpdateAffiliate');

export const RecalcBody = z
  .object({ customerId: zCustomerId(), affiliateId: zAffiliateId().optional().openapi({ description: 'One affiliate (default: all of the operator)' }) })
  .openapi('RecalculateAffiliates');
export const RecalcResult = z
  .object({
    data: z.array(
      Affiliate.extend({
        bookings: z.number().openapi({ description: 'Attributed rentals counted' }),
        excludedBookings: z.number().openapi({ description: 'Attributed rentals not counted (cancelled)' }),
      }),
    ),
    recalculatedAt: z.string(),
  })
  .openapi('AffiliateRecalculation');
