import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps, createdAt } from './_columns';

/**
 * Affiliates of an operator (document 2, Affiliates). `id` IS the affiliate ID of the API: the
 * `customAffiliateId` when one was chosen, else a generated `aff_...`; it is the primary key, so an
 * ID is unique across the platform (GET /affiliate/check-availability) and referral links
 * (`refAffiliate`) and promo codes (`affiliateId`) name it. Totals are cents, refreshed by SQL from
 * `affiliate_entries` by every change and by POST /affiliate/recalculate.
 */
export const affiliates = sqliteTable(
  'affiliates',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    percentageEarned: real('percentage_earned').notNull().default(0),
    customAffiliateId: text('custom_affiliate_id'),
    /** Cents. */
    paidOut: integer('paid_out').notNull().default(0),
    commissionTotal: integer('commission_total').notNull().default(0),
    recalculatedAt: text('recalculated_at'),
    ...timestamps(),
  },
  (t) => [index('affiliates_customer_idx').on(t.customerId), uniqueIndex('affiliates_custom_id_uq').on(t.customerId, t.customAffiliateId)],
);

/**
 * What an affiliate earned and was paid, one row per item (cents). `commission` rows come from a
 * booking referred with `refAffiliate` (`source` booking_ref, `sourceId` the rental), a booking
 * with the affiliate's promo code (promo_booking), a promo-code use reported by the promo-code
 * module (promo_use) or a manual commission (manual); each keeps the `rate` in force when it was
 * earned. `excluded` marks a commission whose booking was cancelled (not counted). `payout` rows
 * are payments to the affiliate. (customer, affiliate, source, sourceId) is unique, so recording
 * the same booking twice is impossible.
 */
export const affiliateEntries = sqliteTable(
  'affiliate_entries',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    affiliateId: text('affiliate_id').notNull(),
    kind: text('kind', { enum: ['commission', 'payout'] }).notNull(),
    source: text('source', { enum: ['booking_ref', 'promo_booking', 'promo_use', 'manual', 'payout'] }).notNull(),
    sourceId: text('source_id').notNull(),
    basis: integer('basis').notNull().default(0),
    rate: real('rate'),
    amount: integer('amount').notNull(),
    excluded: integer('excluded', { mode: 'boolean' }).notNull().default(false),
    earnedAt: text('earned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('affiliate_entries_source_uq').on(t.customerId, t.affiliateId, t.source, t.sourceId),
    index('affiliate_entries_affiliate_idx').on(t.customerId, t.affiliateId, t.kind),
  ],
);
