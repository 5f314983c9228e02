import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps } from './_columns';

/** Marina maps of a location (an image with slip pins; pins are stored on the slips). */
export const marinaMaps = sqliteTable(
  'marina_maps',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    imageUrl: text('image_url'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('marina_maps_location_idx').on(t.customerId, t.locationId, t.displayOrder)],
);
