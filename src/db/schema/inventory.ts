import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Rentable inventory item (a boat type, a pool of identical boats, or a tour). Extended by the inventory module. */
export const inventoryItems = sqliteTable(
  'inventory_items',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['rental', 'tour'] }).notNull().default('rental'),
    data: json<Record<string, unknown>>('data').notNull().$defaultFn(() => ({})),
    displayOrder: integer('display_order').notNull().default(0),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('inventory_customer_idx').on(t.customerId, t.displayOrder), index('inventory_location_idx').on(t.locationId)],
);
