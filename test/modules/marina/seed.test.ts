/**
 * The sandbox marina at Miami: created once through the services, idempotent. The step is checked on
 * a private operator of this test's own (`seedDemoOperator` writes Demo Marina's operator data for any
 * id), so the file needs no empty database; Demo Marina's own run (loc_demo_miami) is checked by
 * "seeded, idempotent, the data is there" (other files in this runtime may have seeded it first).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedDemoOperator, seedSandbox, SEED } from '../../../src/seed';
import { systemCtx } from '../../../src/lib/context';
import { newId } from '../../../src/lib/ids';

const q = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .all<any>()
    .then((r) => r.results);

const docks = (locationId: string) => q('SELECT section, count(*) AS n FROM slips WHERE location_id = ? GROUP BY section ORDER BY section', locationId);
const DOCKS = [
  ['A Dock', 16],
  ['B Dock', 16],
  ['C Dock (T-heads)', 10],
];

describe('marina seed', () => {
  it('gives Miami 42 slips in three docks, a map, settings, a template and transient, billed, monthly and seasonal reservations', async () => {
    const ctx = systemCtx(env);
    const first = await seedDemoOperator(ctx, { customerId: newId('cus') });
    expect(first.seeded.marina).toBe(true);
    const [miami] = first.locationIds;
    const cus = first.customerId;
    expect((await docks(miami)).map((s: any) => [s.section, s.n])).toEqual(DOCKS);
    expect((await q('SELECT count(*) AS n FROM slips WHERE location_id = ? AND map_id IS NOT NULL', miami))[0].n).toBe(42);
    const res = await q('SELECT rate_type, status FROM slip_reservations WHERE location_id = ? ORDER BY rate_type, status', miami);
    expect(res.map((r: any) => `${r.rate_type}:${r.status}`)).toEqual([
      'monthly:confirmed',
      'nightly:awaiting_payment',
      'nightly:confirmed',
      'seasonal:confirmed',
    ]);
    expect((await q('SELECT count(*) AS n FROM slip_contract_templates WHERE customer_id = ? AND is_default = 1', cus))[0].n).toBe(1);
    // The portals step sends the seasonal contract, so the demo tenant has one to sign.
    expect((await q('SELECT status FROM slip_contracts WHERE customer_id = ?', cus))[0].status).toBe('sent');
    expect((await q('SELECT status, quota FROM slip_subscriptions WHERE customer_id = ?', cus))[0]).toMatchObject({ status: 'active', quota: 50 });
    const again = await seedDemoOperator(ctx, { customerId: cus });
    expect(again.seeded.marina).toBe(false);
    expect((await q('SELECT count(*) AS n FROM slips WHERE location_id = ?', miami))[0].n).toBe(42);
  });

  it("gives Demo Marina's Miami its slips, map, template and subscription, idempotently", async () => {
    await seedSandbox(env);
    expect((await seedSandbox(env)).marina).toBe(false);
    const miami = SEED.demo.miamiId;
    expect((await docks(miami)).map((s: any) => [s.section, s.n])).toEqual(DOCKS);
    expect((await q('SELECT count(*) AS n FROM slips WHERE location_id = ? AND map_id IS NOT NULL', miami))[0].n).toBe(42);
    expect((await q('SELECT count(*) AS n FROM slip_contract_templates WHERE customer_id = ? AND is_default = 1', SEED.demo.customerId))[0].n).toBe(1);
    expect((await q('SELECT status, quota FROM slip_subscriptions WHERE customer_id = ?', SEED.demo.customerId))[0]).toMatchObject({
      status: 'active',
      quota: 50,
    });
    // Statuses are checked on the private operator above: a billed stay's hold may have lapsed by the crons of other files of this runtime.
    const res = await q('SELECT rate_type FROM slip_reservations WHERE location_id = ? ORDER BY rate_type', miami);
    expect(res.map((r: any) => r.rate_type)).toEqual(['monthly', 'nightly', 'nightly', 'seasonal']);
  });
});
