/** The sandbox marina at loc_demo_miami: created once through the services, idempotent. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedSandbox } from '../../../src/seed';

describe('marina seed', () => {
  it('gives Miami 42 slips in three docks, a map, settings, a template and transient, billed, monthly and seasonal reservations', async () => {
    const first = await seedSandbox(env);
    expect(first.marina).toBe(true);
    const q = (sql: string) =>
      env.DB.prepare(sql)
        .all<any>()
        .then((r) => r.results);
    const sections = await q("SELECT section, count(*) AS n FROM slips WHERE location_id = 'loc_demo_miami' GROUP BY section ORDER BY section");
    expect(sections.map((s: any) => [s.section, s.n])).toEqual([
      ['A Dock', 16],
      ['B Dock', 16],
      ['C Dock (T-heads)', 10],
    ]);
    expect((await q("SELECT count(*) AS n FROM slips WHERE location_id = 'loc_demo_miami' AND map_id IS NOT NULL"))[0].n).toBe(42);
    const res = await q("SELECT rate_type, status FROM slip_reservations WHERE location_id = 'loc_demo_miami' ORDER BY rate_type, status");
    expect(res.map((r: any) => `${r.rate_type}:${r.status}`)).toEqual([
      'monthly:confirmed',
      'nightly:awaiting_payment',
      'nightly:confirmed',
      'seasonal:confirmed',
    ]);
    expect((await q("SELECT count(*) AS n FROM slip_contract_templates WHERE customer_id = 'cus_demo_marina' AND is_default = 1"))[0].n).toBe(1);
    expect((await q("SELECT status FROM slip_contracts WHERE customer_id = 'cus_demo_marina'"))[0].status).toBe('generated');
    expect((await q("SELECT status, quota FROM slip_subscriptions WHERE customer_id = 'cus_demo_marina'"))[0]).toMatchObject({ status: 'active', quota: 50 });
    const again = await seedSandbox(env);
    expect(again.marina).toBe(false);
    expect((await q("SELECT count(*) AS n FROM slips WHERE location_id = 'loc_demo_miami'"))[0].n).toBe(42);
  });
});
