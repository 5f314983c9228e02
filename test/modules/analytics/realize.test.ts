/** POST /analytics/realize-completed-bookings through HTTP: real bookings checked out, dry runs, parallel runs, scoping, security of every route. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { at, book, bookBody, dateAhead, rentalItem } from '../bookings/factories';
import { k } from './factories';
import { localDate } from '../../../src/lib/time';

const realize = (op: Operator, body: unknown) => post('/analytics/realize-completed-bookings', body, k(op));

/** A 2-hour rental at 100.00 an hour with 10% off: net revenue 180.00. */
async function rental(op: Operator, itemId: string, daysAhead: number, time: string) {
  const end = `${String(Number(time.slice(0, 2)) + 2).padStart(2, '0')}:00`;
  const r = await book(
    op,
    bookBody({
      inventoryId: itemId,
      startTime: at(op.timezone, daysAhead, time),
      endTime: at(op.timezone, daysAhead, end),
      extra: { discountDetails: { discountPercentage: 10 } },
    }),
  );
  expect(r.status, r.text).toBe(201);
  return r.body.rentalId as string;
}

async function complete(op: Operator, rentalId: string) {
  expect((await post(`/coreBooking/${rentalId}/check-in`, {}, k(op))).status).toBe(200);
  const out = await post(`/coreBooking/${rentalId}/check-out`, {}, k(op));
  expect(out.status, out.text).toBe(200);
}

const realizedRows = async (customerId: string) =>
  (
    await env.DB.prepare(`SELECT id, rental_id, amount, affects_balance FROM ledger_entries WHERE customer_id = ? AND entry_type = 'revenue_realized'`)
      .bind(customerId)
      .all<{ id: string; rental_id: string; amount: number; affects_balance: number }>()
  ).results;

describe('POST /analytics/realize-completed-bookings', () => {
  it('realizes each completed rental once, however many calls race; dry runs only count', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const done = [await rental(op, item.id, 4, '10:00'), await rental(op, item.id, 4, '12:00'), await rental(op, item.id, 4, '14:00')];
    const open = await rental(op, item.id, 4, '15:00');
    for (const id of done) await complete(op, id);

    const dry = await realize(op, { dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toEqual({ dryRun: true, count: 3 });
    expect(await realizedRows(op.customerId)).toEqual([]);

    const runs = await Promise.all(Array.from({ length: 6 }, () => realize(op, {})));
    for (const r of runs) expect(r.status, r.text).toBe(200);
    expect(runs.reduce((s, r) => s + r.body.count, 0)).toBe(3);
    expect(runs.reduce((s, r) => s + r.body.realizedRevenueCents, 0)).toBe(3 * 18000);
    const rows = await realizedRows(op.customerId);
    expect(rows.map((r) => r.rental_id).sort()).toEqual([...done].sort());
    expect(rows.every((r) => r.amount === 18000 && r.affects_balance === 0 && r.id === `led_rlz_${r.rental_id}`)).toBe(true);

    expect((await realize(op, {})).body).toEqual({ dryRun: false, count: 0, realizedRevenueCents: 0 });
    expect((await realize(op, { dryRun: true })).body).toEqual({ dryRun: true, count: 0 });

    // Metrics: realized on the check-out day (today), the open rental's revenue still deferred.
    const today = localDate(Date.now(), op.timezone);
    const m = await get(`/analytics/metrics?locationIds=${op.locationId}&startDate=${today}&endDate=${dateAhead(op.timezone, 4)}`, k(op));
    expect(m.body.totals).toMatchObject({ realizedRevenueCents: 54000, deferredRevenueCents: 18000, netRevenueCents: 72000, completedCount: 3 });
    // Balances are untouched: the renter journal's balance ignores memo entries.
    const b = await get(`/coreBooking/${open}`, k(op));
    expect(b.status).toBe(200);
  });

  it('realizes only the locations asked for; foreign locations answer 404', async () => {
    const op = await createOperator();
    const here = await rentalItem(op);
    const there = await rentalItem(op, { timezone: 'Europe/Lisbon' });
    const a = await rental(op, here.id, 3, '10:00');
    const b = await rental(op, there.id, 3, '10:00');
    await complete(op, a);
    await complete(op, b);
    const intruder = await otherOperator();
    expectError(await realize(op, { locationIds: [intruder.locationId] }), 404, 'not_found');
    expectError(await realize(op, { locationIds: ['loc_nope'], dryRun: true }), 404, 'not_found');
    expect((await realize(intruder, {})).body.count).toBe(0);
    const first = await realize(op, { locationIds: [there.locationId] });
    expect(first.body).toEqual({ dryRun: false, count: 1, realizedRevenueCents: 18000 });
    expect((await realizedRows(op.customerId)).map((r) => r.rental_id)).toEqual([b]);
    expect((await realize(op, { locationIds: [op.locationId, there.locationId] })).body.count).toBe(1);
    expectError(await realize(op, { dryRun: 'yes' }), 400, 'validation_failed');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await post('/analytics/realize-completed-bookings', {}, { key: staff.key }), 403, 'forbidden');
  });
});

describe('analytics routes: security', () => {
  it('every route refuses anonymous and invalid credentials, staff without the permission, and foreign locations', async () => {
    const op = await createOperator();
    const q = `locationIds=${op.locationId}&startDate=2026-01-01&endDate=2026-01-31`;
    const cases = [
      { method: 'GET', path: `/analytics/metrics?${q}`, otherStatus: 404 as const },
      { method: 'GET', path: `/analytics/inventory-performance?${q}`, otherStatus: 404 as const },
      { method: 'GET', path: `/analytics/year-over-year?locationIds=${op.locationId}&currentYear=2026`, otherStatus: 404 as const },
      { method: 'PATCH', path: '/analytics/revenue-target', body: { locationId: op.locationId, revenueTarget: 1000 }, otherStatus: 404 as const },
      { method: 'POST', path: '/analytics/realize-completed-bookings', body: { locationIds: [op.locationId], dryRun: true }, otherStatus: 404 as const },
      { method: 'GET', path: `/forecast?locationId=${op.locationId}&days=7`, otherStatus: 404 as const },
    ];
    for (const c of cases) await checkSecurity(op, { ...c, adminOnly: true });
  });
});
