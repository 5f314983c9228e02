/**
 * The statement builders through which availability alone writes `allocations`
 * (src/modules/availability/allocation-writes.ts): every UPDATE and DELETE is tenant-scoped (the
 * operator's customer_id, or the cron job's scope), the builders return batchable statements (no
 * round trip of their own), and run against D1 they touch exactly the rows they name.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eq, inArray } from 'drizzle-orm';
import { systemCtx } from '../../src/lib/context';
import { newId } from '../../src/lib/ids';
import { TEST_CLOCK_OPERATOR_PREFIX } from '../../src/lib/clock';
import { allocations } from '../../src/db/schema/inventory';
import type { Stmt } from '../../src/db/client';
import {
  allocationInserts,
  deleteAllocationsOf,
  endAllocationsEarly,
  expireAllocationsOf,
  expireLapsedHoldAllocations,
  releaseAllocationsOf,
} from '../../src/modules/availability/service';
import type { NewAllocation } from '../../src/modules/availability/types';

const HOUR = 3_600_000;
const T0 = Date.UTC(2031, 4, 5, 9);
const CREATED = '2031-05-01T00:00:00.000Z';

const sqlOf = (s: Stmt) => (s as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();

function row(over: Partial<NewAllocation> = {}): NewAllocation {
  return {
    id: newId('alc'),
    customerId: 'cus_a',
    itemId: newId('inv'),
    assetId: newId('ast'),
    kind: 'booking',
    sourceId: 'bk_1',
    start: T0,
    end: T0 + 4 * HOUR,
    blockedStart: T0,
    blockedEnd: T0 + 4 * HOUR + 30 * 60_000,
    seats: 1,
    capacity: null,
    active: true,
    expiresAt: null,
    ...over,
  };
}

describe('allocation statement builders: SQL', () => {
  const ctx = systemCtx(env, { customerId: 'cus_a' });

  it('every update and delete names the operator (customer_id) and binds it', () => {
    const stmts = [
      releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceId: 'bk_1' }),
      releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceIds: ['h_1', 'h_2'] }),
      releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceId: 'wlo_1', kind: 'hold' }),
      endAllocationsEarly(ctx, { customerId: 'cus_a', sourceId: 'bk_1' }, T0),
      deleteAllocationsOf(ctx, { customerId: 'cus_a', sourceIds: ['bk_1'] }),
      expireLapsedHoldAllocations(ctx, T0),
      expireAllocationsOf(ctx, ['ob_1'], T0),
    ];
    for (const s of stmts) {
      const q = sqlOf(s);
      expect(q.sql).toMatch(/^(update|delete from) "allocations"/);
      expect(q.sql).toContain('"allocations"."customer_id" = ?');
      expect(q.params).toContain('cus_a');
    }
  });

  it('one source is matched with =, several with in (...); the kind filter only when asked', () => {
    expect(sqlOf(releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceId: 'bk_1' })).sql).toContain('"allocations"."source_id" = ?');
    const many = sqlOf(releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceIds: ['h_1', 'h_2'] }));
    expect(many.sql).toContain('"allocations"."source_id" in (?, ?)');
    expect(many.sql).not.toContain('"kind"');
    expect(sqlOf(releaseAllocationsOf(ctx, { customerId: 'cus_a', sourceId: 'wlo_1', kind: 'hold' })).params).toEqual([0, 'cus_a', 'wlo_1', 'hold', 1]);
  });

  it('a cron on the wall clock works for every operator but those on a test clock', () => {
    const wall = systemCtx(env);
    for (const s of [expireLapsedHoldAllocations(wall, T0), expireAllocationsOf(wall, ['ob_1'], T0)]) {
      const q = sqlOf(s);
      expect(q.sql).toContain('substr("allocations"."customer_id"');
      expect(q.params).toContain(TEST_CLOCK_OPERATOR_PREFIX);
    }
  });

  it('inserts one statement per reserved row, in order, stamped with createdAt', () => {
    const a = [row({ id: 'alc_1' }), row({ id: 'alc_2' })];
    const b = [row({ id: 'alc_3' })];
    const one = allocationInserts(ctx, { allocations: a }, CREATED).map(sqlOf);
    expect(one).toHaveLength(2);
    expect(one[0].sql).toMatch(/^insert into "allocations"/);
    expect(one[0].params).toContain('alc_1');
    expect(one[0].params).toContain(CREATED);
    const many = allocationInserts(ctx, [{ allocations: a }, { allocations: b }], CREATED).map(sqlOf);
    expect(many.map((q) => q.params.find((p) => typeof p === 'string' && p.startsWith('alc_')))).toEqual(['alc_1', 'alc_2', 'alc_3']);
    expect(allocationInserts(ctx, [], CREATED)).toEqual([]);
  });
});

describe('allocation statement builders: against D1', () => {
  it('touch only the rows of the named operator and sources', async () => {
    const a = `cus_aw_${newId('t')}`;
    const b = `cus_aw_${newId('t')}`;
    const src = newId('bk');
    const hold = newId('hld');
    const mine = row({ customerId: a, sourceId: src });
    // Another operator's row under the same source id (never happens in practice; proves the scoping).
    const theirs = row({ customerId: b, sourceId: src });
    const myHold = row({ customerId: a, sourceId: hold, kind: 'hold', expiresAt: T0 - HOUR });
    const ctx = systemCtx(env, { customerId: a });
    const db = ctx.db;
    await db.batch(allocationInserts(ctx, [{ allocations: [mine, theirs] }, { allocations: [myHold] }], CREATED) as [Stmt, ...Stmt[]]);
    const read = async () =>
      Object.fromEntries(
        (
          await db
            .select()
            .from(allocations)
            .where(inArray(allocations.id, [mine.id, theirs.id, myHold.id]))
            .all()
        ).map((r) => [r.id, r]),
      );

    // A rental returned an hour in: it ends then and keeps its 30-minute turnaround.
    await db.batch([endAllocationsEarly(ctx, { customerId: a, sourceId: src }, T0 + HOUR)]);
    let rows = await read();
    expect([rows[mine.id].end, rows[mine.id].blockedEnd]).toEqual([T0 + HOUR, T0 + HOUR + 30 * 60_000]);
    expect(rows[theirs.id].end).toBe(theirs.end);
    expect(rows[mine.id].createdAt).toBe(CREATED);

    // The job's sweep, scoped to operator a: its lapsed hold stops counting.
    await db.batch([expireLapsedHoldAllocations(ctx, T0)]);
    rows = await read();
    expect(rows[myHold.id].active).toBe(false);

    await db.batch([releaseAllocationsOf(ctx, { customerId: a, sourceId: src })]);
    rows = await read();
    expect([rows[mine.id].active, rows[theirs.id].active]).toEqual([false, true]);

    await db.batch([deleteAllocationsOf(ctx, { customerId: b, sourceIds: [src] })]);
    rows = await read();
    expect(Object.keys(rows).sort()).toEqual([mine.id, myHold.id].sort());
    await db.batch([deleteAllocationsOf(ctx, { customerId: a, sourceIds: [src, hold] })]);
    expect(await db.select().from(allocations).where(eq(allocations.sourceId, src)).all()).toEqual([]);
  });
});
