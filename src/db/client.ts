import { drizzle } from 'drizzle-orm/d1';
import type { BatchItem } from 'drizzle-orm/batch';
import { fillPlaceholders, getTableColumns, getTableName, is, Param, Placeholder, SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Writes made through this isolate, counted per table when they complete. Per-isolate read caches
 * (the availability views) remember the count of the tables they depend on when they were
 * computed, and check D1 again once a write to one of them has landed since: such a cache is never
 * older than a write made through the isolate that holds it.
 */
const writesByTable = new Map<string, number>();
let anyWrites = 0;

/** Completed writes through this isolate to any of `tables` (all tables when none are named). */
export function localWriteCount(tables?: readonly string[]): number {
  if (!tables) return anyWrites;
  let n = 0;
  for (const t of tables) n += writesByTable.get(t) ?? 0;
  return n;
}

const WRITE = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([\w]+)"?/i;
/** The table a statement writes (lower case), or undefined for a read. */
const writtenTable = (query: string): string | undefined => WRITE.exec(query)?.[1]?.toLowerCase();

function countWrite(tables: readonly string[]) {
  anyWrites++;
  for (const t of tables) writesByTable.set(t, (writesByTable.get(t) ?? 0) + 1);
}

function counted<T>(p: Promise<T>, tables: readonly string[]): Promise<T> {
  return p.finally(() => countWrite(tables));
}

/**
 * A batch this isolate had written elsewhere (carried to the inventory lock, which ran it in its own
 * D1 batch): counted as if written here, so this isolate's read caches see it.
 */
export function countCarriedWrite(statements: readonly { sql: string }[]): void {
  const tables = statements.flatMap((s) => writtenTable(s.sql) ?? []);
  if (tables.length) countWrite(tables);
}

class WriteStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly table: string,
  ) {}
  bind(...values: unknown[]) {
    return new WriteStatement(this.inner.bind(...values), this.table);
  }
  first(column?: string) {
    return counted(column === undefined ? this.inner.first() : this.inner.first(column), [this.table]);
  }
  all() {
    return counted(this.inner.all(), [this.table]);
  }
  raw(options?: { columnNames?: boolean }) {
    return counted(this.inner.raw(options as { columnNames: true }), [this.table]);
  }
  run() {
    return counted(this.inner.run(), [this.table]);
  }
}

const tracked = new WeakMap<D1Database, D1Database>();

/** The binding with its writes counted (reads pass through untouched). */
function trackWrites(d1: D1Database): D1Database {
  let t = tracked.get(d1);
  if (!t) {
    const wrapped = {
      prepare: (query: string) => {
        const table = writtenTable(query);
        return table ? new WriteStatement(d1.prepare(query), table) : d1.prepare(query);
      },
      batch: (statements: unknown[]) => {
        const tables = statements.flatMap((s) => (s instanceof WriteStatement ? [s.table] : []));
        const p = d1.batch(statements.map((s) => (s instanceof WriteStatement ? s.inner : (s as D1PreparedStatement))));
        return tables.length ? counted(p, tables) : p;
      },
      exec: (query: string) => counted(d1.exec(query), []),
      dump: () => d1.dump(),
      withSession: (...args: Parameters<D1Database['withSession']>) => d1.withSession(...args),
    };
    t = wrapped as unknown as D1Database;
    tracked.set(d1, t);
  }
  return t;
}

export const getDb = (d1: D1Database) => drizzle(trackWrites(d1));
export type DB = ReturnType<typeof getDb>;
export type Stmt = BatchItem<'sqlite'>;
/** Runs a batch somewhere else than the caller's database (a sale's write run by its item's lock), answered as `db.batch` answers. */
export type BatchRunner = (statements: Stmt[]) => Promise<unknown[]>;

/**
 * Statements built once per isolate. drizzle builds a statement's SQL text from its query tree on
 * every use, and on a sale's hot path that building was most of drizzle's share of the Worker's CPU
 * (a profile under 16 booking clients: a third of the isolate's samples in drizzle, four fifths of
 * them building). `reusable(db, key, build, values)` builds the query once per `key` with
 * `sql.placeholder(name)` for each value that varies, keeps drizzle's prepared query, and answers a
 * query of THIS request's database (its round trips and writes are counted for this request) with
 * `values` bound, usable in `db.batch([...])` or with `.all()` / `.get()`. Rows are mapped by drizzle
 * exactly as for a query built on the spot. `key` names the query's shape: every variant (an
 * optional condition present or not) has its own key.
 */
const reusableQueries = new Map<string, PreparedLike>();

interface PreparedLike {
  query: { sql: string; params: unknown[] };
  stmt: unknown;
}

export function reusable<Q>(db: DB, key: string, build: (db: DB) => Q, values: Record<string, unknown>): Q {
  let prepared = reusableQueries.get(key);
  if (!prepared) {
    prepared = (build(db) as unknown as { _prepare(isOneTimeQuery?: boolean): PreparedLike })._prepare(false);
    reusableQueries.set(key, prepared);
  }
  const query = { sql: prepared.query.sql, params: fillPlaceholders(prepared.query.params as Parameters<typeof fillPlaceholders>[0], values) };
  return bindPrepared(db, prepared, query) as unknown as Q;
}

/**
 * `db.insert(table).values(rows)` with its SQL built once per table and number of rows. drizzle
 * writes every column of an INSERT (a default or null for those not given) and builds the text from
 * its query tree on every use; on a sale's write that building was the Worker's largest cost. Here
 * the statement is built once with a placeholder per row and column, and each use binds the row's
 * values with exactly what drizzle would bind: the value given, else the column's default, else its
 * `$defaultFn` (called now), else its `$onUpdateFn`, else null; each through the column's encoder
 * (JSON, booleans), null as null. A row holding SQL (an expression, not a value), or a column whose
 * default is SQL, takes drizzle's own way. test/unit/insert-rows.test.ts checks the two agree.
 */
type Column = ReturnType<typeof getTableColumns>[string];

/** A built INSERT of one table and row count: its prepared query, and for each of its parameters the row and column it binds (or a fixed value). */
interface InsertShape {
  table: SQLiteTable;
  prepared: PreparedLike;
  slots: ({ row: number; key: string; col: Column; encoder: { mapToDriverValue(v: unknown): unknown } } | { fixed: unknown })[];
}
const insertShapes = new Map<string, InsertShape>();
const insertColumns = new WeakMap<SQLiteTable, [string, Column][]>();

export function insertRows<T extends SQLiteTable>(db: DB, table: T, rows: T['$inferInsert'] | T['$inferInsert'][]): Stmt {
  const list = (Array.isArray(rows) ? rows : [rows]) as Record<string, unknown>[];
  const shape = list.length ? insertShapeOf(db, table, list.length) : undefined;
  const params: unknown[] = [];
  for (const slot of shape?.slots ?? []) {
    if ('fixed' in slot) {
      params.push(slot.fixed);
      continue;
    }
    const v = valueOf(list[slot.row][slot.key], slot.col);
    // SQL, not a value (or no rows): drizzle's own way.
    if (v === SQL_VALUE) return db.insert(table).values(rows as T['$inferInsert']) as unknown as Stmt;
    params.push(v === null ? null : slot.encoder.mapToDriverValue(v));
  }
  if (!shape) return db.insert(table).values(rows as T['$inferInsert']) as unknown as Stmt;
  const query = { sql: shape.prepared.query.sql, params };
  const bound = bindPrepared(db, shape.prepared, query);
  // Awaitable and inspectable as drizzle's builder is (`await insertRows(...)` runs it alone).
  const run = bound.run;
  return Object.assign(bound, {
    toSQL: () => query,
    then: <A, B = never>(ok?: (v: unknown) => A | PromiseLike<A>, fail?: (e: unknown) => B | PromiseLike<B>) => run().then(ok, fail),
  }) as unknown as Stmt;
}

/** The INSERT of `n` rows of `table`, built once per isolate with a placeholder per row and column. */
function insertShapeOf(db: DB, table: SQLiteTable, n: number): InsertShape {
  const name = `${getTableName(table)}|${n}`;
  const cached = insertShapes.get(name);
  if (cached && cached.table === table) return cached;
  let columns = insertColumns.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)).filter(([, c]) => !(c as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
    insertColumns.set(table, columns);
  }
  const byName = new Map<string, { row: number; key: string; col: Column }>();
  const placeholders = Array.from({ length: n }, (_, row) =>
    Object.fromEntries(
      columns.map(([key, col]) => {
        byName.set(`r${row}_${key}`, { row, key, col });
        return [key, sql.placeholder(`r${row}_${key}`)];
      }),
    ),
  );
  const built = db.insert(table).values(placeholders as never) as unknown as { _prepare(isOneTimeQuery?: boolean): PreparedLike };
  const prepared = built._prepare(false);
  const slots = (prepared.query.params as unknown[]).map((p) =>
    is(p, Param) && is(p.value, Placeholder) ? { ...byName.get(p.value.name)!, encoder: p.encoder } : { fixed: p },
  );
  const shape: InsertShape = { table, prepared, slots };
  insertShapes.set(name, shape);
  return shape;
}

const SQL_VALUE = Symbol('sql');

/** What drizzle binds for a column of a row (buildInsertQuery's rules); SQL_VALUE when it is SQL, not a value. */
function valueOf(given: unknown, col: Column): unknown {
  if (given !== undefined) return is(given, SQL) ? SQL_VALUE : given;
  let v: unknown;
  if (col.default !== null && col.default !== undefined) v = col.default;
  else if (col.defaultFn !== undefined) v = col.defaultFn();
  else if (!col.default && col.onUpdateFn !== undefined) v = col.onUpdateFn();
  else return null;
  return is(v, SQL) ? SQL_VALUE : v;
}

/** A prepared query of THIS request's database with its text and parameters bound (usable in `db.batch`, or run alone). */
function bindPrepared(db: DB, prepared: PreparedLike, query: { sql: string; params: unknown[] }) {
  const bound = Object.create(prepared) as PreparedLike & { all(): Promise<unknown>; get(): Promise<unknown>; run(): Promise<unknown> };
  bound.query = query;
  bound.stmt = db.$client.prepare(query.sql);
  return { _prepare: () => bound, all: () => bound.all(), get: () => bound.get(), run: () => bound.run() };
}

/**
 * A read carried by another caller's batch: SQL text and parameters, run inside a Durable Object's
 * own D1 batch (the inventory lock's read) so one round trip serves both. Each carried statement's
 * raw result comes back, and `takeCarried` maps it through the statement's own drizzle mapper,
 * exactly as `db.batch` would have.
 */
type SqlValue = string | number | boolean | null;
export interface CarriedStatement {
  sql: string;
  params: SqlValue[];
}
export interface CarriedResult {
  results: Record<string, SqlValue>[];
}
interface Mappable {
  _prepare(): { getQuery(): { sql: string; params: unknown[] }; mapResult(r: unknown, isFromBatch: boolean): unknown };
}

/**
 * The statements to carry: their SQL text and parameters, and `take`, which maps the carried results
 * as `db.batch(statements)` would answer them. Each statement is prepared once (drizzle builds a
 * statement's SQL text on every `_prepare`, and on a sale's write that building is a fifth of the
 * Worker's CPU).
 */
export function carry(statements: readonly Stmt[]): { statements: CarriedStatement[]; take(results: readonly unknown[]): unknown[] } {
  const prepared = statements.map((s) => (s as unknown as Mappable)._prepare());
  return {
    statements: prepared.map((p) => {
      const q = p.getQuery();
      return { sql: q.sql, params: q.params as SqlValue[] };
    }),
    take: (results) => prepared.map((p, i) => p.mapResult(results[i], true)),
  };
}

/** Carried statements as D1 statements of `d1` (a Durable Object's own binding, or the caller's). */
export const bindCarried = (d1: D1Database, statements: readonly CarriedStatement[]): D1PreparedStatement[] =>
  statements.map((s) => d1.prepare(s.sql).bind(...s.params));

/**
 * One D1 batch of this caller's statements and the carried ones: this caller's results mapped as
 * `db.batch` maps them, the carried ones raw (they are mapped by the caller that built them).
 * `send` sends the batch instead of the database (a Durable Object's read coalescer, db/coalesce.ts).
 */
export async function batchCarrying(
  db: DB,
  statements: readonly Stmt[],
  carried: readonly CarriedStatement[],
  send?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>,
): Promise<{ own: unknown[]; carried: CarriedResult[] }> {
  if (!carried.length && !send) return { own: (await db.batch(statements as [Stmt, ...Stmt[]])) as unknown[], carried: [] };
  const own = carry(statements);
  const client = db.$client;
  const raw = await (send ?? ((b: D1PreparedStatement[]) => client.batch(b)))(bindCarried(client, [...own.statements, ...carried]));
  return {
    own: own.take(raw),
    carried: raw.slice(statements.length).map((r) => ({ results: r.results as Record<string, SqlValue>[] })),
  };
}
