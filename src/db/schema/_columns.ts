import { text } from 'drizzle-orm/sqlite-core';
import { ambientNowIso } from '../../lib/clock';

/**
 * Shared column sets. Timestamps are ISO-8601 UTC strings (sortable, readable in D1 consoles). Their
 * defaults read the clock of the code that writes (the operator's test clock in a sandbox with one;
 * lib/clock.ts `withClock`).
 */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .$defaultFn(() => ambientNowIso());
export const updatedAt = () =>
  text('updated_at')
    .notNull()
    .$defaultFn(() => ambientNowIso())
    .$onUpdateFn(() => ambientNowIso());
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** Tenant column: every operator-owned row carries it and every query filters by it. */
export const tenant = () => text('customer_id').notNull();
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();
