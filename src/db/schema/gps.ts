import { sqliteTable, text, integer, real, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

export interface GpsPoint {
  lat: number;
  lng: number;
}

/**
 * The home (return) area of a location: one of the location's geofences (the `geofences` resource
 * of the partner gateway), the one auto-return and overdue checks use. A home area whose geofence
 * was deleted is ignored.
 */
export const gpsHomeAreas = sqliteTable(
  'gps_home_areas',
  {
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    geofenceId: text('geofence_id').notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.locationId] })],
);

/** A tracker on a boat (an asset), authenticated with its own key (stored as a hash). */
export const gpsDevices = sqliteTable(
  'gps_devices',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    deviceName: text('device_name').notNull(),
    inventoryId: text('inventory_id'),
    assetId: text('asset_id'),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    lastLat: real('last_lat'),
    lastLng: real('last_lng'),
    lastAccuracy: real('last_accuracy'),
    /** Epoch milliseconds of the newest fix processed (older fixes are stored but change no state). */
    lastFixAt: integer('last_fix_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('gps_devices_name_uq').on(t.customerId, t.deviceName), uniqueIndex('gps_devices_key_uq').on(t.keyHash)],
);

/** Where a device stands against each geofence: confirmed state and the streak of consecutive accurate fixes pointing the other way. */
export const gpsFenceStates = sqliteTable(
  'gps_fence_states',
  {
    deviceId: text('device_id').notNull(),
    geofenceId: text('geofence_id').notNull(),
    customerId: tenant(),
    state: text('state', { enum: ['inside', 'outside'] }).notNull(),
    /** Consecutive accurate fixes on the other side of the boundary (2 confirm a crossing). */
    streak: integer('streak').notNull().default(0),
    changedAt: integer('changed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.geofenceId] })],
);

/** Positions reported by devices. */
export const gpsFixes = sqliteTable(
  'gps_fixes',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    deviceId: text('device_id').notNull(),
    lat: real('lat').notNull(),
    lng: real('lng').notNull(),
    accuracyMeters: real('accuracy_meters'),
    speedMps: real('speed_mps'),
    heading: real('heading'),
    /** Epoch milliseconds. */
    recordedAt: integer('recorded_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('gps_fixes_device_idx').on(t.deviceId, t.recordedAt)],
);

/** Alerts: a geofence exit, an overdue return, an automatic return. `dedupeKey` makes each fire once. */
export const gpsAlerts = sqliteTable(
  'gps_alerts',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    type: text('type', { enum: ['geofence_exit', 'overdue_return', 'auto_returned'] }).notNull(),
    geofenceId: text('geofence_id'),
    rentalId: text('rental_id'),
    lat: real('lat'),
    lng: real('lng'),
    accuracyMeters: real('accuracy_meters'),
    message: text('message').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    details: json<Record<string, unknown>>('details'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('gps_alerts_dedupe_uq').on(t.customerId, t.dedupeKey),
    index('gps_alerts_location_idx').on(t.customerId, t.locationId, t.createdAt),
    index('gps_alerts_device_idx').on(t.customerId, t.deviceName, t.createdAt),
  ],
);

/** GPS settings of an operator. */
export const gpsSettings = sqliteTable('gps_settings', {
  customerId: text('customer_id').primaryKey(),
  /** Mark a checked-in rental returned (booking.checked_out) when its boat is back inside its home geofence. */
  autoReturn: integer('auto_return', { mode: 'boolean' }).notNull().default(false),
  /** Fixes less accurate than this (meters) are ignored for geofence decisions. */
  maxAccuracyMeters: real('max_accuracy_meters').notNull().default(50),
  /** Minutes after a rental's end before its boat, still out, is overdue. */
  overdueGraceMinutes: integer('overdue_grace_minutes').notNull().default(15),
  ...timestamps(),
});
