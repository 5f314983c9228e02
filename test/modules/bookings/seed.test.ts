/**
 * The sandbox seed's bookings: placed through the booking service, idempotent. The step is checked
 * on a private operator of this test's own (`seedDemoOperator` writes Demo Marina's operator data
 * for any id), so the file needs no empty database; Demo Marina's own run is checked by "seeded,
 * idempotent, the fixed ids are there" (other files in this runtime may have seeded it first).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedDemoOperator, seedSandbox, SEED, tagOf } from '../../../src/seed';
import { bundleOf, DEMO_BUNDLE, demoTransactionId } from '../../../src/seed/bookings';
import { systemCtx } from '../../../src/lib/context';
import { newId } from '../../../src/lib/ids';

const NAMES = ['checked_in', 'pontoon', 'tour', 'installments', 'bundle', 'pay_later', 'cancelled', 'goodwill', 'credit'];

/** The seeded bookings of an operator (`txn_<tag>_*`), without the analytics step's history (`txn_<tag>_hist_*`, test/modules/analytics/seed.test.ts). */
async function demoBookings(customerId: string, tag: string) {
  const rows = await env.DB.prepare(
    'SELECT transaction_id, status, bundle_group_id, item_id FROM bookings WHERE customer_id = ? AND transaction_id LIKE ? AND transaction_id NOT LIKE ?',
  )
    .bind(customerId, `txn_${tag}_%`, `txn_${tag}_hist_%`)
    .all<any>();
  const byTxn = new Map<string, any[]>();
  for (const r of rows.results) byTxn.set(r.transaction_id, [...(byTxn.get(r.transaction_id) ?? []), r]);
  return { rows: rows.results, byTxn };
}

const bundlesOf = async (customerId: string) =>
  JSON.parse((await env.DB.prepare('SELECT settings FROM customers WHERE id = ?').bind(customerId).first<any>()).settings).bundles;

describe('bookings seed', () => {
  it('creates the bundle and demo bookings once (one cancelled, one checked in)', async () => {
    const ctx = systemCtx(env);
    const first = await seedDemoOperator(ctx, { customerId: newId('cus') });
    expect(first.seeded.bookings).toBe(true);
    const op = { tag: tagOf(first.customerId) };
    const txn = (name: string) => demoTransactionId(op, name);
    const { byTxn } = await demoBookings(first.customerId, op.tag);
    expect(byTxn.get(txn('cancelled'))?.[0].status).toBe('cancelled');
    expect(byTxn.get(txn('checked_in'))?.[0].status).toBe('checked_in');
    expect(byTxn.get(txn('pay_later'))?.[0].status).toBe('pending');
    const bundle = byTxn.get(txn('bundle'))!;
    expect(bundle).toHaveLength(2);
    expect(new Set(bundle.map((b) => b.bundle_group_id)).size).toBe(1);
    expect(byTxn.size).toBe(9);
    // The money actions' demo (seed/booking-money.ts): a partial refund and a goodwill credit on a booking that stays confirmed.
    const goodwill = byTxn.get(txn('goodwill'))![0];
    expect(goodwill.status).toBe('confirmed');
    const types = await env.DB.prepare('SELECT entry_type, SUM(amount) AS s FROM ledger_entries WHERE transaction_id = ? GROUP BY entry_type')
      .bind(txn('goodwill'))
      .all<{ entry_type: string; s: number }>();
    expect(Object.fromEntries(types.results.map((t) => [t.entry_type, t.s]))).toMatchObject({
      refund: 2500,
      refund_adjustment: -2500,
      goodwill: -2000,
      credit: 2000,
    });
    // Gwen's next booking pays 15.00 of it with her account credit: 5.00 stays on her account.
    const spent = await env.DB.prepare(
      "SELECT source, SUM(amount) AS s FROM ledger_entries WHERE transaction_id = ? AND entry_type = 'payment' GROUP BY source",
    )
      .bind(txn('credit'))
      .all<{ source: string; s: number }>();
    expect(Object.fromEntries(spent.results.map((t) => [t.source, t.s]))).toEqual({ account_credit: -1500, card: expect.any(Number) });
    const renter = await env.DB.prepare('SELECT renter_id AS id FROM bookings WHERE transaction_id = ?').bind(txn('credit')).first<{ id: string }>();
    const left = await env.DB.prepare(
      "SELECT SUM(amount) AS s FROM ledger_entries WHERE renter_id = ? AND ((entry_type = 'credit' AND source = 'goodwill') OR source = 'account_credit')",
    )
      .bind(renter!.id)
      .first<{ s: number }>();
    expect(left?.s).toBe(500);
    expect(await bundlesOf(first.customerId)).toContainEqual(bundleOf(op));
    const ledger = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_entries WHERE customer_id = ?').bind(first.customerId).first<any>();
    expect(ledger.n).toBeGreaterThan(10);

    const again = await seedDemoOperator(ctx, { customerId: first.customerId });
    expect(again.seeded.bookings).toBe(false);
    expect((await demoBookings(first.customerId, op.tag)).rows).toHaveLength(10);
  });

  // Statuses are checked on the private operator above: Demo Marina's bookings are shared with the other files of this runtime.
  it('gives Demo Marina the bundle and the bookings with their fixed ids, idempotently', async () => {
    await seedSandbox(env);
    expect((await seedSandbox(env)).bookings).toBe(false);
    const { rows, byTxn } = await demoBookings(SEED.demo.customerId, 'demo');
    expect([...byTxn.keys()].sort()).toEqual(NAMES.map((n) => `txn_demo_${n}`).sort());
    expect(rows).toHaveLength(10);
    expect(byTxn.get('txn_demo_bundle')).toHaveLength(2);
    expect(await bundlesOf(SEED.demo.customerId)).toContainEqual(DEMO_BUNDLE);
  });
});
