import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps } from './_columns';

/**
 * Monthly totals of the ledger per location (UTC calendar month of `occurred_at`), kind and entry
 * type, kept by triggers on `ledger_entries` (migration `analytics_triggers`): every insert, update
 * and delete of an entry adds or subtracts its amount here in the same statement, so the totals can
 * never drift from the journal. Year-over-year reads these rows plus the raw entries of the few
 * hours between a UTC month boundary and the location's local one. `kind` is `booking` (the entry
 * has a rental), `pos` (source `pos`), `slip` (source `slip`) or `other`; entries of test-mode
 * (sandbox channel) bookings and entries without a location are not counted.
 */
export const analyticsLedgerMonths = sqliteTable(
  'analytics_ledger_months',
  {
    locationId: text('location_id').notNull(),
    /** `YYYY-MM`, UTC. */
    month: text('month').notNull(),
    kind: text('kind').notNull(),
    entryType: text('entry_type').notNull(),
    customerId: tenant(),
    /** Signed cents, as in the ledger. */
    amount: integer('amount').notNull().default(0),
    entries: integer('entries').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.month, t.kind, t.entryType] }), index('analytics_ledger_months_customer_idx').on(t.customerId, t.month)],
);

/**
 * Annual revenue target of a location and, for operators whose history predates Berth, the
 * previous year's revenue to compare with instead of the ledger's. Cents; one row per location and
 * year (`PATCH /analytics/revenue-target`).
 */
export const analyticsRevenueTargets = sqliteTable(
  'analytics_revenue_targets',
  {
    locationId: text('location_id').notNull(),
    year: integer('year').notNull(),
    customerId: tenant(),
    revenueTarget: integer('revenue_target'),
    previousYearRevenueOverride: integer('previous_year_revenue_override'),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.year] }), index('analytics_revenue_targets_customer_idx').on(t.customerId)],
);

/**
 * Completed rentals whose deferred revenue is not realized yet: a trigger on `bookings` adds the
 * rental when it becomes `completed` (migration `analytics_triggers`), and
 * `POST /analytics/realize-completed-bookings` realizes and removes the rows in one batch, so a
 * run reads only what is pending, never the whole booking history.
 */
export const analyticsUnrealizedBookings = sqliteTable(
  'analytics_unrealized_bookings',
  {
    rentalId: text('rental_id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    completedAt: text('completed_at').notNull(),
  },
  (t) => [index('analytics_unrealized_customer_idx').on(t.customerId, t.locationId)],
);
