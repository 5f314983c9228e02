import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Renters (end customers) of an operator. Upserted by e-mail and customer, by the booking commit
 * and by POST /renters.
 */
export const renters = sqliteTable(
  'renters',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    address: json<Record<string, unknown> | string>('address'),
    dob: text('dob'),
    licenseNumber: text('license_number'),
    waiversSignedUrls: json<string[]>('waivers_signed_urls')
      .notNull()
      .$defaultFn(() => []),
    idVerifications: json<Record<string, unknown>>('id_verifications')
      .notNull()
      .$defaultFn(() => ({})),
    transactions: json<unknown[]>('transactions')
      .notNull()
      .$defaultFn(() => []),
    additionalInfo: json<Record<string, unknown>>('additional_info')
      .notNull()
      .$defaultFn(() => ({})),
    paymentCustomerId: text('payment_customer_id'),
    status: text('status').notNull().default('active'),
    riskScore: real('risk_score'),
    notes: json<Record<string, unknown>[]>('notes')
      .notNull()
      .$defaultFn(() => []),
    loyaltyPoints: integer('loyalty_points').notNull().default(0),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('renters_customer_email_uq').on(t.customerId, t.email), index('renters_customer_name_idx').on(t.customerId, t.lastName, t.firstName)],
);

/**
 * One rental (line item): one inventory item for one time window, with its assets or seats.
 * `transactionId` groups the rentals placed together (the order; called bookingId in the channel
 * API); `bundleGroupId` groups the rentals of a bundle.
 */
export const bookings = sqliteTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    transactionId: text('transaction_id').notNull(),
    bundleGroupId: text('bundle_group_id'),
    locationId: text('location_id').notNull(),
    itemId: text('item_id').notNull(),
    renterId: text('renter_id'),
    /** Booking status; see src/modules/bookings/status.ts for the states and moves. */
    status: text('status').notNull(),
    source: text('source', { enum: ['operator', 'widget', 'channel', 'marketplace', 'import'] })
      .notNull()
      .default('operator'),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    /** Local date of the start in the location's zone (YYYY-MM-DD), for calendars and settlement. */
    localDate: text('local_date').notNull(),
    quantity: integer('quantity').notNull().default(1),
    participants: integer('participants'),
    assetIds: json<string[]>('asset_ids')
      .notNull()
      .$defaultFn(() => []),
    currency: text('currency').notNull().default('usd'),
    /** Amounts in cents. */
    subtotal: integer('subtotal').notNull().default(0),
    discountTotal: integer('discount_total').notNull().default(0),
    taxTotal: integer('tax_total').notNull().default(0),
    tipTotal: integer('tip_total').notNull().default(0),
    feeTotal: integer('fee_total').notNull().default(0),
    total: integer('total').notNull().default(0),
    amountPaid: integer('amount_paid').notNull().default(0),
    pricing: json<Record<string, unknown>>('pricing'),
    customerInfo: json<Record<string, unknown>>('customer_info'),
    rentalDetails: json<Record<string, unknown>>('rental_details'),
    extendedData: json<Record<string, unknown>>('extended_data'),
    addons: json<unknown[]>('addons'),
    paymentPlan: json<Record<string, unknown>>('payment_plan'),
    paymentIntentId: text('payment_intent_id'),
    depositInformation: json<Record<string, unknown>>('deposit_information'),
    promoCode: text('promo_code'),
    /** Reseller channel: connection, the reseller's reference and the commission stamped at sale. */
    channelConnectionId: text('channel_connection_id'),
    channelReference: text('channel_reference'),
    commissionRate: real('commission_rate'),
    /** `{scope}:{Idempotency-Key}` of a channel sale: unique, so one key can never create two bookings. */
    channelIdempotencyKey: text('channel_idempotency_key'),
    testMode: integer('test_mode', { mode: 'boolean' }).notNull().default(false),
    checkedInAt: text('checked_in_at'),
    checkedOutAt: text('checked_out_at'),
    cancelledAt: text('cancelled_at'),
    cancellationReason: text('cancellation_reason'),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    index('bookings_item_start_idx').on(t.itemId, t.start),
    index('bookings_customer_date_idx').on(t.customerId, t.localDate),
    index('bookings_customer_status_idx').on(t.customerId, t.status, t.start),
    index('bookings_location_idx').on(t.locationId, t.start),
    index('bookings_transaction_idx').on(t.transactionId),
    index('bookings_bundle_idx').on(t.bundleGroupId),
    index('bookings_renter_idx').on(t.renterId),
    index('bookings_channel_idx').on(t.channelConnectionId, t.channelReference),
    uniqueIndex('bookings_channel_idem_uq').on(t.channelIdempotencyKey),
    // The few test-mode (sandbox channel) bookings: analytics probes it per ledger entry (ledger-sql.ts).
    index('bookings_test_mode_idx')
      .on(t.id)
      .where(sql`test_mode = 1`),
  ],
);

/**
 * Accounting journal (the ledger). Amounts are signed cents from the renter's point of view:
 * positive entries are charges (revenue, tax, tips, fees), negative entries reduce what is owed
 * (payments, discounts, refunds reverse payments). `affectsBalance` is false for memo entries
 * such as deposit authorizations and platform fees owed by the operator.
 */
export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id'),
    renterId: text('renter_id'),
    transactionId: text('transaction_id'),
    rentalId: text('rental_id'),
    itemId: text('item_id'),
    assetId: text('asset_id'),
    entryType: text('entry_type').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    affectsBalance: integer('affects_balance', { mode: 'boolean' }).notNull().default(true),
    /** When the entry counts for reporting (the rental date for revenue; the payment time for payments). */
    occurredAt: text('occurred_at').notNull(),
    description: text('description'),
    source: text('source'),
    reference: text('reference'),
    metadata: json<Record<string, unknown>>('metadata'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_customer_date_idx').on(t.customerId, t.occurredAt),
    index('ledger_renter_idx').on(t.customerId, t.renterId),
    index('ledger_rental_idx').on(t.rentalId),
    // A sale kept on the ledger by its transaction (a slip stay, a POS transaction, a membership invoice): its money view reads its entries by it.
    index('ledger_transaction_idx').on(t.transactionId),
    // Covers the analytics reports' ledger scans (local days, kind and type, amount, item and asset): no row lookups.
    index('ledger_location_date_idx').on(
      t.locationId,
      t.occurredAt,
      t.entryType,
      t.amount,
      t.rentalId,
      t.source,
      t.deletedAt,
      t.customerId,
      t.itemId,
      t.assetId,
    ),
  ],
);

/** Booking activity log (`POST/GET /events`); not webhooks. */
export const bookingEvents = sqliteTable(
  'booking_events',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    transactionId: text('transaction_id'),
    rentalId: text('rental_id'),
    eventType: text('event_type'),
    eventChange: text('event_change'),
    eventLabel: text('event_label'),
    content: text('content'),
    details: json<Record<string, unknown>>('details'),
    actorName: text('actor_name'),
    actorId: text('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [index('booking_events_txn_idx').on(t.customerId, t.transactionId), index('booking_events_rental_idx').on(t.customerId, t.rentalId)],
);

/** Waitlist holds on an item (`/holdAsset`): reserve one unit for an e-mail for 2 days. */
export const holds = sqliteTable(
  'holds',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    email: text('email').notNull(),
    inventoryId: text('inventory_id').notNull(),
    locationId: text('location_id').notNull(),
    status: text('status', { enum: ['active', 'consumed', 'expired', 'released'] })
      .notNull()
      .default('active'),
    expiresAt: text('expires_at').notNull(),
    ...timestamps(),
  },
  (t) => [index('holds_item_idx').on(t.inventoryId, t.status), index('holds_expiry_idx').on(t.status, t.expiresAt)],
);

/** Drydock periods: an item (or chosen assets) out of rental. */
export const drydocks = sqliteTable(
  'drydocks',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    itemId: text('item_id').notNull(),
    assetIds: json<string[]>('asset_ids')
      .notNull()
      .$defaultFn(() => []),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    notes: text('notes'),
    ...timestamps(),
  },
  (t) => [index('drydocks_item_idx').on(t.customerId, t.itemId, t.start)],
);

/** Security-deposit pre-authorizations of a rental. */
export const deposits = sqliteTable(
  'deposits',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    locationId: text('location_id'),
    paymentIntentId: text('payment_intent_id').notNull(),
    method: text('method', { enum: ['card', 'terminal'] }).notNull(),
    readerId: text('reader_id'),
    status: text('status', { enum: ['pending', 'authorized', 'captured', 'partially_captured', 'released', 'failed'] }).notNull(),
    amount: integer('amount').notNull(),
    capturedAmount: integer('captured_amount').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    notes: text('notes'),
    claimType: text('claim_type'),
    releasedAt: text('released_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('deposits_intent_uq').on(t.paymentIntentId), index('deposits_rental_idx').on(t.customerId, t.rentalId)],
);
