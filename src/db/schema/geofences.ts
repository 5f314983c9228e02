import { sqliteTable, text, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

export interface LatLng {
  lat: number;
  lng: number;
}

/** A geofence of a location: a circle (center + radius in meters) or a polygon (3 to 200 points). */
export const geofences = sqliteTable(
  'geofences',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    shape: text('shape', { enum: ['circle', 'polygon'] }).notNull(),
    centerLat: real('center_lat'),
    centerLng: real('center_lng'),
    radiusMeters: real('radius_meters'),
    points: json<LatLng[]>('points'),
    details: json<Record<string, unknown>>('details')
      .notNull()
      .$defaultFn(() => ({})),
    ...timestamps(),
  },
  (t) => [index('geofences_customer_location_idx').on(t.customerId, t.locationId)],
);

/** Last known position of a staff member (one row per user; an older report never overwrites a newer one). */
export const staffLocations = sqliteTable(
  'staff_locations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    userId: text('user_id').notNull(),
    locationId: text('location_id'),
    lat: real('lat').notNull(),
    lng: real('lng').notNull(),
    accuracyMeters: real('accuracy_meters'),
    heading: real('heading'),
    speedMps: real('speed_mps'),
    recordedAt: text('recorded_at').notNull(),
    source: text('source').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('staff_locations_user_uq').on(t.customerId, t.userId), index('staff_locations_location_idx').on(t.customerId, t.locationId)],
);

/** Last known position of an asset (device reports now; the GPS integration writes here too). */
export const assetPositions = sqliteTable(
  'asset_positions',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    assetId: text('asset_id').notNull(),
    itemId: text('item_id').notNull(),
    locationId: text('location_id').notNull(),
    lat: real('lat').notNull(),
    lng: real('lng').notNull(),
    accuracyMeters: real('accuracy_meters'),
    heading: real('heading'),
    speedMps: real('speed_mps'),
    recordedAt: text('recorded_at').notNull(),
    /** `device` (a device report through the API), `gps` (the telematics integration) or `staff`. */
    source: text('source').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('asset_positions_asset_uq').on(t.customerId, t.assetId), index('asset_positions_location_idx').on(t.customerId, t.locationId)],
);
