/** The Marina II sandbox step: waitlist entries, guest passes, haul services and a month of meter readings at loc_demo_miami, idempotent. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedSandbox } from '../../../src/seed';

describe('marina II seed', () => {
  it('adds waitlist entries, guest passes, haul services and a month of readings (one rollover, one flag), once', async () => {
    const first = await seedSandbox(env);
    expect(first.marina2).toBe(true);
    const q = (sql: string) =>
      env.DB.prepare(sql)
        .all<any>()
        .then((r) => r.results);
    expect((await q("SELECT count(*) AS n FROM slip_waitlist_entries WHERE location_id = 'loc_demo_miami' AND status = 'waiting'"))[0].n).toBe(3);
    expect((await q("SELECT count(*) AS n FROM slip_guest_passes WHERE location_id = 'loc_demo_miami' AND status = 'active'"))[0].n).toBe(2);
    const hauls = await q("SELECT service_type, status FROM haul_services WHERE location_id = 'loc_demo_miami' ORDER BY service_type");
    expect(hauls.map((h: any) => `${h.service_type}:${h.status}`)).toEqual(['haul_out:requested', 'launch:scheduled', 'round_trip:confirmed']);
    expect((await q("SELECT count(*) AS n FROM haul_lift_bookings WHERE location_id = 'loc_demo_miami'"))[0].n).toBe(3);
    expect((await q("SELECT count(*) AS n FROM meter_readings WHERE location_id = 'loc_demo_miami'"))[0].n).toBe(50);
    expect((await q("SELECT count(*) AS n FROM meter_readings WHERE location_id = 'loc_demo_miami' AND rollover = 1"))[0].n).toBe(1);
    const flagged = await q("SELECT utility, usage FROM meter_readings WHERE location_id = 'loc_demo_miami' AND flagged = 1");
    expect(flagged).toEqual([{ utility: 'water', usage: 4440 }]);
    // The marina step's reservations are untouched.
    expect((await q("SELECT count(*) AS n FROM slip_reservations WHERE location_id = 'loc_demo_miami'"))[0].n).toBe(4);
    const again = await seedSandbox(env);
    expect(again.marina2).toBe(false);
    expect((await q("SELECT count(*) AS n FROM meter_readings WHERE location_id = 'loc_demo_miami'"))[0].n).toBe(50);
  });
});
