import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, createdAt } from './_columns';

/** Short links (`/s/{code}`): a redirect to an http(s) URL, valid 30 days, with a click count. */
export const shortLinks = sqliteTable(
  'short_links',
  {
    code: text('code').primaryKey(),
    customerId: text('customer_id').notNull(),
    originalUrl: text('original_url').notNull(),
    metadata: json<Record<string, unknown>>('metadata')
      .notNull()
      .$defaultFn(() => ({})),
    clicks: integer('clicks').notNull().default(0),
    lastClickedAt: text('last_clicked_at'),
    expiresAt: text('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('short_links_customer_idx').on(t.customerId, t.createdAt)],
);
