/** GET /analytics/year-over-year and PATCH /analytics/revenue-target through HTTP: local month boundaries, the trigger-kept totals, targets. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, patch, type Operator } from '../../harness';
import { otherOperator } from '../../security';
import { entries, k, locationIn } from './factories';

const yoy = (op: Operator, ids: string, year = 2026) => get(`/analytics/year-over-year?locationIds=${ids}&currentYear=${year}`, k(op));
const target = (op: Operator, body: Record<string, unknown>, key = op.adminKey) => patch('/analytics/revenue-target', body, { key });

describe('GET /analytics/year-over-year', () => {
  it("puts each entry in its location's local month, across UTC month and year boundaries, in zones behind and ahead of UTC", async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const ny = op.locationId;
    const tokyo = await locationIn(op, 'Asia/Tokyo');
    await entries(op, [
      { locationId: ny, type: 'revenue', amount: 1000, at: '2026-02-01T03:00:00.000Z' }, // Jan 31 22:00 local: January
      { locationId: ny, type: 'revenue', amount: 2000, at: '2026-02-01T06:00:00.000Z' }, // February
      { locationId: ny, type: 'revenue', amount: 4000, at: '2026-01-01T04:00:00.000Z' }, // Dec 31 2025 23:00 local: previous December
      { locationId: ny, rentalId: 'bk_prev', itemId: 'inv_x', type: 'revenue', amount: 8000, at: '2025-03-15T12:00:00.000Z' },
      { locationId: ny, rentalId: 'bk_prev', itemId: 'inv_x', type: 'discount', amount: -800, at: '2025-03-15T12:00:00.000Z' },
      { locationId: ny, type: 'revenue', amount: 500, at: '2026-03-15T12:00:00.000Z', source: 'pos' },
      { locationId: ny, type: 'revenue', amount: 16000, at: '2027-01-01T02:00:00.000Z' }, // Dec 31 2026 21:00 local: current December
      { locationId: ny, type: 'revenue', amount: 32000, at: '2025-01-01T03:00:00.000Z' }, // Dec 31 2024 local: neither year
      { locationId: ny, type: 'tax', amount: 99999, at: '2026-04-10T12:00:00.000Z' }, // not revenue
      { locationId: tokyo, type: 'revenue', amount: 64000, at: '2026-04-30T16:00:00.000Z', source: 'slip' }, // May 1 01:00 in Tokyo
      { locationId: tokyo, type: 'revenue', amount: 128, at: '2025-12-31T14:59:00.000Z' }, // Dec 31 2025 23:59 in Tokyo: previous December
    ]);
    const r = await yoy(op, `${ny},${tokyo}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ currentYear: 2026, previousYear: 2025, currency: 'usd' });
    const cur = r.body.months.map((m: any) => m.current.revenueCents);
    const prev = r.body.months.map((m: any) => m.previous.revenueCents);
    expect(cur).toEqual([1000, 2000, 500, 0, 64000, 0, 0, 0, 0, 0, 0, 16000]);
    expect(prev).toEqual([0, 0, 7200, 0, 0, 0, 0, 0, 0, 0, 0, 4128]);
    expect(r.body.months[2]).toMatchObject({
      current: { posRevenueCents: 500, bookingRevenueCents: 0 },
      previous: { bookingRevenueCents: 7200 },
      changePercent: -93.06,
    });
    expect(r.body.months[4].current.slipRevenueCents).toBe(64000);
    expect(r.body.months[0].changePercent).toBeNull();
    expect(r.body.totals).toMatchObject({
      current: { revenueCents: 83500 },
      previous: { revenueCents: 11328 },
      previousYearRevenueOverrideCents: null,
      previousComparedCents: 11328,
      changePercent: 637.11,
    });
    expect(r.body.target).toEqual({ revenueTargetCents: null, locationsWithTarget: 0, progressPercent: null, remainingCents: null });

    // The same through the raw ledger of one location: the monthly totals follow updates and deletes of entries.
    await env.DB.prepare(`UPDATE ledger_entries SET occurred_at = '2026-06-10T12:00:00.000Z' WHERE customer_id = ? AND amount = 2000`)
      .bind(op.customerId)
      .run();
    await env.DB.prepare(`DELETE FROM ledger_entries WHERE customer_id = ? AND amount = 500`).bind(op.customerId).run();
    const moved = await yoy(op, ny);
    expect(moved.body.months.map((m: any) => m.current.revenueCents)).toEqual([1000, 0, 0, 0, 0, 2000, 0, 0, 0, 0, 0, 16000]);
    expect(moved.body.months.map((m: any) => m.previous.revenueCents)).toEqual([0, 0, 7200, 0, 0, 0, 0, 0, 0, 0, 0, 4000]);
    const drift = await env.DB.prepare(
      `SELECT (SELECT coalesce(SUM(amount), 0) FROM analytics_ledger_months WHERE customer_id = ?1) AS rolled,
              (SELECT coalesce(SUM(amount), 0) FROM ledger_entries WHERE customer_id = ?1) AS raw`,
    )
      .bind(op.customerId)
      .first<{ rolled: number; raw: number }>();
    expect(drift!.rolled).toBe(drift!.raw);
  });

  it('compares with the revenue targets and previous-year overrides of the locations', async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const ny = op.locationId;
    const tokyo = await locationIn(op, 'Asia/Tokyo');
    await entries(op, [
      { locationId: ny, type: 'revenue', amount: 60000, at: '2026-05-05T12:00:00.000Z' },
      { locationId: tokyo, type: 'revenue', amount: 20000, at: '2026-05-05T12:00:00.000Z' },
      { locationId: ny, type: 'revenue', amount: 9000, at: '2025-05-05T12:00:00.000Z' },
      { locationId: tokyo, type: 'revenue', amount: 11000, at: '2025-05-05T12:00:00.000Z' },
    ]);
    const a = await target(op, { locationId: ny, revenueTarget: 1000.5, previousYearRevenueOverride: 50, year: 2026 });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      locationId: ny,
      year: 2026,
      revenueTarget: 1000.5,
      revenueTargetCents: 100050,
      previousYearRevenueOverride: 50,
      previousYearRevenueOverrideCents: 5000,
    });
    expect((await target(op, { locationId: tokyo, revenueTarget: 500, year: 2026 })).body.revenueTargetCents).toBe(50000);
    const r = await yoy(op, `${ny},${tokyo}`);
    expect(r.body.totals).toMatchObject({
      current: { revenueCents: 80000 },
      previous: { revenueCents: 20000 },
      previousYearRevenueOverrideCents: 5000,
      previousComparedCents: 16000, // NY's override (50.00) in place of its 90.00, Tokyo's own 110.00
      changePercent: 400,
    });
    expect(r.body.target).toEqual({ revenueTargetCents: 150050, locationsWithTarget: 2, progressPercent: 53.32, remainingCents: 70050 });
    // Another year has its own target; null clears a field; only the fields given change.
    expect((await yoy(op, ny, 2027)).body.target.revenueTargetCents).toBeNull();
    const cleared = await target(op, { locationId: ny, previousYearRevenueOverride: null, year: 2026 });
    expect(cleared.body).toMatchObject({ revenueTargetCents: 100050, previousYearRevenueOverrideCents: null });
    expect((await yoy(op, ny)).body.totals.previousComparedCents).toBe(9000);
  });

  it('validates targets and answers 404 for unknown and foreign locations', async () => {
    const op = await createOperator();
    for (const bad of [{ revenueTarget: -5 }, { revenueTarget: 0 }, { revenueTarget: 0.001 }, { previousYearRevenueOverride: -1 }, { revenueTarget: 'lots' }])
      expectError(await target(op, { locationId: op.locationId, ...bad }), 400, 'validation_failed');
    expectError(await target(op, { locationId: op.locationId }), 400, 'no_changes');
    expectError(await target(op, { revenueTarget: 10 }), 400, 'validation_failed');
    expectError(await target(op, { locationId: 'loc_nope', revenueTarget: 10 }), 404, 'not_found');
    const intruder = await otherOperator();
    expectError(await target(op, { locationId: intruder.locationId, revenueTarget: 10 }), 404, 'not_found');
    expectError(await yoy(op, intruder.locationId), 404, 'not_found');
    expectError(await get('/analytics/year-over-year', k(op)), 400, 'validation_failed');
    expectError(await get(`/analytics/year-over-year?locationIds=${op.locationId}&currentYear=1999`, k(op)), 400, 'validation_failed');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await target(op, { locationId: op.locationId, revenueTarget: 10 }, staff.key), 403, 'forbidden');
  });
});
