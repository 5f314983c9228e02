import { z } from '@hono/zod-openapi';
import { zId, zQueryBool } from '../../lib/openapi';
import { MEMBER_TYPES } from './types';
import { cents, zCustomerId, zText } from './schemas-fields';

// ------------------------------------------------------------------------------------------------
// Tiers

export const TierPricing = z
  .object({
    monthly: cents().nullable().optional().openapi({ description: 'Cents per month (null: no monthly cycle)' }),
    yearly: cents().nullable().optional().openapi({ description: 'Cents per year (null: no yearly cycle)' }),
    currency: z.string().trim().length(3).toLowerCase().optional().openapi({ description: 'Default usd' }),
  })
  .openapi('MembershipTierPricing');

export const TierBenefits = z
  .object({
    discountPercentage: z.number().min(0).max(100).optional().openapi({ description: 'Percent off the pre-tax price of bookings (its own pricing line)' }),
    creditsPerPeriod: cents(10_000_000).optional().openapi({ description: 'Credits (cents) granted with every paid period' }),
    perks: z.array(zText(200)).max(50).optional().openapi({ description: 'Other benefits, shown as text' }),
  })
  .openapi('MembershipTierBenefits');

export const PausePolicy = z
  .object({
    enabled: z.boolean().optional(),
    maxPausesPerYear: z.number().int().min(0).max(52).optional().openapi({ description: 'Pauses started in the last 365 days (default 1)' }),
    maxPauseDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .optional()
      .openapi({ description: 'Longest pause; also the default length when no `resumeAt` is given (default 90)' }),
  })
  .openapi('MembershipPausePolicy');

export const FamilyOptions = z
  .object({
    enabled: z.boolean().optional(),
    maxMembers: z.number().int().min(1).max(50).optional().openapi({ description: 'Family members besides the primary member (default 4)' }),
  })
  .openapi('MembershipFamilyOptions');

const tierFields = {
  name: zText(200).min(1),
  description: zText(4000).optional(),
  scope: z.enum(['all_locations', 'selected_locations']).optional().openapi({ description: 'Where the benefits apply (default all_locations)' }),
  locationIds: z.array(zId('loc_01J0000000000000000000000')).max(200).optional(),
  pricing: TierPricing.optional(),
  benefits: TierBenefits.optional(),
  pausePolicy: PausePolicy.optional(),
  familyOptions: FamilyOptions.optional(),
  allowedMemberTypes: z.array(z.enum(MEMBER_TYPES)).min(1).max(3).optional().openapi({ description: 'Default ["individual"]' }),
  displayOrder: z.number().int().min(0).max(100_000).optional(),
  isActive: z.boolean().optional(),
  isPublic: z.boolean().optional().openapi({ description: 'Offered for public enrollment from the booking widget (default false)' }),
};

export const CreateTierBody = z.object({ customerId: zCustomerId(), ...tierFields }).openapi('CreateMembershipTier');
export const UpdateTierBody = z.object({ customerId: zCustomerId(), ...tierFields, name: tierFields.name.optional() }).openapi('UpdateMembershipTier');
export const ListTiersQuery = z.object({ customerId: zCustomerId(), activeOnly: zQueryBool() });

export const Tier = z
  .object({
    tierId: z.string(),
    customerId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    scope: z.enum(['all_locations', 'selected_locations']),
    locationIds: z.array(z.string()),
    pricing: z.object({ monthly: z.number().nullable(), yearly: z.number().nullable(), currency: z.string() }),
    benefits: z.object({ discountPercentage: z.number(), creditsPerPeriod: z.number(), perks: z.array(z.string()) }),
    pausePolicy: z.object({ enabled: z.boolean(), maxPausesPerYear: z.number(), maxPauseDays: z.number() }),
    familyOptions: z.object({ enabled: z.boolean(), maxMembers: z.number() }),
    allowedMemberTypes: z.array(z.string()),
    displayOrder: z.number(),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MembershipTier');

export const TierList = z.object({ data: z.array(Tier) }).openapi('MembershipTierList');
export const TierDeleted = z.object({ tierId: z.string(), deleted: z.boolean() }).openapi('MembershipTierDeleted');
