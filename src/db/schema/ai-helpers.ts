import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, createdAt } from './_columns';

/**
 * Paid website audits (`POST /ai/business-audit`, 4.99 dollars each): the report and the charge,
 * written in the batch that records the payment (with its `payment.completed` event). The charge's
 * payment intent is unique, so one payment can never be recorded twice.
 */
export const aiBusinessAudits = sqliteTable(
  'ai_business_audits',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    websiteUrl: text('website_url').notNull(),
    /** The URL the audit read, after redirects. */
    finalUrl: text('final_url').notNull(),
    /** Cents. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    paymentIntentId: text('payment_intent_id').notNull(),
    paymentMethodId: text('payment_method_id'),
    score: integer('score').notNull(),
    report: json<Record<string, unknown>>('report').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ai_business_audits_customer_idx').on(t.customerId, t.createdAt), uniqueIndex('ai_business_audits_intent_uq').on(t.paymentIntentId)],
);
