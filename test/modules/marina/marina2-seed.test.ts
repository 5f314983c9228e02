/**
 * The Marina II sandbox step: waitlist entries, guest passes, haul services and a month of meter
 * readings at Miami, idempotent. The step is checked on a private operator of this test's own
 * (`seedDemoOperator` writes Demo Marina's operator data for any id), so the file needs no empty
 * database; Demo Marina's own run (loc_demo_miami) is checked by "seeded, idempotent, the data is
 * there" (other files in this runtime may have seeded it first).
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
const count = async (sql: string, ...params: unknown[]) => (await q(sql, ...params))[0].n as number;

describe('marina II seed', () => {
  it('adds waitlist entries, guest passes, haul services and a month of readings (one rollover, one flag), once', async () => {
    const ctx = systemCtx(env);
    const first = await seedDemoOperator(ctx, { customerId: newId('cus') });
    expect(first.seeded.marina2).toBe(true);
    const [miami] = first.locationIds;
    expect(await count("SELECT count(*) AS n FROM slip_waitlist_entries WHERE location_id = ? AND status = 'waiting'", miami)).toBe(3);
    expect(await count("SELECT count(*) AS n FROM slip_guest_passes WHERE location_id = ? AND status = 'active'", miami)).toBe(2);
    const hauls = await q('SELECT service_type, status FROM haul_services WHERE location_id = ? ORDER BY service_type', miami);
    expect(hauls.map((h: any) => `${h.service_type}:${h.status}`)).toEqual(['haul_out:requested', 'launch:scheduled', 'round_trip:confirmed']);
    expect(await count('SELECT count(*) AS n FROM haul_lift_bookings WHERE location_id = ?', miami)).toBe(3);
    expect(await count('SELECT count(*) AS n FROM meter_readings WHERE location_id = ?', miami)).toBe(50);
    expect(await count('SELECT count(*) AS n FROM meter_readings WHERE location_id = ? AND rollover = 1', miami)).toBe(1);
    const flagged = await q('SELECT utility, usage FROM meter_readings WHERE location_id = ? AND flagged = 1', miami);
    expect(flagged).toEqual([{ utility: 'water', usage: 4440 }]);
    // The marina step's reservations are untouched.
    expect(await count('SELECT count(*) AS n FROM slip_reservations WHERE location_id = ?', miami)).toBe(4);
    const again = await seedDemoOperator(ctx, { customerId: first.customerId });
    expect(again.seeded.marina2).toBe(false);
    expect(await count('SELECT count(*) AS n FROM meter_readings WHERE location_id = ?', miami)).toBe(50);
  });

  it("gives Demo Marina's Miami its waitlist, guest passes, haul services and readings, idempotently", async () => {
    await seedSandbox(env);
    expect((await seedSandbox(env)).marina2).toBe(false);
    const miami = SEED.demo.miamiId;
    // States are checked on the private operator above: Demo Marina's records are shared with the other files of this runtime.
    expect(await count('SELECT count(*) AS n FROM slip_waitlist_entries WHERE location_id = ?', miami)).toBe(3);
    expect(await count('SELECT count(*) AS n FROM slip_guest_passes WHERE location_id = ?', miami)).toBe(2);
    expect((await q('SELECT service_type FROM haul_services WHERE location_id = ? ORDER BY service_type', miami)).map((h: any) => h.service_type)).toEqual([
      'haul_out',
      'launch',
      'round_trip',
    ]);
    expect(await count('SELECT count(*) AS n FROM meter_readings WHERE location_id = ?', miami)).toBe(50);
    expect(await count('SELECT count(*) AS n FROM slip_reservations WHERE location_id = ?', miami)).toBe(4);
  });
});
