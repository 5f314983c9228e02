import { drizzle } from 'drizzle-orm/d1';
import type { BatchItem } from 'drizzle-orm/batch';

/**
 * Writes made through this isolate, counted when they complete. Per-isolate read caches (the
 * availability views) remember the count they were computed at, and check D1 again once a write
 * has landed since: a cache is never older than a write made through the isolate that holds it.
 */
let localWrites = 0;
export const localWriteCount = () => localWrites;

const WRITE = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;

function counted<T>(p: Promise<T>): Promise<T> {
  return p.finally(() => {
    localWrites++;
  });
}

class WriteStatement {
  constructor(readonly inner: D1PreparedStatement) {}
  bind(...values: unknown[]) {
    return new WriteStatement(this.inner.bind(...values));
  }
  first(column?: string) {
    return counted(column === undefined ? this.inner.first() : this.inner.first(column));
  }
  all() {
    return counted(this.inner.all());
  }
  raw(options?: { columnNames?: boolean }) {
    return counted(this.inner.raw(options as { columnNames: true }));
  }
  run() {
    return counted(this.inner.run());
  }
}

const tracked = new WeakMap<D1Database, D1Database>();

/** The binding with its writes counted (reads pass through untouched). */
function trackWrites(d1: D1Database): D1Database {
  let t = tracked.get(d1);
  if (!t) {
    const wrapped = {
      prepare: (query: string) => (WRITE.test(query) ? new WriteStatement(d1.prepare(query)) : d1.prepare(query)),
      batch: (statements: unknown[]) => {
        const writes = statements.some((s) => s instanceof WriteStatement);
        const p = d1.batch(statements.map((s) => (s instanceof WriteStatement ? s.inner : (s as D1PreparedStatement))));
        return writes ? counted(p) : p;
      },
      exec: (query: string) => counted(d1.exec(query)),
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
