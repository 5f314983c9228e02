import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zPage } from '../../lib/openapi';
import { BILLING_CYCLES, MEMBER_TYPES, MEMBERSHIP_STATUSES } from './types';
import { zCustomerId, zDateOrInstant, zPhone, zText } from './schemas-fields';
import { Tier } from './schemas-tiers';

// ------------------------------------------------------------------------------------------------
// Memberships

export const FamilyMember = z
  .object({ renterId: z.string(), email: z.string(), name: z.string().nullable(), addedAt: z.string() })
  .openapi('MembershipFamilyMember');

export const Membership = z
  .object({
    membershipId: z.string(),
    customerId: z.string(),
    tierId: z.string(),
    memberType: z.enum(MEMBER_TYPES),
    memberId: z.string().nullable().openapi({ description: 'The renter (same as renterId)' }),
    renterId: z.string().nullable(),
    organizationId: z.string().nullable(),
    memberEmail: z.string(),
    memberName: z.string().nullable(),
    memberPhone: z.string().nullable(),
    billingCycle: z.enum(BILLING_CYCLES),
    price: z.number().openapi({ description: 'Cents per cycle' }),
    currency: z.string(),
    status: z.enum([...MEMBERSHIP_STATUSES, 'incomplete']),
    cancelAtPeriodEnd: z.boolean().openapi({ description: 'Scheduled for cancellation at the period end (still active until then)' }),
    canceledAt: z.string().nullable(),
    currentPeriodStart: z.string(),
    currentPeriodEnd: z.string(),
    nextBillingDate: z.string().nullable().openapi({ description: 'When the next renewal charge is due (null when canceled, paused, past due or ending)' }),
    pausedAt: z.string().nullable(),
    resumeAt: z.string().nullable(),
    dunning: z
      .object({ attempts: z.number(), nextAttemptAt: z.string().nullable(), openInvoiceId: z.string().nullable(), pastDueSince: z.string().nullable() })
      .nullable(),
    paymentMethod: z.object({ paymentMethodId: z.string() }).nullable(),
    creditBalance: z.number().openapi({ description: 'Cents' }),
    familyMembers: z.array(FamilyMember),
    staffId: z.string().nullable(),
    notes: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Membership');

export const CreatedMembership = Membership.extend({
  customerCreated: z.boolean().openapi({ description: 'A renter was created (createRenter)' }),
}).openapi('CreatedMembership');

export const MembershipDetail = Membership.extend({
  tier: Tier.nullable(),
  renter: z.object({ renterId: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable() }).nullable(),
  organization: z.object({ orgId: z.string(), name: z.string(), contactEmail: z.string() }).nullable(),
}).openapi('MembershipDetail');

export const ListMembershipsQuery = z.object({
  customerId: zCustomerId(),
  status: z.enum(MEMBERSHIP_STATUSES).optional(),
  tierId: zId().optional(),
  page: zPage(),
  limit: zLimit(100, 50),
});
export const MembershipList = z.object({ data: z.array(Membership), total: z.number(), page: z.number(), limit: z.number() }).openapi('MembershipList');

export const CreateMembershipBody = z
  .object({
    customerId: zCustomerId(),
    tierId: zId('mtr_01J0000000000000000000000'),
    memberEmail: zEmail(),
    memberType: z
      .enum(['individual', 'family'])
      .optional()
      .openapi({ description: 'Default individual (organizations use POST /memberships/organizations/{orgId}/membership)' }),
    memberId: zId('rnt_01J0000000000000000000000').optional().openapi({ description: 'The renter (alias renterId)' }),
    renterId: zId('rnt_01J0000000000000000000000').optional(),
    memberName: zText(200).optional(),
    memberPhone: zPhone().optional(),
    billingCycle: z.enum(BILLING_CYCLES).optional().openapi({ description: 'Default monthly' }),
    staffId: zText(128).optional(),
    notes: zText(4000).optional(),
    createRenter: z
      .boolean()
      .optional()
      .openapi({ description: 'Create the renter (firstName, lastName or memberName) when none has memberEmail; fires customer.created' }),
    firstName: zText(100).optional(),
    lastName: zText(100).optional(),
    paymentMethodId: zText(255)
      .min(1)
      .optional()
      .openapi({ description: "Card for the first period and renewals (a saved card or a test token such as pm_card_visa); default: the renter's saved card" }),
  })
  .openapi('CreateMembership');

export const CancelBody = z
  .object({ customerId: zCustomerId(), cancelImmediately: z.boolean().optional(), reason: zText(1000).optional() })
  .openapi('CancelMembership');
export const ReactivateBody = z
  .object({
    customerId: zCustomerId(),
    paymentMethodId: zText(255).min(1).optional().openapi({ description: 'Card for the new period (default: the card on file)' }),
  })
  .openapi('ReactivateMembership');
export const PauseBody = z
  .object({
    customerId: zCustomerId(),
    resumeAt: zDateOrInstant().optional().openapi({ description: "Automatic resume (default: after the tier's maxPauseDays)" }),
    force: z
      .boolean()
      .optional()
      .openapi({ description: 'Staff override of the pause policy (admins, managers or the membership_overrides permission; 403 otherwise)' }),
    reason: zText(1000).optional(),
  })
  .openapi('PauseMembership');

// ------------------------------------------------------------------------------------------------
// Family

export const AddFamilyBody = z
  .object({ customerId: zCustomerId(), renterId: zId('rnt_01J0000000000000000000000'), email: zEmail(), name: zText(200).optional() })
  .openapi('AddFamilyMember');
