/** The lock object's read coalescer (src/db/coalesce.ts): one call at once when alone, one call for the reads that wait, failures kept apart. */
import { describe, it, expect } from 'vitest';
import { BatchCoalescer, isStatementError } from '../../src/db/coalesce';

/** A statement stand-in: the coalescer only passes statements through. */
const st = (name: string) => name as unknown as D1PreparedStatement;
const result = (name: string) => ({ results: [{ name }], success: true, meta: {} }) as unknown as D1Result;

function fakeDb(failOn?: string, failure = (name: string) => new Error(`bad statement ${name}: SQLITE_CONSTRAINT`)) {
  const calls: string[][] = [];
  let waiting: (() => void)[] = [];
  const send = async (statements: D1PreparedStatement[]) => {
    const names = statements as unknown as string[];
    calls.push(names);
    await new Promise<void>((r) => waiting.push(r));
    if (failOn && names.includes(failOn)) throw failure(failOn);
    return names.map(result);
  };
  const tick = async () => {
    await new Promise((r) => setTimeout(r, 0));
    const now = waiting;
    waiting = [];
    for (const r of now) r();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { calls, send, tick };
}

describe('BatchCoalescer', () => {
  it('sends a lone read at once, and the reads that arrive meanwhile together as the next batch, each answered its own slice', async () => {
    const db = fakeDb();
    const c = new BatchCoalescer(db.send);
    const a = c.batch([st('a1'), st('a2')]);
    expect(db.calls).toEqual([['a1', 'a2']]);
    const b = c.batch([st('b1')]);
    const d = c.batch([st('d1'), st('d2'), st('d3')]);
    expect(db.calls).toHaveLength(1);
    await db.tick();
    expect((await a).map((r) => r.results)).toEqual([[{ name: 'a1' }], [{ name: 'a2' }]]);
    expect(db.calls).toEqual([
      ['a1', 'a2'],
      ['b1', 'd1', 'd2', 'd3'],
    ]);
    await db.tick();
    expect((await b).map((r) => r.results)).toEqual([[{ name: 'b1' }]]);
    expect((await d).map((r) => r.results)).toEqual([[{ name: 'd1' }], [{ name: 'd2' }], [{ name: 'd3' }]]);
    // Idle again: the next read goes out at once.
    const e = c.batch([st('e1')]);
    expect(db.calls).toHaveLength(3);
    await db.tick();
    expect((await e)[0].results).toEqual([{ name: 'e1' }]);
  });

  it('a coalesced call failed by a statement is retried batch by batch, in order: only the batch at fault fails', async () => {
    const db = fakeDb('bad');
    const c = new BatchCoalescer(db.send);
    const first = c.batch([st('a1')]);
    const good = c.batch([st('g1')]);
    const bad = c.batch([st('bad')]);
    const settled = Promise.allSettled([first, good, bad]);
    for (let i = 0; i < 6; i++) await db.tick();
    const [f, g, b] = await settled;
    expect(f.status).toBe('fulfilled');
    expect(g).toMatchObject({ status: 'fulfilled', value: [{ results: [{ name: 'g1' }] }] });
    expect(b).toMatchObject({ status: 'rejected', reason: new Error('bad statement bad: SQLITE_CONSTRAINT') });
    expect(db.calls).toEqual([['a1'], ['g1', 'bad'], ['g1'], ['bad']]);
  });

  it('a coalesced call in doubt (not a statement error: it may have committed) fails every batch in it, and nothing is sent again', async () => {
    const lost = new Error('D1_ERROR: Network connection lost.');
    const db = fakeDb('w2', () => lost);
    const c = new BatchCoalescer(db.send);
    const first = c.batch([st('a1')]);
    const w1 = c.batch([st('w1')]);
    const w2 = c.batch([st('w2')]);
    const settled = Promise.allSettled([first, w1, w2]);
    for (let i = 0; i < 6; i++) await db.tick();
    const [f, one, two] = await settled;
    expect(f.status).toBe('fulfilled');
    expect(one).toMatchObject({ status: 'rejected', reason: lost });
    expect(two).toMatchObject({ status: 'rejected', reason: lost });
    expect(db.calls).toEqual([['a1'], ['w1', 'w2']]);
  });

  it('tells a statement SQLite refused (rolled back) from a call in doubt, in the message or its cause', () => {
    expect(isStatementError(new Error('D1_ERROR: UNIQUE constraint failed: bookings.id: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_PRIMARYKEY)'))).toBe(
      true,
    );
    expect(
      isStatementError(new Error('Failed query: insert ...', { cause: new Error('allocation_conflict: asset already allocated: SQLITE_CONSTRAINT') })),
    ).toBe(true);
    expect(isStatementError(new Error('D1_ERROR: no such table: nothere: SQLITE_ERROR'))).toBe(true);
    for (const m of ['D1_ERROR: Network connection lost.', 'D1 DB is overloaded. Too many requests queued.', 'D1_ERROR: internal error; reference = abc'])
      expect(isStatementError(new Error(m)), m).toBe(false);
  });
});
