import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/**
 * Marina units (slips, side-ties, moorings, dry-rack spaces). Dimensions in feet; a null dimension
 * does not constrain the fit. The map pin (map id and position) lives on the unit: a unit is on at
 * most one map. `DELETE /slips/{id}` sets `out_of_service` (the row and its history stay).
 */
export const slips = sqliteTable(
  'slips',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    unitNumber: text('unit_number').notNull(),
    name: text('name'),
    section: text('section'),
    unitType: text('unit_type', { enum: ['slip', 'side_tie', 'mooring', 'dry_rack'] })
      .notNull()
      .default('slip'),
    lengthFt: real('length_ft'),
    maxLoaFt: real('max_loa_ft'),
    widthFt: real('width_ft'),
    depthFt: real('depth_ft'),
    overheadClearanceFt: real('overhead_clearance_ft'),
    power: json<{ amps: number[]; volts: number | null; phase: string | null }>('power'),
    water: integer('water', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: ['available', 'occupied', 'reserved', 'maintenance', 'out_of_service'] })
      .notNull()
      .default('available'),
    /** Rate overrides of this unit in cents per foot (nightly, monthly, seasonal, annual). */
    rates: json<Record<string, number>>('rates'),
    amenities: json<string[]>('amenities')
      .notNull()
      .$defaultFn(() => []),
    notes: text('notes'),
    mapId: text('map_id'),
    mapX: real('map_x'),
    mapY: real('map_y'),
    mapRotation: real('map_rotation'),
    ...timestamps(),
  },
  (t) => [
    // Unit numbers are unique per location without regard to case ("d-01" is "D-01"), in the database too: two racing creates cannot both win.
    uniqueIndex('slips_unit_uq').on(t.customerId, t.locationId, sql`lower(${t.unitNumber})`),
    index('slips_location_idx').on(t.customerId, t.locationId, t.status),
    index('slips_map_idx').on(t.customerId, t.mapId),
  ],
);

/**
 * The operator's slip subscription at the payment provider: `quota` slips subscribed; the billed
 * quantity is max(quota, slips in service), so slips above the quota are billed automatically.
 */
export const slipSubscriptions = sqliteTable('slip_subscriptions', {
  customerId: text('customer_id').primaryKey(),
  status: text('status').notNull().default('none'),
  providerSubscriptionId: text('provider_subscription_id'),
  checkoutSessionId: text('checkout_session_id'),
  quota: integer('quota').notNull().default(0),
  billedQuantity: integer('billed_quantity').notNull().default(0),
  unitAmountCents: integer('unit_amount_cents').notNull().default(1000),
  cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
  currentPeriodEnd: text('current_period_end'),
  lastSyncedAt: text('last_synced_at'),
  ...timestamps(),
});
