import { sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

/** SQL expressions that change JSON columns inside one UPDATE (no read-modify-write). */

/**
 * SQL that appends the JSON array `items` to the JSON array in `column`, atomically inside the
 * UPDATE (so two writers appending at once both keep their items). Both sides are minified with
 * `json()` and spliced as text, which keeps objects, strings and numbers exactly as written.
 */
export function sqlJsonAppend(column: AnySQLiteColumn | SQL, items: unknown[]): SQL {
  const add = JSON.stringify(items);
  return sql`(CASE WHEN json_array_length(${add}) = 0 THEN json(coalesce(${column}, '[]'))
    WHEN json_array_length(coalesce(${column}, '[]')) = 0 THEN json(${add})
    ELSE substr(json(${column}), 1, length(json(${column})) - 1) || ',' || substr(json(${add}), 2) END)`;
}

/** Appends the strings of `items` that the JSON array in `column` does not hold yet. */
export function sqlJsonAppendUnique(column: AnySQLiteColumn, items: string[]): SQL {
  const add = JSON.stringify([...new Set(items)]);
  const fresh = sql`(SELECT coalesce(json_group_array(value), '[]') FROM json_each(${add}) WHERE value NOT IN (SELECT value FROM json_each(coalesce(${column}, '[]'))))`;
  return sql`(CASE WHEN json_array_length(${fresh}) = 0 THEN json(coalesce(${column}, '[]'))
    WHEN json_array_length(coalesce(${column}, '[]')) = 0 THEN ${fresh}
    ELSE substr(json(${column}), 1, length(json(${column})) - 1) || ',' || substr(${fresh}, 2) END)`;
}

/** JSON merge patch (RFC 7396) of an object column, done by SQLite inside the UPDATE. */
export const sqlJsonMerge = (column: AnySQLiteColumn, patch: Record<string, unknown>): SQL =>
  sql`json_patch(coalesce(${column}, '{}'), ${JSON.stringify(patch)})`;

/** The renter of an operator with this e-mail (deleted ones included: the upsert revives them). */
