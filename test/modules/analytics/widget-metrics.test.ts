/** GET /analytics/widget-metrics through HTTP: the widget's recorded funnel (public events and a real widget checkout), local time, tenancy. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { at, email, rentalItem } from '../bookings/factories';
import { k, locationIn } from './factories';
import { localDate, toWallTime } from '../../../src/lib/time';
import { newId } from '../../../src/lib/ids';

const MONDAY_FIRST = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const event = (op: Operator, sessionId: string, e: string, extra: Record<string, unknown> = {}) =>
  post('/public/widget/events', { customerId: op.customerId, sessionId, event: e, ...extra });
const wm = (op: Operator, q: Record<string, string>) => get(`/analytics/widget-metrics?${new URLSearchParams(q)}`, k(op));

describe('GET /analytics/widget-metrics', () => {
  it('answers the funnel, heatmap, daily engagement, sources, referrals and top products from the recorded events', async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const boat = await rentalItem(op, { data: { name: 'Bay Boat' } });
    const kayak = await rentalItem(op, { data: { name: 'Kayak' } });
    const site = 'https://www.marina.test/book';
    const steps = async (s: string, list: string[], extra: Record<string, unknown>) => {
      for (const e of list) expect((await event(op, s, e, extra)).status).toBe(201);
    };
    await steps('visit_aaaaaaaa1', ['view', 'date_chosen', 'slot_chosen', 'checkout'], { inventoryId: boat.id, source: site });
    await steps('visit_aaaaaaaa2', ['view', 'date_chosen'], { inventoryId: boat.id, source: site });
    await steps('visit_aaaaaaaa3', ['view'], { inventoryId: kayak.id, ref: 'PARTNER7', source: 'https://blog.partner.test/post' });
    await steps('visit_aaaaaaaa4', ['view', 'date_chosen', 'slot_chosen', 'checkout', 'waitlist'], { inventoryId: kayak.id });
    // The first visit books through the widget's checkout, which records `booked` in the booking's batch.
    const booked = await post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: boat.id,
      locationId: op.locationId,
      startTime: at(op.timezone, 3, '10:00'),
      endTime: at(op.timezone, 3, '12:00'),
      customerInfo: { firstName: 'Rita', lastName: 'Renter', email: email('wm') },
      paymentMethodId: 'pm_card_visa',
      sessionId: 'visit_aaaaaaaa1',
      source: site,
    });
    expect(booked.status, booked.text).toBe(201);
    // Not counted: another operator's visit, and a visit at a location not asked for.
    const intruder = await otherOperator();
    await event(intruder, 'visit_zzzzzzzz1', 'view', {});
    const elsewhere = await rentalItem(op, { timezone: 'Europe/Lisbon' });
    await event(op, 'visit_aaaaaaaa5', 'view', { inventoryId: elsewhere.id });

    const today = localDate(Date.now(), op.timezone);
    const r = await wm(op, { locationIds: op.locationId, startDate: today, endDate: today });
    expect(r.status, r.text).toBe(200);
    expect(r.body.funnel.steps).toEqual([
      { step: 'view', sessions: 4, events: 4, conversionPercent: 100 },
      { step: 'date_chosen', sessions: 3, events: 3, conversionPercent: 75 },
      { step: 'slot_chosen', sessions: 2, events: 2, conversionPercent: 50 },
      { step: 'checkout', sessions: 2, events: 2, conversionPercent: 50 },
      { step: 'booked', sessions: 1, events: 1, conversionPercent: 25 },
    ]);
    expect(r.body.funnel).toMatchObject({ waitlistSessions: 1, overallConversionPercent: 25 });
    expect(r.body.daily).toEqual([{ date: today, sessions: 4, views: 4, bookings: 1, conversionPercent: 25 }]);
    expect(r.body.sources).toEqual([
      { source: 'www.marina.test', sessions: 2, bookings: 1 },
      { source: '(direct)', sessions: 1, bookings: 0 },
      { source: 'blog.partner.test', sessions: 1, bookings: 0 },
    ]);
    expect(r.body.referrals).toEqual([{ ref: 'PARTNER7', sessions: 1, bookings: 0 }]);
    expect(r.body.topProducts).toEqual([
      { inventoryId: boat.id, name: 'Bay Boat', views: 2, checkouts: 1, bookings: 1, conversionPercent: 50 },
      { inventoryId: kayak.id, name: 'Kayak', views: 2, checkouts: 1, bookings: 0, conversionPercent: 0 },
    ]);
    // The heatmap counts the views at their local weekday and hour.
    const views = await env.DB.prepare(`SELECT created_at FROM widget_events WHERE customer_id = ? AND event = 'view' AND inventory_id IN (?, ?)`)
      .bind(op.customerId, boat.id, kayak.id)
      .all<{ created_at: string }>();
    const expected = MONDAY_FIRST.map(() => Array.from({ length: 24 }, () => 0));
    for (const v of views.results) {
      const w = toWallTime(Date.parse(v.created_at), op.timezone);
      expected[MONDAY_FIRST.indexOf(w.weekday)][w.hour]++;
    }
    expect(r.body.heatmap).toEqual({ metric: 'views', weekdays: MONDAY_FIRST, counts: expected });
  });

  it("puts events on the location's local day and hour", async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const kolkata = await locationIn(op, 'Asia/Kolkata');
    const ins = (loc: string, createdAt: string, s: string) =>
      env.DB.prepare(`INSERT INTO widget_events (id, customer_id, location_id, session_id, event, created_at) VALUES (?, ?, ?, ?, 'view', ?)`)
        .bind(newId('wev'), op.customerId, loc, s, createdAt)
        .run();
    await ins(op.locationId, '2026-03-08T04:30:00.000Z', 'visit_ny000001'); // Saturday Mar 7, 23:30 in New York
    await ins(op.locationId, '2026-03-08T05:30:00.000Z', 'visit_ny000002'); // Sunday Mar 8, 00:30
    await ins(kolkata, '2026-03-07T18:30:00.000Z', 'visit_in000001'); // Sunday Mar 8, 00:00 in Kolkata
    const r = await wm(op, { locationIds: `${op.locationId},${kolkata}`, startDate: '2026-03-07', endDate: '2026-03-08' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.daily.map((d: any) => [d.date, d.views])).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 2],
    ]);
    expect(r.body.heatmap.counts[5][23]).toBe(1); // Saturday 23:00
    expect(r.body.heatmap.counts[6][0]).toBe(2); // Sunday 00:00, in both zones
  });

  it('validates, answers 404 for foreign locations and refuses callers without the permission', async () => {
    const op = await createOperator();
    const q = { locationIds: op.locationId, startDate: '2026-01-01', endDate: '2026-01-31' };
    expectError(await get('/analytics/widget-metrics', k(op)), 400, 'validation_failed');
    expectError(await wm(op, { ...q, endDate: '2025-01-01' }), 400, 'validation_failed');
    const intruder = await otherOperator();
    expectError(await wm(op, { ...q, locationIds: intruder.locationId }), 404, 'not_found');
    await checkSecurity(op, { method: 'GET', path: `/analytics/widget-metrics?${new URLSearchParams(q)}`, otherStatus: 404, adminOnly: true });
  });
});
