import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Protection-plan settings of a location (a location without a row uses the defaults of its industry). */
export const protectionSettings = sqliteTable(
  'protection_settings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    industry: text('industry').notNull().default('marine'),
    enabledPlanCodes: json<string[]>('enabled_plan_codes')
      .notNull()
      .$defaultFn(() => []),
    enabledBundleCodes: json<string[]>('enabled_bundle_codes')
      .notNull()
      .$defaultFn(() => []),
    /** Per plan code: `{percentage?, maxCap?}` (maxCap in dollars, as the API takes it). */
    planOverrides: json<Record<string, { percentage?: number; maxCap?: number }>>('plan_overrides')
      .notNull()
      .$defaultFn(() => ({})),
    ...timestamps(),
  },
  (t) => [uniqueIndex('protection_settings_location_uq').on(t.customerId, t.locationId)],
);

/**
 * Plans bought for a booking. One row per (rental, plan): the row is claimed (`pending`) before the
 * card is charged, so a plan is charged at most once per booking.
 */
export const protectionPurchases = sqliteTable(
  'protection_purchases',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    planCode: text('plan_code').notNull(),
    planName: text('plan_name').notNull(),
    status: text('status', { enum: ['pending', 'paid'] }).notNull(),
    /** Cents. */
    premium: integer('premium').notNull(),
    bookingTotal: integer('booking_total').notNull(),
    percentage: real('percentage').notNull(),
    minimum: integer('minimum').notNull(),
    maxCap: integer('max_cap'),
    currency: text('currency').notNull().default('usd'),
    paymentIntentId: text('payment_intent_id'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('protection_purchases_rental_plan_uq').on(t.rentalId, t.planCode), index('protection_purchases_customer_idx').on(t.customerId)],
);
