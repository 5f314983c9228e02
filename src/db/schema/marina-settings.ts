import { sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Marina booking settings of a location: only the values the operator changed (GET merges the defaults). */
export const slipSettings = sqliteTable(
  'slip_settings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    settings: json<Record<string, unknown>>('settings')
      .notNull()
      .$defaultFn(() => ({})),
    ...timestamps(),
  },
  (t) => [uniqueIndex('slip_settings_location_uq').on(t.customerId, t.locationId)],
);
