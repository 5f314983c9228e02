import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * `Idempotency-Key` claims of the shared idempotency middleware (src/lib/idempotency.ts), one row
 * per (credential scope, key), kept 24 hours. The row is claimed atomically (unique scope+key)
 * before the handler runs and completed with the stored answer; `effectCommitted` is set by
 * `commit()` in the same D1 batch as the request's first write, so an abandoned claim whose write
 * landed is never run a second time.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    id: text('id').primaryKey(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_flight', 'completed'] }).notNull(),
    effectCommitted: integer('effect_committed', { mode: 'boolean' }).notNull().default(false),
    responseStatus: integer('response_status'),
    responseType: text('response_type'),
    responseBody: text('response_body'),
    claimedAt: integer('claimed_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [uniqueIndex('idempotency_keys_scope_key_uq').on(t.scope, t.key), index('idempotency_keys_expiry_idx').on(t.expiresAt)],
);
