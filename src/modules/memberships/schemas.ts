import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zOffset, zPage, zQueryBool } from '../../lib/openapi';
import { BILLING_CYCLES, MEMBER_TYPES, MEMBERSHIP_STATUSES } from './types';

// ------------------------------------------------------------------------------------------------
// Shared pieces

/** Required on every call of this family (query for reads, body for writes); another operator's is 403. */
export const zCustomerId = () =>
  z.string().trim().min(1).max(128).openapi({ example: 'cus_demo_marina', description: "The caller's operator id (required; another operator's answers 403)" });

const cents = (max = 100_000_000) => z.number().int().min(0).max(max);
const zText = (max: number) => z.string().trim().max(max);
const zPhone = () =>
  z
    .string()
    .trim()
    .min(5)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number');
/** A date (YYYY-MM-DD, midnight UTC) or an ISO 8601 instant with offset. */
const zDateOrInstant = () =>
  z
    .string()
    .trim()
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))),
      'must be YYYY-MM-DD or an ISO 8601 instant',
    )
    .transform((v) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v).toISOString())
    .openapi({ example: '2026-08-01', description: 'YYYY-MM-DD (midnight UTC) or an ISO 8601 instant' });

export const CustomerQuery = z.object({ customerId: zCustomerId() });
export const CustomerBody = z.object({ customerId: zCustomerId() });
export const MembershipParams = z.object({ membershipId: zId('mbr_01J0000000000000000000000') });
export const TierParams = z.object({ tierId: zId('mtr_01J0000000000000000000000') });
export const OrgParams = z.object({ orgId: zId('org_01J0000000000000000000000') });
export const OrgMemberParams = OrgParams.extend({ renterId: zId('rnt_01J0000000000000000000000') });
export const FamilyParams = MembershipParams.extend({ renterId: zId('rnt_01J0000000000000000000000') });
export const InvoiceParams = MembershipParams.extend({ invoiceId: zId('minv_01J0000000000000000000000') });

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
// Billing

export const InvoiceLine = z
  .object({
    description: z.string(),
    kind: z.string(),
    amount: z.number().openapi({ description: 'Cents (negative: a credit)' }),
    proration: z
      .object({ days: z.number(), periodDays: z.number(), rate: z.number().openapi({ description: 'Cents per period' }), formula: z.string() })
      .optional(),
  })
  .openapi('MembershipInvoiceLine');

export const InvoicePayment = z
  .object({
    paymentId: z.string(),
    kind: z.enum(['charge', 'refund']),
    status: z.enum(['succeeded', 'failed']),
    amount: z.number(),
    paymentIntentId: z.string().nullable(),
    refundId: z.string().nullable(),
    failureCode: z.string().nullable(),
    attempt: z.number().nullable(),
    createdAt: z.string(),
  })
  .openapi('MembershipInvoicePayment');

export const Invoice = z
  .object({
    invoiceId: z.string(),
    membershipId: z.string(),
    number: z.string(),
    kind: z.string(),
    status: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    currency: z.string(),
    lines: z.array(InvoiceLine),
    total: z.number(),
    amountPaid: z.number(),
    amountRefunded: z.number(),
    attempts: z.number(),
    nextAttemptAt: z.string().nullable(),
    paidAt: z.string().nullable(),
    reason: z.string().nullable(),
    payments: z.array(InvoicePayment),
    createdAt: z.string(),
  })
  .openapi('MembershipInvoice');

export const HistoryEntry = z
  .object({ type: z.string(), details: z.record(z.string(), z.unknown()).nullable(), actor: z.string().nullable(), at: z.string() })
  .openapi('MembershipHistoryEntry');

export const InvoicesQuery = z.object({ customerId: zCustomerId(), limit: zLimit(100, 50) });
export const InvoiceList = z.object({ data: z.array(Invoice), history: z.array(HistoryEntry) }).openapi('MembershipInvoices');

/** A billing change: the membership after it and the invoice it wrote (null when nothing was invoiced). */
export const BillingResult = z.object({ membership: Membership, invoice: Invoice.nullable() }).openapi('MembershipBillingResult');

export const FreeMonthBody = z.object({ customerId: zCustomerId(), reason: zText(1000).optional() }).openapi('AddFreeMonth');
export const ChangeDateBody = z
  .object({
    customerId: zCustomerId(),
    newBillingDate: zDateOrInstant().openapi({ description: 'The new end of the current period (next billing date); must be in the future' }),
    proRate: z.boolean().optional(),
    reason: zText(1000).optional(),
  })
  .openapi('ChangeBillingDate');
export const SwitchCycleBody = z
  .object({ customerId: zCustomerId(), newBillingCycle: z.enum(BILLING_CYCLES), proRate: z.boolean().optional(), reason: zText(1000).optional() })
  .openapi('SwitchBillingCycle');
export const ChangePriceBody = z
  .object({
    customerId: zCustomerId(),
    newPrice: cents().openapi({ description: 'Cents per cycle' }),
    proRate: z.boolean().optional(),
    reason: zText(1000).optional(),
  })
  .openapi('ChangeMembershipPrice');

export const RefundBody = z
  .object({
    customerId: zCustomerId(),
    invoiceId: zId('minv_01J0000000000000000000000'),
    amount: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Cents (default: all that is left to refund on the invoice)' }),
    reason: zText(1000).optional(),
  })
  .openapi('RefundMembershipInvoice');
export const RefundResult = z
  .object({
    membership: Membership,
    invoice: Invoice,
    refund: z.object({ refundId: z.string(), paymentIntentId: z.string(), amount: z.number(), status: z.string() }),
  })
  .openapi('MembershipRefundResult');

export const ResendBody = z
  .object({ customerId: zCustomerId(), email: zEmail().optional().openapi({ description: "Send to this address instead of the member's" }) })
  .openapi('ResendMembershipReceipt');
export const ResendResult = z.object({ invoiceId: z.string(), sentTo: z.string(), messageId: z.string() }).openapi('MembershipReceiptSent');

// ------------------------------------------------------------------------------------------------
// Credits

export const CreditsQuery = z.object({ customerId: zCustomerId(), limit: zLimit(200, 50) });
export const CreditEntry = z
  .object({
    entryId: z.string(),
    kind: z.string(),
    amount: z.number(),
    balanceAfter: z.number(),
    description: z.string(),
    staffId: z.string().nullable(),
    reference: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('MembershipCreditEntry');
export const Credits = z
  .object({ membershipId: z.string(), balance: z.number().openapi({ description: 'Cents' }), history: z.array(CreditEntry) })
  .openapi('MembershipCredits');
export const AdjustCreditsBody = z
  .object({
    customerId: zCustomerId(),
    amount: z
      .number()
      .int()
      .min(-100_000_000)
      .max(100_000_000)
      .refine((v) => v !== 0, 'must not be 0')
      .openapi({ description: 'Cents: positive adds, negative deducts' }),
    description: zText(500).min(1),
    staffId: zText(128).optional(),
  })
  .openapi('AdjustMembershipCredits');

// ------------------------------------------------------------------------------------------------
// Family

export const AddFamilyBody = z
  .object({ customerId: zCustomerId(), renterId: zId('rnt_01J0000000000000000000000'), email: zEmail(), name: zText(200).optional() })
  .openapi('AddFamilyMember');

// ------------------------------------------------------------------------------------------------
// Organizations

const orgFields = {
  name: zText(200).min(1),
  contactEmail: zEmail(),
  contactName: zText(200).min(1),
  contactPhone: zPhone().optional(),
  billingAddress: z.record(z.string(), z.unknown()).optional(),
  maxAuthorizedRenters: z.number().int().min(1).max(10_000).optional().openapi({ description: 'Default 10' }),
};
export const CreateOrgBody = z.object({ customerId: zCustomerId(), ...orgFields }).openapi('CreateOrganization');
export const UpdateOrgBody = z
  .object({
    customerId: zCustomerId(),
    name: orgFields.name.optional(),
    contactEmail: orgFields.contactEmail.optional(),
    contactName: orgFields.contactName.optional(),
    contactPhone: zPhone().nullable().optional(),
    billingAddress: z.record(z.string(), z.unknown()).nullable().optional(),
    maxAuthorizedRenters: orgFields.maxAuthorizedRenters,
  })
  .openapi('UpdateOrganization');

export const OrgMember = z
  .object({ renterId: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string().nullable(), addedAt: z.string() })
  .openapi('OrganizationMember');

export const Organization = z
  .object({
    orgId: z.string(),
    customerId: z.string(),
    name: z.string(),
    contactEmail: z.string(),
    contactName: z.string(),
    contactPhone: z.string().nullable(),
    billingAddress: z.record(z.string(), z.unknown()).nullable(),
    maxAuthorizedRenters: z.number(),
    authorizedRenters: z.array(OrgMember),
    membershipId: z.string().nullable().openapi({ description: 'The live organization membership, if any' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Organization');

export const OrgList = z.object({ data: z.array(Organization), total: z.number() }).openapi('OrganizationList');
export const OrgDeleted = z.object({ orgId: z.string(), deleted: z.boolean() }).openapi('OrganizationDeleted');
export const OrgMembers = z.object({ orgId: z.string(), maxAuthorizedRenters: z.number(), data: z.array(OrgMember) }).openapi('OrganizationMembers');
export const AddOrgMemberBody = z.object({ customerId: zCustomerId(), renterId: zId('rnt_01J0000000000000000000000') }).openapi('AddOrganizationMember');
export const OrgMembershipBody = z
  .object({
    customerId: zCustomerId(),
    tierId: zId('mtr_01J0000000000000000000000'),
    billingCycle: z.enum(BILLING_CYCLES),
    paymentMethodId: zText(255).min(1).optional().openapi({ description: 'Card charged for the organization (required when the price is not 0)' }),
    staffId: zText(128).optional(),
    notes: zText(4000).optional(),
  })
  .openapi('CreateOrganizationMembership');

// ------------------------------------------------------------------------------------------------
// Public enrollment and member portal

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
