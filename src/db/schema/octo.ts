import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** One unit item of an OCTO booking (a ticket of a tour tier, or one rented unit). */
export interface OctoUnitItemRow {
  uuid: string;
  unitId: string;
  resellerReference: string | null;
  contact: Record<string, unknown> | null;
}

/** The price of an OCTO booking as quoted when it was reserved (cents, tax included in `retail`). */
export interface OctoQuoteRow {
  currency: string;
  retail: number;
  net: number;
  tax: number;
  taxes: { name: string; retail: number; net: number }[];
  units: { unitId: string; retail: number; net: number; tax: number; taxes: { name: string; retail: number; net: number }[] }[];
}

/**
 * A booking made through the OCTO supplier API (`/octo/v1`). While `ON_HOLD` it owns `hold`
 * allocations (sourceId = id) that stop counting at `expiresAt`; once confirmed it points at the
 * operator's booking (`rentalId`, `transactionId`), which is the source of truth for the time and
 * the status. `version` is bumped by every change (trigger `octo_bookings_version_guard` of the
 * custom migration `octo_triggers` aborts a batch written over a stale read). `uuid` is the
 * reseller's booking uuid, unique per key holder (`scope`).
 */
export const octoBookings = sqliteTable(
  'octo_bookings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    connectionId: text('connection_id').notNull(),
    /** The key holder (`{connectionId or channelId}:{live|test}`), as the channel scopes keys. */
    scope: text('scope').notNull(),
    uuid: text('uuid').notNull(),
    testMode: integer('test_mode', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: ['ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] }).notNull(),
    productId: text('product_id').notNull(),
    optionId: text('option_id').notNull(),
    /** The OCTO availability id: the local start with its offset (`2026-07-04T10:00:00-04:00`). */
    availabilityId: text('availability_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    localDate: text('local_date').notNull(),
    unitItems: json<OctoUnitItemRow[]>('unit_items').notNull(),
    contact: json<Record<string, unknown>>('contact'),
    notes: text('notes'),
    resellerReference: text('reseller_reference'),
    /** The operator's order id (`txn_...`), chosen at reservation: the supplier reference resellers see. */
    transactionId: text('transaction_id').notNull(),
    /** The operator's booking (rental) once confirmed. */
    rentalId: text('rental_id'),
    quote: json<OctoQuoteRow>('quote').notNull(),
    commissionRate: real('commission_rate'),
    expiresAt: integer('expires_at'),
    confirmedAt: text('confirmed_at'),
    cancelledAt: text('cancelled_at'),
    cancellationReason: text('cancellation_reason'),
    cancellationRefund: text('cancellation_refund', { enum: ['FULL', 'PARTIAL', 'NONE'] }),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('octo_bookings_scope_uuid_uq').on(t.scope, t.uuid),
    index('octo_bookings_scope_ref_idx').on(t.scope, t.resellerReference),
    index('octo_bookings_scope_date_idx').on(t.scope, t.localDate),
    index('octo_bookings_transaction_idx').on(t.transactionId),
    index('octo_bookings_hold_idx').on(t.status, t.expiresAt),
  ],
);

/** An operator's settings for OCTO sales: the cancellation policy resellers see on every option. */
export const octoSettings = sqliteTable('octo_settings', {
  customerId: text('customer_id').primaryKey(),
  /** Confirmed OCTO bookings are cancellable until this many hours before the start (0: until the start). */
  cancellationCutoffHours: integer('cancellation_cutoff_hours').notNull().default(0),
  ...timestamps(),
});
