import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** A group of assets of one location that the operator sells as one pool. */
export const assetPools = sqliteTable(
  'asset_pools',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    assetIds: json<string[]>('asset_ids').notNull(),
    details: json<Record<string, unknown>>('details')
      .notNull()
      .$defaultFn(() => ({})),
    ...timestamps(),
  },
  (t) => [index('asset_pools_customer_idx').on(t.customerId, t.locationId)],
);
