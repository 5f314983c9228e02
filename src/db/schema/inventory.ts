import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Rentable inventory item: a boat type backed by a pool of identical assets, or a tour with seats.
 * `data` holds the settings, pricing, capacity and pool configuration validated by
 * `src/modules/inventory/model.ts` (InventoryData).
 */
export const inventoryItems = sqliteTable(
  'inventory_items',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['rental', 'tour'] })
      .notNull()
      .default('rental'),
    data: json<Record<string, unknown>>('data')
      .notNull()
      .$defaultFn(() => ({})),
    displayOrder: integer('display_order').notNull().default(0),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(true),
    /**
     * Incremented on every write of `data`; the lock object caches items by version. A trigger
     * (migration 0003_inventory_version_guard) aborts an UPDATE that sets it to anything but the
     * stored value + 1, so set it to the version you read + 1 (or `version + 1`).
     */
    version: integer('version').notNull().default(1),
    /**
     * Bumped by triggers (migration `allocation_seq`) on every insert, update or delete of the
     * item's allocations: readers cache computed availability keyed by (version, allocSeq).
     */
    allocSeq: integer('alloc_seq').notNull().default(0),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('inventory_customer_idx').on(t.customerId, t.displayOrder), index('inventory_location_idx').on(t.locationId)],
);

/** Physical units of an item's pool (boat #1, boat #2, ...). Tours have none. */
export const inventoryAssets = sqliteTable(
  'inventory_assets',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    itemId: text('item_id').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    displayOrder: integer('display_order').notNull().default(0),
    /** Asset map pin: `{x, y}` in percent of the map image, plus free-form label data. */
    mapPin: json<Record<string, unknown>>('map_pin'),
    details: json<Record<string, unknown>>('details'),
    ...timestamps(),
  },
  (t) => [index('inventory_assets_item_idx').on(t.itemId, t.displayOrder)],
);

/**
 * Time taken out of an item: bookings, holds, drydock and maintenance. Every sale writes its
 * allocation inside the item's lock object; the triggers of migration `0001_allocation_guards`
 * refuse an overlapping asset allocation or seats beyond capacity even if the lock were bypassed.
 * Times are epoch milliseconds (UTC); `blockedStart`/`blockedEnd` include turnaround buffers.
 */
export const allocations = sqliteTable(
  'allocations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    itemId: text('item_id').notNull(),
    /** Set for asset-based items (rentals); null for seat-based tour allocations. */
    assetId: text('asset_id'),
    kind: text('kind', { enum: ['booking', 'hold', 'drydock', 'maintenance'] }).notNull(),
    /** The booking (rental) id, hold id or drydock id that owns this allocation. */
    sourceId: text('source_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    blockedStart: integer('blocked_start').notNull(),
    blockedEnd: integer('blocked_end').notNull(),
    /** Seats taken (tours) or 1 (assets). */
    seats: integer('seats').notNull().default(1),
    /** Seat capacity of the slot at the time of the sale (tours); checked by the trigger. */
    capacity: integer('capacity'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    expiresAt: integer('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('allocations_item_window_idx').on(t.itemId, t.active, t.blockedStart),
    index('allocations_asset_window_idx').on(t.assetId, t.active, t.blockedStart),
    index('allocations_source_idx').on(t.sourceId),
  ],
);

/** Inventory condition records (`/boatRecords`): check-out, check-in, damage, fuel, ... */
export const boatRecords = sqliteTable(
  'boat_records',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    inventoryId: text('inventory_id').notNull(),
    recordType: text('record_type').notNull(),
    details: json<Record<string, unknown>>('details').notNull(),
    rentalId: text('rental_id'),
    assetId: text('asset_id'),
    /** Sort key given by the client (ISO-8601); unique per item. */
    timestamp: text('timestamp').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('boat_records_item_ts_uq').on(t.customerId, t.inventoryId, t.timestamp), index('boat_records_type_idx').on(t.inventoryId, t.recordType)],
);
