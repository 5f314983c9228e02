/**
 * The sale pipeline (src/modules/availability/sell.ts) on its own: the phases run in their fixed
 * order, a failure runs the recorded undos newest first and answers as the policy says (or the
 * error itself), nothing is undone once the write committed, a failing `after` phase is logged and
 * the sale still answers, and leases of other locks are released on failure before the answer.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { systemCtx } from '../../src/lib/context';
import { ApiError } from '../../src/lib/errors';
import { SALE_PHASES, sell, type SalePolicy } from '../../src/modules/availability/service';

type State = { log: string[] };

function policy(o: { failAt?: string; failure?: (err: unknown) => unknown } = {}): SalePolicy<null, State, string[]> {
  const step = (name: string) => async (_ctx: unknown, s: State, j: Parameters<SalePolicy<null, State, string[]>['reserve']>[2]) => {
    s.log.push(name);
    if (name === 'reserve') j.leased('slip lock', async () => void s.log.push('release slip lock'));
    if (name === 'charge') {
      j.onUndo('deposit void', async () => void s.log.push('undo deposit'));
      j.onUndo('refund', async () => void s.log.push('undo refund'));
    }
    if (name === 'write' && o.failAt !== 'write') j.written();
    if (name === o.failAt) throw new Error(`${name} failed`);
  };
  return {
    name: 'test',
    begin: () => ({ log: [] }),
    read: step('read'),
    plan: step('plan'),
    price: step('price'),
    reserve: step('reserve'),
    charge: step('charge'),
    write: step('write'),
    after: step('after'),
    answer: (s) => s.log,
    failure: o.failure,
  };
}

describe('sell()', () => {
  const ctx = () => systemCtx(env, { customerId: 'cus_sell_test' });

  it('runs the phases in their fixed order, answers the state, and releases the lease after the answer', async () => {
    const out = await sell(ctx(), null, policy());
    expect(out.slice(0, SALE_PHASES.length)).toEqual([...SALE_PHASES]);
    await new Promise((r) => setTimeout(r, 0));
    expect(out.slice(SALE_PHASES.length)).toEqual(['release slip lock']);
  });

  it('a failed write runs the undos newest first, releases the lease before answering, and answers the policy’s error', async () => {
    const p = policy({ failAt: 'write', failure: () => new ApiError('payment_failed', 'mapped') });
    const seen: string[][] = [];
    const begin = p.begin;
    p.begin = (c, o) => {
      const s = begin(c, o);
      seen.push(s.log);
      return s;
    };
    await expect(sell(ctx(), null, p)).rejects.toMatchObject({ code: 'payment_failed' });
    expect(seen[0]).toEqual(['read', 'plan', 'price', 'reserve', 'charge', 'write', 'undo refund', 'undo deposit', 'release slip lock']);
  });

  it('without a mapping the error itself is answered; a failure before anything was taken undoes nothing', async () => {
    await expect(sell(ctx(), null, policy({ failAt: 'plan' }))).rejects.toThrow('plan failed');
  });

  it('a failing after phase is logged: the written sale still answers, nothing is undone', async () => {
    const out = await sell(ctx(), null, policy({ failAt: 'after' }));
    expect(out.slice(0, SALE_PHASES.length)).toEqual([...SALE_PHASES]);
    expect(out).not.toContain('undo refund');
  });
});
