import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, uniqueIndex, check } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Membership tiers of an operator. Prices are integer cents per cycle. `deletedAt` marks a tier
 * deleted with DELETE /memberships/tiers/{tierId} (refused while a membership of the tier is not
 * canceled); canceled memberships keep pointing at it for their history.
 */
export const membershipTiers = sqliteTable(
  'membership_tiers',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    /** `all_locations` or `selected_locations` (then `locationIds`): where the benefits apply. */
    scope: text('scope', { enum: ['all_locations', 'selected_locations'] })
      .notNull()
      .default('all_locations'),
    locationIds: json<string[]>('location_ids')
      .notNull()
      .$defaultFn(() => []),
    monthlyPrice: integer('monthly_price'),
    yearlyPrice: integer('yearly_price'),
    currency: text('currency').notNull().default('usd'),
    /** `{discountPercentage, creditsPerPeriod, perks[]}`. */
    benefits: json<Record<string, unknown>>('benefits')
      .notNull()
      .$defaultFn(() => ({})),
    /** `{enabled, maxPausesPerYear, maxPauseDays}`. */
    pausePolicy: json<Record<string, unknown>>('pause_policy')
      .notNull()
      .$defaultFn(() => ({})),
    /** `{enabled, maxMembers}`. */
    familyOptions: json<Record<string, unknown>>('family_options')
      .notNull()
      .$defaultFn(() => ({})),
    allowedMemberTypes: json<string[]>('allowed_member_types')
      .notNull()
      .$defaultFn(() => ['individual']),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    /** Offered for public enrollment from the booking widget. */
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(false),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('membership_tiers_customer_idx').on(t.customerId, t.displayOrder)],
);

/**
 * Memberships. `memberKey` is the member's identity (the renter id; `email:{address}` while a
 * renter created with the membership does not exist yet; `org:{orgId}` for an organization) and
 * the unique partial index allows one live membership (incomplete, active, paused, past due) per
 * member, so two racing creates give one membership. `incomplete` is the claim taken before the
 * first charge; it becomes `active` in the batch that records the payment, or is deleted on a
 * decline (a crashed claim is swept after 15 minutes).
 *
 * Billing: the paid period is [currentPeriodStart, currentPeriodEnd). `nextChargeAt` is when the
 * renewal job next tries to charge (the period end, or a dunning retry); `billingClaim` and
 * `billingClaimUntil` are the per-period claim a renewal run takes with a conditional UPDATE.
 */
export const memberships = sqliteTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    tierId: text('tier_id').notNull(),
    memberType: text('member_type', { enum: ['individual', 'family', 'organization'] })
      .notNull()
      .default('individual'),
    memberKey: text('member_key').notNull(),
    renterId: text('renter_id'),
    organizationId: text('organization_id'),
    memberEmail: text('member_email').notNull(),
    memberName: text('member_name'),
    memberPhone: text('member_phone'),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }).notNull(),
    /** Cents per cycle (the tier's price when created; changed by change-price and switch-cycle). */
    price: integer('price').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: ['incomplete', 'active', 'paused', 'past_due', 'canceled'] }).notNull(),
    cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
    canceledAt: text('canceled_at'),
    currentPeriodStart: text('current_period_start').notNull(),
    currentPeriodEnd: text('current_period_end').notNull(),
    /** Day of the month periods end on (clamped to short months). */
    billingAnchorDay: integer('billing_anchor_day').notNull(),
    nextChargeAt: text('next_charge_at'),
    /** Renewal attempts of the open invoice (dunning). */
    dunningAttempts: integer('dunning_attempts').notNull().default(0),
    openInvoiceId: text('open_invoice_id'),
    pastDueSince: text('past_due_since'),
    billingClaim: text('billing_claim'),
    billingClaimUntil: text('billing_claim_until'),
    pausedAt: text('paused_at'),
    resumeAt: text('resume_at'),
    paymentCustomerId: text('payment_customer_id'),
    paymentMethodId: text('payment_method_id'),
    staffId: text('staff_id'),
    notes: text('notes'),
    /** Bumped by every change; a change is a compare-and-swap on it (see membership_events.version). */
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('memberships_live_member_uq')
      .on(t.customerId, t.memberKey)
      .where(sql`status IN ('incomplete', 'active', 'paused', 'past_due')`),
    index('memberships_customer_status_idx').on(t.customerId, t.status, t.createdAt),
    index('memberships_next_charge_idx').on(t.status, t.nextChargeAt),
    index('memberships_resume_idx').on(t.status, t.resumeAt),
    index('memberships_renter_idx').on(t.customerId, t.renterId),
    index('memberships_org_idx').on(t.customerId, t.organizationId),
  ],
);

/**
 * Invoices of a membership: the first period, renewals, prorations, free periods. `lines` are
 * written once with the invoice: `{description, kind, amount, proration?: {days, periodDays, rate,
 * formula}}` (cents). `amountPaid`/`amountRefunded` move with conditional UPDATEs.
 */
export const membershipInvoices = sqliteTable(
  'membership_invoices',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    number: text('number').notNull(),
    kind: text('kind', { enum: ['initial', 'renewal', 'reactivation', 'proration', 'free_period'] }).notNull(),
    status: text('status', { enum: ['paid', 'open', 'uncollectible', 'void', 'credited'] }).notNull(),
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    currency: text('currency').notNull().default('usd'),
    lines: json<Record<string, unknown>[]>('lines').notNull(),
    total: integer('total').notNull(),
    amountPaid: integer('amount_paid').notNull().default(0),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /** Renewal invoices: the period they bill, unique per membership (the last line of defence against a double renewal). */
    renewalKey: text('renewal_key'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    paidAt: text('paid_at'),
    reason: text('reason'),
    ...timestamps(),
  },
  (t) => [
    index('membership_invoices_membership_idx').on(t.customerId, t.membershipId, t.createdAt),
    uniqueIndex('membership_invoices_renewal_uq').on(t.membershipId, t.renewalKey),
    check('membership_invoices_refund_ck', sql`amount_refunded >= 0 AND amount_refunded <= amount_paid`),
  ],
);

/** Every charge attempt and refund of a membership invoice (succeeded or failed). */
export const membershipPayments = sqliteTable(
  'membership_payments',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    kind: text('kind', { enum: ['charge', 'refund'] }).notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    paymentIntentId: text('payment_intent_id'),
    refundId: text('refund_id'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    attempt: integer('attempt'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('membership_payments_invoice_idx').on(t.customerId, t.invoiceId), index('membership_payments_membership_idx').on(t.customerId, t.membershipId)],
);

/**
 * The credits ledger: append-only, one row per movement (cents, signed). `balanceAfter` is
 * computed inside the INSERT from the rows before it, and the CHECK refuses a negative result, so
 * a movement that would overdraw the balance fails as one statement, whatever runs in parallel.
 * `reference` ties a movement to what caused it (an invoice, a booking transaction).
 */
export const membershipCredits = sqliteTable(
  'membership_credits',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    kind: text('kind', { enum: ['adjustment', 'grant', 'proration', 'booking', 'booking_refund'] }).notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    description: text('description').notNull(),
    staffId: text('staff_id'),
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (t) => [
    index('membership_credits_membership_idx').on(t.membershipId, t.createdAt),
    uniqueIndex('membership_credits_reference_uq').on(t.membershipId, t.kind, t.reference),
    check('membership_credits_balance_ck', sql`balance_after >= 0`),
  ],
);

/** Family members of a membership (renters who share its benefits). */
export const membershipFamily = sqliteTable(
  'membership_family',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    renterId: text('renter_id').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('membership_family_member_uq').on(t.membershipId, t.renterId), index('membership_family_renter_idx').on(t.customerId, t.renterId)],
);

/** Organizations (companies, clubs) whose authorized renters share an organization membership. */
export const organizations = sqliteTable(
  'organizations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    name: text('name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactName: text('contact_name').notNull(),
    contactPhone: text('contact_phone'),
    billingAddress: json<Record<string, unknown>>('billing_address'),
    maxAuthorizedRenters: integer('max_authorized_renters').notNull().default(10),
    ...timestamps(),
  },
  (t) => [index('organizations_customer_idx').on(t.customerId, t.name)],
);

export const organizationMembers = sqliteTable(
  'organization_members',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    organizationId: text('organization_id').notNull(),
    renterId: text('renter_id').notNull(),
    /** The renter's name and e-mail when authorized (a snapshot for the member list). */
    email: text('email'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organization_members_uq').on(t.organizationId, t.renterId), index('organization_members_renter_idx').on(t.customerId, t.renterId)],
);

/** Billing history and state changes of a membership (created, paused, renewed, declined, ...). */
export const membershipEvents = sqliteTable(
  'membership_events',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    type: text('type').notNull(),
    details: json<Record<string, unknown>>('details'),
    actor: text('actor'),
    /** The membership version this change produced: unique, so two changes made from the same version cannot both commit. */
    version: integer('version'),
    createdAt: createdAt(),
  },
  (t) => [index('membership_events_membership_idx').on(t.membershipId, t.createdAt), uniqueIndex('membership_events_version_uq').on(t.membershipId, t.version)],
);

/**
 * Member portal: single-use e-mailed links (`link`) and the sessions they open (`session`). Only
 * the SHA-256 of a token is stored. A link is used with a conditional UPDATE (`usedAt IS NULL`).
 */
export const membershipPortalTokens = sqliteTable(
  'membership_portal_tokens',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    membershipId: text('membership_id').notNull(),
    kind: text('kind', { enum: ['link', 'session'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('membership_portal_tokens_hash_uq').on(t.tokenHash), index('membership_portal_tokens_expiry_idx').on(t.expiresAt)],
);
