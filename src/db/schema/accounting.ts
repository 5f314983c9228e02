import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Journal line of a daily export: one GL account, debit or credit, cents. */
export interface JournalLine {
  account: string;
  accountId: string | null;
  debit: number;
  credit: number;
  description: string;
}

/**
 * An operator's accounting link (one per operator; `businessId` in the API is the operator's
 * customerId). Tokens are sealed. Disconnecting clears the tokens and business but keeps
 * `glMappings`.
 */
export const acctLinks = sqliteTable('acct_links', {
  customerId: text('customer_id').primaryKey(),
  provider: text('provider'),
  status: text('status', { enum: ['connected', 'disconnected', 'error'] })
    .notNull()
    .default('disconnected'),
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  tokenExpiresAt: integer('token_expires_at'),
  acctBusinessId: text('acct_business_id'),
  acctBusinessName: text('acct_business_name'),
  bankAccountId: text('bank_account_id'),
  glMappings: json<Record<string, string>>('gl_mappings')
    .notNull()
    .$defaultFn(() => ({})),
  connectedAt: text('connected_at'),
  lastError: text('last_error'),
  ...timestamps(),
});

/** A daily journal export of one location and local date (unique: exports are idempotent per location and date). */
export const acctExports = sqliteTable(
  'acct_exports',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    date: text('date').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed', 'empty'] }).notNull(),
    lines: json<JournalLine[]>('lines')
      .notNull()
      .$defaultFn(() => []),
    totalDebit: integer('total_debit').notNull().default(0),
    totalCredit: integer('total_credit').notNull().default(0),
    entryCount: integer('entry_count').notNull().default(0),
    externalId: text('external_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: text('sent_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('acct_exports_location_date_uq').on(t.customerId, t.locationId, t.date), index('acct_exports_status_idx').on(t.customerId, t.status)],
);
