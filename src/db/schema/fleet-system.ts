import { sqliteTable, text, integer, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Product of the fleet system for a Berth inventory item (or one asset of it). */
export interface FleetProductMapping {
  inventoryId: string;
  assetId?: string | null;
  productId: string;
}

/** An operator's fleet-software link (client credentials; the secret and the cached token are sealed). */
export const fleetsysLinks = sqliteTable('fleetsys_links', {
  customerId: text('customer_id').primaryKey(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  tokenUrl: text('token_url').notNull(),
  apiBaseUrl: text('api_base_url').notNull(),
  status: text('status', { enum: ['active', 'error'] })
    .notNull()
    .default('active'),
  accessToken: text('access_token'),
  tokenExpiresAt: integer('token_expires_at'),
  productMappings: json<FleetProductMapping[]>('product_mappings')
    .notNull()
    .$defaultFn(() => []),
  lastTestedAt: text('last_tested_at'),
  lastError: text('last_error'),
  ...timestamps(),
});

/** One fleet reservation per (booking, asset): the idempotency record of POST /fleetsys/sync-booking. */
export const fleetsysSyncs = sqliteTable(
  'fleetsys_syncs',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    /** The asset, or `-` for a line without one (tours). */
    assetKey: text('asset_key').notNull(),
    externalBookingId: text('external_booking_id').notNull(),
    productId: text('product_id').notNull(),
    reservationId: text('reservation_id'),
    invoiceId: text('invoice_id'),
    status: text('status', { enum: ['pending', 'synced'] }).notNull(),
    /** Epoch milliseconds: a sync of this booking is under way until then (the first line of a booking is its lock). */
    claimedUntil: integer('claimed_until'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('fleetsys_syncs_rental_asset_uq').on(t.customerId, t.rentalId, t.assetKey)],
);
