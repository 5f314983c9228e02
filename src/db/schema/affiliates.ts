import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps, createdAt } from './_columns';

/**
 * Affiliates of an operator. `affiliateId` is the public code a referral link carries
 * (`refAffiliate`) and promo codes name; unique per operator. Totals are cents: `totalCommission`
 * and `paidOut` are cached sums of `affiliate_entries`, refreshed by every change and by
 * POST /affiliate/recalculate.
 */
export const affiliates = sqliteTable(
  'affiliates',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    affiliateId: text('affiliate_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    percentageEarned: real('percentage_earned').notNull().default(0),
    totalCommission: integer('total_commission').notNull().default(0),
    paidOut: integer('paid_out').notNull().default(0),
    recalculatedAt: text('recalculated_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('affiliates_code_uq').on(t.customerId, t.affiliateId)],
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
