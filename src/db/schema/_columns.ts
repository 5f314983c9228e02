import { text } from 'drizzle-orm/sqlite-core';

/** Shared column sets. Timestamps are ISO-8601 UTC strings (sortable, readable in D1 consoles). */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString());
export const updatedAt = () =>
  text('updated_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString())
    .$onUpdateFn(() => new Date().toISOString());
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** Tenant column: every operator-owned row carries it and every query filters by it. */
export const tenant = () => text('customer_id').notNull();
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();
