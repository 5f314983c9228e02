/**
 * Many rows of one table in a few statements: `INSERT … SELECT … FROM json_each('…')` with the rows
 * as one JSON text, in chunks. D1 runs each statement with its own overhead (about half a
 * millisecond locally), so thousands of one-row inserts cost seconds where a few dozen of these cost
 * tens of milliseconds. The JSON is a quoted SQL literal, not a bound parameter: drizzle 0.45 cannot
 * batch a raw statement with parameters (its D1 batch binds through a prepared statement that a raw
 * query does not have), and each chunk stays under D1's 100 KB statement length.
 *
 * Rows are mapped the way drizzle's insert maps them: each column's driver value (JSON columns
 * serialized, booleans as 0 and 1), a missing value taken from the column's `$defaultFn` or
 * literal default. A column whose default is SQL is left to the database when no row sets it.
 * For seeds and back-fills; a sale writes its rows through `commit`.
 */
import { getTableColumns, is, sql, SQL, type Column } from 'drizzle-orm';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DB, Stmt } from './client';

/** At most this many bytes of JSON per statement (D1 refuses statements over 100,000 bytes). */
const CHUNK_BYTES = 90_000;

function fill(col: Column, value: unknown): unknown {
  if (value !== undefined) return value;
  const d = col.defaultFn ? col.defaultFn() : col.default;
  if (d === undefined || is(d, SQL)) return undefined;
  return d;
}

/** Statements that insert `rows` into `table` (none for no rows); run them in a batch. */
export function bulkInsert<T extends SQLiteTable>(db: DB, table: T, rows: T['$inferInsert'][]): Stmt[] {
  if (!rows.length) return [];
  const columns = Object.entries(getTableColumns(table)) as [string, Column][];
  const values = rows.map((r) => columns.map(([key, col]) => fill(col, (r as Record<string, unknown>)[key])));
  // Columns no row gives a value (after defaults) are left to the database's own default.
  const used = columns.map((_, i) => values.some((v) => v[i] !== undefined));
  for (const [i, [key, col]] of columns.entries()) {
    if (used[i] && values.some((v) => v[i] === undefined) && col.hasDefault) {
      throw new Error(`bulkInsert: ${key} has an SQL default; give it in every row or in none`);
    }
  }
  const keep = columns.flatMap(([, col], i) => (used[i] ? [{ col, i }] : []));
  const json = values.map((v) => keep.map(({ col, i }) => (v[i] === undefined || v[i] === null ? null : col.mapToDriverValue(v[i]))));
  const names = sql.raw(keep.map(({ col }) => `"${col.name}"`).join(', '));
  const picks = sql.raw(keep.map((_, j) => `json_extract(value, '$[${j}]')`).join(', '));
  const target = sql.raw(`"${getTableConfig(table).name}"`);

  const out: Stmt[] = [];
  let chunk: unknown[][] = [];
  let bytes = 0;
  const flush = () => {
    if (!chunk.length) return;
    const literal = `'${JSON.stringify(chunk).replace(/'/g, "''")}'`;
    out.push(db.all(sql`INSERT INTO ${target} (${names}) SELECT ${picks} FROM json_each(${sql.raw(literal)})`) as unknown as Stmt);
    chunk = [];
    bytes = 0;
  };
  for (const row of json) {
    const size = new TextEncoder().encode(JSON.stringify(row).replace(/'/g, "''")).length + 1;
    if (bytes + size > CHUNK_BYTES) flush();
    chunk.push(row);
    bytes += size;
  }
  flush();
  return out;
}
