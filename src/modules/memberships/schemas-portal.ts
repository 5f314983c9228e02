import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zOffset } from '../../lib/openapi';
import { BILLING_CYCLES } from './types';
import { zCustomerId, zDateOrInstant, zPhone, zText } from './schemas-fields';
import { Tier } from './schemas-tiers';
import { Membership } from './schemas-memberships';
import { Invoice } from './schemas-billing';

// ------------------------------------------------------------------------------------------------
// Public enrollment and member portal

export const PortalPageQuery = z.object({
  customer: z.string().max(128).optional().openapi({ description: 'The operator (`cus_...`): its name, logo and colour, and where a new link is asked' }),
  token: z.string().max(200).optional().openapi({ description: 'A sign-in link token (`mpl_...`), exchanged once by the page' }),
});
export const PublicTiersQuery = z.object({ customerId: zCustomerId() });
export const PublicTier = Tier.pick({
  tierId: true,
  name: true,
  description: true,
  pricing: true,
  benefits: true,
  familyOptions: true,
  displayOrder: true,
}).openapi('PublicMembershipTier');
export const PublicTierList = z.object({ data: z.array(PublicTier) }).openapi('PublicMembershipTierList');

export const EnrollBody = z
  .object({
    customerId: zCustomerId(),
    tierId: zId('mtr_01J0000000000000000000000'),
    billingCycle: z.enum(BILLING_CYCLES).optional(),
    firstName: zText(100).min(1),
    lastName: zText(100).min(1),
    email: zEmail(),
    phone: zPhone().optional(),
    paymentMethodId: zText(255).min(1).openapi({ example: 'pm_card_visa' }),
  })
  .openapi('PublicMembershipEnrollment');

export const PortalMembership = Membership.pick({
  membershipId: true,
  customerId: true,
  tierId: true,
  memberEmail: true,
  memberName: true,
  billingCycle: true,
  price: true,
  currency: true,
  status: true,
  cancelAtPeriodEnd: true,
  currentPeriodStart: true,
  currentPeriodEnd: true,
  nextBillingDate: true,
  pausedAt: true,
  resumeAt: true,
  creditBalance: true,
  familyMembers: true,
})
  .extend({
    tierName: z.string().nullable(),
    benefits: Tier.shape.benefits.nullable().openapi({ description: "The tier's benefits: booking discount, credits a period, perks" }),
    pausePolicy: z.object({ enabled: z.boolean(), maxPausesPerYear: z.number(), maxPauseDays: z.number() }).nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  })
  .openapi('PortalMembership');

export const EnrollResult = z
  .object({ membership: PortalMembership, portalLinkSent: z.boolean(), customerCreated: z.boolean() })
  .openapi('PublicMembershipEnrolled');

export const PortalLinkBody = z.object({ customerId: zCustomerId(), email: zEmail() }).openapi('MemberPortalLinkRequest');
export const PortalLinkResult = z.object({ sent: z.boolean(), message: z.string() }).openapi('MemberPortalLinkSent');
export const PortalSessionBody = z.object({ token: zText(200).min(10) }).openapi('MemberPortalSessionRequest');
export const PortalSession = z.object({ sessionToken: z.string(), expiresAt: z.string(), membership: PortalMembership }).openapi('MemberPortalSession');

export const PortalSignedOut = z.object({ signedOut: z.literal(true) }).openapi('MemberPortalSignedOut');

export const PortalPauseBody = z
  .object({ resumeAt: zDateOrInstant().optional(), force: z.boolean().optional().openapi({ description: 'Not for members: true answers 403' }) })
  .openapi('PortalPause');
export const PortalCancelBody = z.object({ reason: zText(1000).optional() }).openapi('PortalCancel');
export const PortalCardBody = z.object({ paymentMethodId: zText(255).min(1) }).openapi('PortalCard');
export const PortalInvoicesQuery = z.object({ limit: zLimit(100, 24), offset: zOffset() });
export const PortalInvoices = z.object({ data: z.array(Invoice), total: z.number(), limit: z.number(), offset: z.number() }).openapi('PortalInvoices');
export const PortalCardResult = z
  .object({
    membership: PortalMembership,
    card: z.object({ brand: z.string(), last4: z.string() }),
    payment: z
      .object({ status: z.string(), invoiceId: z.string().optional(), declineCode: z.string().optional() })
      .openapi({ description: '`none` (nothing was due), `paid`, `declined` or `not_attempted` for an unpaid renewal charged with the new card' }),
  })
  .openapi('PortalCardResult');
