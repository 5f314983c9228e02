import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * An operator's tour-marketplace configuration (one per operator). `apiKeyHash` is the SHA-256 of
 * the inbound key the marketplace presents; `outboundApiKey` (the key Berth calls the marketplace
 * with) is stored sealed and never returned.
 */
export const marketplaceConfigs = sqliteTable(
  'marketplace_configs',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    supplierId: text('supplier_id').notNull(),
    apiKeyHash: text('api_key_hash').notNull(),
    apiKeyLast4: text('api_key_last4').notNull(),
    outboundApiKey: text('outbound_api_key'),
    currency: text('currency').notNull().default('usd'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex('marketplace_configs_customer_uq').on(t.customerId), uniqueIndex('marketplace_configs_key_uq').on(t.apiKeyHash)],
);

/**
 * A marketplace reservation: a hold of price and inventory (hold allocations with an expiry, taken
 * in the item's lock) that a booking confirms, or that expires by itself.
 */
export const marketplaceReservations = sqliteTable(
  'marketplace_reservations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    configId: text('config_id').notNull(),
    itemId: text('item_id').notNull(),
    productOptionId: text('product_option_id').notNull(),
    travelDate: text('travel_date').notNull(),
    startTime: text('start_time').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    totalTravelers: integer('total_travelers').notNull(),
    tickets: json<Record<string, number>>('tickets'),
    /** Held tax-inclusive price, cents. */
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['held', 'confirming', 'confirmed', 'released', 'expired', 'cancelled'] }).notNull(),
    /** Epoch milliseconds: the hold stops counting then. */
    expiresAt: integer('expires_at').notNull(),
    /** The marketplace's booking reference (set on confirmation). */
    bookingRef: text('booking_ref'),
    rentalId: text('rental_id'),
    transactionId: text('transaction_id'),
    traveler: json<Record<string, unknown>>('traveler'),
    amendments: integer('amendments').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('marketplace_reservations_ref_uq').on(t.customerId, t.bookingRef),
    index('marketplace_reservations_status_idx').on(t.status, t.expiresAt),
    index('marketplace_reservations_rental_idx').on(t.customerId, t.rentalId),
  ],
);

/** Calls Berth made (or would have made) to the marketplace: availability notifications. */
export const marketplaceNotifications = sqliteTable(
  'marketplace_notifications',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    kind: text('kind').notNull(),
    payload: json<Record<string, unknown>>('payload').notNull(),
    status: text('status', { enum: ['sent', 'failed'] }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('marketplace_notifications_customer_idx').on(t.customerId, t.createdAt)],
);
