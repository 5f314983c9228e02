import { sqliteTable, text, real, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps } from './_columns';

/**
 * Affiliates of an operator (document 2, Affiliates). Created here because promo codes name
 * their affiliate and record its commission on use; the affiliates module (its own issue) owns the
 * table and its endpoints. `percentageEarned` is the commission rate in percent.
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
    ...timestamps(),
  },
  (t) => [index('affiliates_customer_idx').on(t.customerId), uniqueIndex('affiliates_custom_id_uq').on(t.customerId, t.customAffiliateId)],
);
