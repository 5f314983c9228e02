/** The sandbox seed's bookings: placed through the booking service, idempotent. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedSandbox } from '../../../src/seed';
import { DEMO_BUNDLE } from '../../../src/seed/bookings';

// The analytics step's history (`txn_demo_hist_*`) is its own test's concern (test/modules/analytics/seed.test.ts).
describe('bookings seed', () => {
  it('creates the bundle and demo bookings once (one cancelled, one checked in)', async () => {
    const first = await seedSandbox(env);
    expect(first.bookings).toBe(true);
    const rows = await env.DB.prepare(
      `SELECT transaction_id, status, bundle_group_id, item_id FROM bookings WHERE customer_id = 'cus_demo_marina' AND transaction_id LIKE 'txn_demo_%' AND transaction_id NOT LIKE 'txn_demo_hist_%'`,
    ).all<any>();
    const byTxn = new Map<string, any[]>();
    for (const r of rows.results) byTxn.set(r.transaction_id, [...(byTxn.get(r.transaction_id) ?? []), r]);
    expect(byTxn.get('txn_demo_cancelled')?.[0].status).toBe('cancelled');
    expect(byTxn.get('txn_demo_checked_in')?.[0].status).toBe('checked_in');
    expect(byTxn.get('txn_demo_pay_later')?.[0].status).toBe('pending');
    const bundle = byTxn.get('txn_demo_bundle')!;
    expect(bundle).toHaveLength(2);
    expect(new Set(bundle.map((b) => b.bundle_group_id)).size).toBe(1);
    expect(byTxn.size).toBe(7);
    const settings = await env.DB.prepare("SELECT settings FROM customers WHERE id = 'cus_demo_marina'").first<any>();
    expect(JSON.parse(settings.settings).bundles).toContainEqual(DEMO_BUNDLE);
    const ledger = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE customer_id = 'cus_demo_marina'").first<any>();
    expect(ledger.n).toBeGreaterThan(10);

    const again = await seedSandbox(env);
    expect(again.bookings).toBe(false);
    const count = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM bookings WHERE customer_id = 'cus_demo_marina' AND transaction_id LIKE 'txn_demo_%' AND transaction_id NOT LIKE 'txn_demo_hist_%'`,
    ).first<any>();
    expect(count.n).toBe(8);
  });
});
