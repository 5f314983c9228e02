/** The analytics seed step: idempotent, and the sandbox's reports, forecast, widget metrics and audit billing show it through the API. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { get, post } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';
import { addDays, localDate } from '../../../src/lib/time';

const TZ = 'America/New_York';

describe('analytics seed', () => {
  it('seeds a history the reports and the forecast read, once', async () => {
    const steps = SEED_STEPS.filter((s) => ['accounts', 'inventory', 'analytics'].includes(s.name));
    expect(steps.map((s) => s.name)).toEqual(['accounts', 'inventory', 'analytics']);
    for (const s of steps) await s.run(env);
    expect(await steps[2].run(env)).toBe(false);
    const key = { key: env.DEMO_API_KEY };
    const D = SEED.demo;
    const today = localDate(Date.now(), TZ);
    const range = { locationIds: D.miamiId, startDate: addDays(today, -28), endDate: addDays(today, -1) };

    const m = await get(`/analytics/metrics?${new URLSearchParams(range)}`, key);
    expect(m.status, m.text).toBe(200);
    expect(m.body.daily).toHaveLength(28);
    expect(m.body.totals.bookingCount).toBeGreaterThan(28);
    expect(m.body.totals.completedCount).toBe(m.body.totals.bookingCount);
    expect(m.body.totals.posSales).toBeGreaterThanOrEqual(28);
    // 7% tax on every rental and sale, rounded per line.
    expect(Math.abs(m.body.totals.taxCents - Math.round(m.body.totals.revenueCents * 0.07))).toBeLessThanOrEqual(
      m.body.totals.bookingCount + m.body.totals.posSales,
    );
    expect(m.body.totals.paymentsCents).toBe(m.body.totals.revenueCents + m.body.totals.taxCents);
    // Left unrealized, so realize-completed-bookings has work to show.
    expect(m.body.totals.deferredRevenueCents).toBe(m.body.totals.bookingRevenueCents);
    const dry = await post('/analytics/realize-completed-bookings', { locationIds: [D.miamiId], dryRun: true }, key);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.count).toBeGreaterThan(112);

    const perf = await get(`/analytics/inventory-performance?${new URLSearchParams(range)}`, key);
    expect(perf.body.items.length).toBe(2);

    const yoy = await get(`/analytics/year-over-year?locationIds=${D.miamiId}`, key);
    expect(yoy.status, yoy.text).toBe(200);
    expect(yoy.body.target.revenueTargetCents).toBe(25_000_000);

    const f = await get(`/forecast?locationId=${D.miamiId}&days=7`, key);
    expect(f.status, f.text).toBe(200);
    expect(f.body.method).toBe('holt_winters_weekly');
    const effect = Object.fromEntries(f.body.seasonality.map((s: any) => [s.weekday, s.effect]));
    // The seeded week is busiest on Saturday and quietest midweek.
    expect(effect.Saturday).toBeGreaterThan(effect.Tuesday);
    expect(effect.Saturday).toBeGreaterThan(effect.Wednesday);

    const w = await get(`/analytics/widget-metrics?${new URLSearchParams(range)}`, key);
    expect(w.status, w.text).toBe(200);
    expect(w.body.funnel.steps[0]).toMatchObject({ step: 'view', conversionPercent: 100 });
    expect(w.body.funnel.steps[0].sessions).toBeGreaterThan(28 * 6 - 1);

    const billing = await get('/ai/business-audit/billing', key);
    expect(billing.status, billing.text).toBe(200);
  });
});
