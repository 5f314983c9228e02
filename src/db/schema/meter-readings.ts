import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/**
 * Meter readings of marina units (electricity in kWh, water in gallons). `usage` is this reading
 * minus the previous one of the same unit and utility, across a meter rollover at 10^digits. Once
 * billed (marked billed, or charged to a reservation) a reading cannot change or be deleted: the
 * triggers of migration `meter_readings_guards` refuse it, and refuse billing it twice.
 */
export const meterReadings = sqliteTable(
  'meter_readings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    slipId: text('slip_id').notNull(),
    utility: text('utility', { enum: ['electricity', 'water'] }).notNull(),
    meterId: text('meter_id'),
    reading: real('reading').notNull(),
    digits: integer('digits').notNull(),
    readAt: text('read_at').notNull(),
    previousReadingId: text('previous_reading_id'),
    previousValue: real('previous_value'),
    usage: real('usage'),
    rollover: integer('rollover', { mode: 'boolean' }).notNull().default(false),
    flagged: integer('flagged', { mode: 'boolean' }).notNull().default(false),
    flagReasons: json<string[]>('flag_reasons')
      .notNull()
      .$defaultFn(() => []),
    reviewedAt: text('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    billed: integer('billed', { mode: 'boolean' }).notNull().default(false),
    billedAt: text('billed_at'),
    billingId: text('billing_id'),
    billingReference: text('billing_reference'),
    reservationId: text('reservation_id'),
    chargedCents: integer('charged_cents'),
    notes: text('notes'),
    readBy: text('read_by'),
    ...timestamps(),
  },
  (t) => [
    index('meter_readings_unit_idx').on(t.customerId, t.slipId, t.utility, t.readAt),
    index('meter_readings_location_idx').on(t.customerId, t.locationId, t.billed, t.readAt),
    // A reading is the previous one of at most one reading: two readings recorded at once for a unit
    // and utility cannot both count usage from the same previous reading (the second one retries).
    uniqueIndex('meter_readings_chain_uq').on(t.customerId, t.slipId, t.utility, t.previousReadingId),
  ],
);
