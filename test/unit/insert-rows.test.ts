/**
 * `insertRows` (src/db/client.ts): an INSERT built once per table and row count binds exactly what
 * drizzle's own `db.insert(table).values(rows)` binds (given values, static defaults, `$defaultFn`
 * and `$onUpdateFn` values, nulls, JSON and boolean encodings), and run against D1 it writes the
 * same rows.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { getDb, insertRows, type DB } from '../../src/db/client';
import { fixedClock, withClock } from '../../src/lib/clock';
import { allocations } from '../../src/db/schema/inventory';
import { bookings } from '../../src/db/schema/bookings';
import { auditLogs } from '../../src/db/schema/accounts';

type Query = { sql: string; params: unknown[] };
/** The statement as D1 runs it: each `?` replaced by its bound value (drizzle writes some nulls inline, insertRows binds them). */
const inline = (q: Query) => {
  let i = 0;
  return q.sql.replace(/\?/g, () => JSON.stringify(q.params[i++] ?? null));
};
const fast = (stmt: unknown): Query => (stmt as { _prepare(): { getQuery(): Query } })._prepare().getQuery();
const at = fixedClock(Date.UTC(2026, 5, 1, 12));

function same<Q>(db: DB, build: () => Q, rows: () => unknown) {
  return withClock(at, () => {
    const theirs = inline((build() as unknown as { toSQL(): Query }).toSQL());
    return { theirs, ours: inline(fast(insertRows(db, ...(rows() as [never, never])))) };
  });
}

const booking = (id: string, over: Partial<typeof bookings.$inferInsert> = {}): typeof bookings.$inferInsert => ({
  id,
  customerId: 'cus_ins',
  transactionId: `txn_${id}`,
  locationId: 'loc_ins',
  itemId: 'inv_ins',
  status: 'confirmed',
  start: 1_780_000_000_000,
  end: 1_780_003_600_000,
  localDate: '2026-06-01',
  assetIds: ['ast_1'],
  customerInfo: { firstName: 'Ines', lastName: 'Row', email: 'ines@rows.test' },
  ...over,
});

describe('insertRows', () => {
  it('binds what drizzle binds: given values, defaults, $defaultFn values, nulls and JSON', () => {
    const db = getDb(env.DB);
    const one = booking('bk_ins_1', { cancellationReason: null, extendedData: { a: 1 } });
    const { theirs, ours } = same(
      db,
      () => db.insert(bookings).values(one),
      () => [bookings, one],
    );
    expect(ours).toEqual(theirs);
  });

  it('several rows in one statement, and booleans (allocations), the same as drizzle; the second use is built from the cache', () => {
    const db = getDb(env.DB);
    const rows = (n: number) =>
      [0, 1].map((i) => ({
        id: `alc_ins_${n}_${i}`,
        customerId: 'cus_ins',
        itemId: 'inv_ins',
        assetId: i ? null : 'ast_1',
        kind: 'booking' as const,
        sourceId: `bk_ins_${n}`,
        start: 1_780_000_000_000 + i,
        end: 1_780_003_600_000,
        blockedStart: 1_780_000_000_000,
        blockedEnd: 1_780_003_600_000,
        seats: 1,
        capacity: null,
        active: i === 0,
        expiresAt: null,
      }));
    for (const n of [1, 2]) {
      const { theirs, ours } = same(
        db,
        () => db.insert(allocations).values(rows(n)),
        () => [allocations, rows(n)],
      );
      expect(ours).toEqual(theirs);
    }
  });

  it('a row holding SQL takes drizzle’s own way', () => {
    const db = getDb(env.DB);
    const row = {
      id: 'aud_ins',
      customerId: 'cus_ins',
      actorType: 'user',
      actorId: 'usr_1',
      action: 'x',
      targetType: 'y',
      details: null,
      requestId: sql`'r1'`,
    };
    const { theirs, ours } = same(
      db,
      () => db.insert(auditLogs).values(row as never),
      () => [auditLogs, row],
    );
    expect(ours).toEqual(theirs);
  });

  it('writes the rows D1 reads back as drizzle wrote them', async () => {
    const db = getDb(env.DB);
    const mine = booking('bk_ins_fast', { extendedData: { via: 'insertRows' }, cancellationReason: null });
    const theirs = booking('bk_ins_slow', { extendedData: { via: 'insertRows' }, cancellationReason: null, transactionId: 'txn_bk_ins_fast' });
    await withClock(at, () => db.batch([insertRows(db, bookings, mine), db.insert(bookings).values(theirs)] as never));
    const [a] = await db.select().from(bookings).where(eq(bookings.id, 'bk_ins_fast'));
    const [b] = await db.select().from(bookings).where(eq(bookings.id, 'bk_ins_slow'));
    expect({ ...a, id: '' }).toEqual({ ...b, id: '' });
  });
});
