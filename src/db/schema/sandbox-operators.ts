import { sqliteTable, text, integer, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './_columns';

/**
 * Private sandboxes (modules/partners/sandbox.ts): the private demo operator of one owner — a
 * partner account (its apps' sandbox installs), a reseller channel (its platform test key) or a
 * single-operator connection (its test key) — created on first use and seeded with the demo data.
 *
 * The row is the claim: it is inserted (unique owner) before the operator is seeded, so two first
 * requests at once seed once; `status` is `seeding` while a request holds `lease_until` (real time,
 * ms) and `ready` once the operator is complete. A lease that lapsed (the seeding request died) is
 * taken over: the half-written operator is purged and seeded again. A reset takes the same claim.
 *
 * The operator's id is `operator_id` (a `cus_sbx_` id), deliberately not `customer_id`: purging the
 * operator (tenant-purge.ts walks every `customer_id` table) keeps the link.
 */
export const sandboxOperators = sqliteTable(
  'sandbox_operators',
  {
    id: text('id').primaryKey(),
    ownerKind: text('owner_kind', { enum: ['partner', 'channel', 'connection'] }).notNull(),
    ownerId: text('owner_id').notNull(),
    operatorId: text('operator_id').notNull(),
    /** The operator's name as seeded (and seeded again by a reset). */
    name: text('name').notNull(),
    status: text('status', { enum: ['seeding', 'ready'] })
      .notNull()
      .default('seeding'),
    /** While `seeding`: until when (real time, ms) the request seeding it holds the claim. */
    leaseUntil: integer('lease_until'),
    /** When the operator was last seeded completely (created or reset). */
    seededAt: text('seeded_at'),
    resets: integer('resets').notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex('sandbox_operators_owner_uq').on(t.ownerKind, t.ownerId), uniqueIndex('sandbox_operators_operator_uq').on(t.operatorId)],
);
