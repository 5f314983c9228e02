import { sqliteTable, text, integer, real, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Embedded coverage (the coverage module owns every table here): underwriters' offerings and their
 * signing secrets, partners' payout accounts, operators' enablements per location, cached question
 * schemas, quotes at checkout, policies, their reschedule amendments, operator flags, message
 * requests and the log of calls to underwriters.
 */

/** An underwriter's offering, owned by a partner account. */
export const coverageOfferings = sqliteTable(
  'coverage_offerings',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    name: text('name').notNull(),
    supportEmail: text('support_email').notNull(),
    baseUrl: text('base_url').notNull(),
    /** ISO 3166-1 alpha-2 codes; empty means nowhere. */
    supportedCountries: json<string[]>('supported_countries')
      .notNull()
      .$defaultFn(() => []),
    /** ISO 4217 lower-case codes the offering prices in. */
    currencies: json<string[]>('currencies')
      .notNull()
      .$defaultFn(() => []),
    quoteTimeoutMs: integer('quote_timeout_ms').notNull().default(2000),
    /** The partner's on/off switch. */
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    status: text('status', { enum: ['draft', 'in_review', 'approved'] })
      .notNull()
      .default('draft'),
    /** The partner's payout account, attached automatically once connected. */
    payoutAccountId: text('payout_account_id'),
    /** Fixed during review (spec rule 9): `hourly` (within the hour, default), `immediate` or `none`. */
    rescheduleDelivery: text('reschedule_delivery', { enum: ['hourly', 'immediate', 'none'] })
      .notNull()
      .default('hourly'),
    reviewReasons: json<string[]>('review_reasons'),
    reviewNote: text('review_note'),
    submittedAt: text('submitted_at'),
    reviewedAt: text('reviewed_at'),
    approvedAt: text('approved_at'),
    version: integer('version').notNull().default(1),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('coverage_offerings_partner_idx').on(t.partnerId), index('coverage_offerings_status_idx').on(t.status)],
);

/**
 * Signing secrets, encrypted (AES-GCM). The current one has no `expiresAt`; after a rotation the
 * previous one keeps working until its `expiresAt` (the overlap).
 */
export const coverageSecrets = sqliteTable(
  'coverage_secrets',
  {
    id: text('id').primaryKey(),
    offeringId: text('offering_id').notNull(),
    iv: text('iv').notNull(),
    ciphertext: text('ciphertext').notNull(),
    /** First characters, to recognise it (never enough to use it). */
    prefix: text('prefix').notNull(),
    expiresAt: text('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [index('coverage_secrets_offering_idx').on(t.offeringId)],
);

/** A partner's payout account at the payment provider (Express onboarding). */
export const coveragePayoutAccounts = sqliteTable('coverage_payout_accounts', {
  partnerId: text('partner_id').primaryKey(),
  accountId: text('account_id').notNull(),
  country: text('country').notNull(),
  /** `onboarding` until the provider says payouts are enabled; `active` then. */
  status: text('status', { enum: ['onboarding', 'active'] })
    .notNull()
    .default('onboarding'),
  ...timestamps(),
});

/** An operator enables an offering at one location. */
export const coverageEnablements = sqliteTable(
  'coverage_enablements',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    offeringId: text('offering_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('coverage_enablements_uq').on(t.customerId, t.locationId, t.offeringId), index('coverage_enablements_offering_idx').on(t.offeringId)],
);

/** Question schemas, fetched once per version and kept sanitised. */
export const coverageSchemas = sqliteTable(
  'coverage_schemas',
  {
    offeringId: text('offering_id').notNull(),
    version: text('version').notNull(),
    fields: json<unknown[]>('fields').notNull(),
    /** What sanitising dropped (field ids and why). */
    dropped: json<{ id: string; reason: string }[]>('dropped'),
    fetchedAt: text('fetched_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.offeringId, t.version] })],
);

/** A coverage quote shown at checkout (one card per offering). Money in cents. */
export const coverageQuotes = sqliteTable(
  'coverage_quotes',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    offeringId: text('offering_id').notNull(),
    locationId: text('location_id').notNull(),
    inventoryId: text('inventory_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    quantity: integer('quantity').notNull(),
    currency: text('currency').notNull(),
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    underwriterQuoteId: text('underwriter_quote_id').notNull(),
    /** The premium displayed on the card (Berth's own record of the estimate). */
    estimate: integer('estimate').notNull(),
    /** The current price: the estimate, or the requote's final price. */
    premium: integer('premium').notNull(),
    depositEffect: text('deposit_effect', { enum: ['none', 'waive', 'reduce_to', 'reduce_by', 'reduce_by_percent'] }).notNull(),
    /** The underwriter's value: dollars (`reduce_to`, `reduce_by`) or percent (`reduce_by_percent`). */
    depositEffectValue: real('deposit_effect_value'),
    /** The item's deposit without coverage and with it (cents). */
    depositBefore: integer('deposit_before').notNull().default(0),
    depositAfter: integer('deposit_after').notNull().default(0),
    schemaVersion: text('schema_version').notNull(),
    status: text('status', { enum: ['quoted', 'ready', 'needs_acceptance', 'declined', 'failed', 'purchasing', 'purchased'] }).notNull(),
    answers: json<Record<string, unknown>>('answers'),
    reason: text('reason'),
    transactionId: text('transaction_id'),
    expiresAt: text('expires_at').notNull(),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [index('coverage_quotes_customer_idx').on(t.customerId, t.createdAt), index('coverage_quotes_expiry_idx').on(t.expiresAt)],
);

/** A policy: bought with a booking, bound after payment. Money in cents, windows in epoch ms. */
export const coveragePolicies = sqliteTable(
  'coverage_policies',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    offeringId: text('offering_id').notNull(),
    /** One policy per quote, ever. */
    quoteId: text('quote_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    rentalId: text('rental_id'),
    locationId: text('location_id').notNull(),
    status: text('status', { enum: ['pending', 'bound', 'not_issued', 'not_covered', 'cancelled'] }).notNull(),
    premium: integer('premium').notNull(),
    currency: text('currency').notNull(),
    policyNumber: text('policy_number'),
    documentUrl: text('document_url'),
    /** The window the underwriter covers (the booking's at bind, then each accepted amendment). */
    coveredStart: integer('covered_start').notNull(),
    coveredEnd: integer('covered_end').notNull(),
    paidAt: text('paid_at').notNull(),
    bindAttempts: integer('bind_attempts').notNull().default(0),
    nextBindAt: text('next_bind_at'),
    /** Claimed by one binder at a time (conditional UPDATE). */
    bindLeaseUntil: text('bind_lease_until'),
    lastError: text('last_error'),
    boundAt: text('bound_at'),
    /** The premium's transfer to the payout account: `none` (not yet), `done`, `failed` (retried by the sweep), `reversed`. */
    transferStatus: text('transfer_status', { enum: ['none', 'done', 'failed', 'reversed', 'not_needed'] })
      .notNull()
      .default('none'),
    transferId: text('transfer_id'),
    cancelledAt: text('cancelled_at'),
    cancelReason: text('cancel_reason'),
    /** The `/cancel` call: `none`, `pending` (retried), `done`, `failed`. */
    cancelStatus: text('cancel_status', { enum: ['none', 'pending', 'done', 'failed'] })
      .notNull()
      .default('none'),
    cancelAttempts: integer('cancel_attempts').notNull().default(0),
    nextCancelAt: text('next_cancel_at'),
    premiumRefunded: integer('premium_refunded', { mode: 'boolean' }).notNull().default(false),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('coverage_policies_quote_uq').on(t.quoteId),
    index('coverage_policies_customer_idx').on(t.customerId, t.createdAt),
    index('coverage_policies_rental_idx').on(t.rentalId),
    index('coverage_policies_txn_idx').on(t.transactionId),
    index('coverage_policies_bind_idx').on(t.status, t.nextBindAt),
  ],
);

/** A change of a bound booking's window sent to `/reschedule`: one per policy and window. */
export const coverageAmendments = sqliteTable(
  'coverage_amendments',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    policyId: text('policy_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'superseded', 'skipped', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    dueAt: text('due_at').notNull(),
    leaseUntil: text('lease_until'),
    reason: text('reason'),
    lastError: text('last_error'),
    completedAt: text('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('coverage_amendments_uq').on(t.policyId, t.start, t.end), index('coverage_amendments_due_idx').on(t.status, t.dueAt)],
);

/** Problems raised to the operator (bind failed, paid renter no longer covered). */
export const coverageFlags = sqliteTable(
  'coverage_flags',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    policyId: text('policy_id').notNull(),
    rentalId: text('rental_id'),
    kind: text('kind', { enum: ['bind_failed', 'not_covered'] }).notNull(),
    /** One flag per cause (`bind_failed`, or the declined amendment's id). */
    dedupeKey: text('dedupe_key').notNull(),
    message: text('message').notNull(),
    resolvedAt: text('resolved_at'),
    resolution: text('resolution'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('coverage_flags_dedupe_uq').on(t.dedupeKey), index('coverage_flags_customer_idx').on(t.customerId, t.createdAt)],
);

/** Messages an underwriter asked Berth to e-mail to a renter: one per category per policy. */
export const coverageMessages = sqliteTable(
  'coverage_messages',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    policyId: text('policy_id').notNull(),
    category: text('category', { enum: ['policy_issued', 'policy_document', 'policy_cancelled', 'claim_update'] }).notNull(),
    messageId: text('message_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('coverage_messages_uq').on(t.policyId, t.category)],
);

/** The log of calls to underwriters (kept 30 days): what the partner sees when debugging. */
export const coverageCalls = sqliteTable(
  'coverage_calls',
  {
    id: text('id').primaryKey(),
    offeringId: text('offering_id').notNull(),
    endpoint: text('endpoint').notNull(),
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** The quote or policy the call was about. */
    subjectId: text('subject_id'),
    createdAt: createdAt(),
  },
  (t) => [index('coverage_calls_offering_idx').on(t.offeringId, t.createdAt)],
);
