/** GET /analytics/metrics and /analytics/inventory-performance through HTTP: cents from the ledger, local days, tenancy. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db, expectError, get, patch, post, type Operator } from '../../harness';
import { at, book, bookBody, dateAhead, rentalItem } from '../bookings/factories';
import { bookingRow, entries, insertAll, k, locationIn } from './factories';
import { otherOperator } from '../../security';
import { membershipInvoices } from '../../../src/db/schema/memberships';
import { newId } from '../../../src/lib/ids';
import { localDate } from '../../../src/lib/time';

const metrics = (op: Operator, q: Record<string, string>, key = op.adminKey) => get(`/analytics/metrics?${new URLSearchParams(q)}`, { key });

describe('GET /analytics/metrics', () => {
  it('adds up a real booking and a point-of-sale sale to hand-computed cents', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { data: { taxes: [{ name: 'Sales tax', rate: 7, appliesTo: 'rental' }] } });
    const day = dateAhead(op.timezone, 5);
    const b = await book(
      op,
      bookBody({
        inventoryId: item.id,
        startTime: at(op.timezone, 5, '10:00'),
        endTime: at(op.timezone, 5, '12:00'),
        extra: { rentalPricing: { tip: 15 }, discountDetails: { discountPercentage: 10 } },
      }),
    );
    expect(b.status, b.text).toBe(201);
    const product = await post(
      '/pos/inventory',
      { locationId: op.locationId, name: 'Ice bag', taxRate: 7.5, variants: [{ name: 'Default', price: 12.99, quantity: 10 }] },
      k(op),
    );
    expect(product.status, product.text).toBe(201);
    const sale = await post(
      '/pos/transaction',
      { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: product.body.itemId, quantity: 3 }] },
      k(op),
    );
    expect(sale.status, sale.text).toBe(201);
    const today = localDate(Date.now(), op.timezone);

    const r = await metrics(op, { locationIds: op.locationId, startDate: today, endDate: day });
    expect(r.status, r.text).toBe(200);
    // Rental: 2 h x 100.00 = 200.00; 10% off = 20.00; tax 7% of 180.00 = 12.60; tip 15.00; paid 207.60.
    // POS: 3 x 12.99 = 38.97; tax 7.5% = 2.92; paid 41.89 in cash.
    // Revenue is net of discounts, as year-over-year counts it (issue 31: every report says the same figure).
    expect(r.body.totals).toEqual({
      revenueCents: 21897,
      bookingRevenueCents: 18000,
      posRevenueCents: 3897,
      slipRevenueCents: 0,
      otherRevenueCents: 0,
      grossRevenueCents: 23897,
      discountsCents: 2000,
      netRevenueCents: 21897,
      cancellationFeesCents: 0,
      premiumsCents: 0,
      depositCapturesCents: 0,
      taxCents: 1552,
      tipsCents: 1500,
      refundsCents: 0,
      paymentsCents: 24949,
      realizedRevenueCents: 0,
      deferredRevenueCents: 18000,
      bookingCount: 1,
      cancelledCount: 0,
      completedCount: 0,
      noShowCount: 0,
      renters: 1,
      posSales: 1,
    });
    expect(r.body.currency).toBe('usd');
    const byDate = Object.fromEntries(r.body.daily.map((d: any) => [d.date, d]));
    expect(r.body.daily).toHaveLength(6);
    expect(byDate[today]).toMatchObject({ posRevenueCents: 3897, taxCents: 292, posSales: 1, bookingRevenueCents: 0 });
    expect(byDate[day]).toMatchObject({ bookingRevenueCents: 18000, discountsCents: 2000, taxCents: 1260, tipsCents: 1500, bookingCount: 1 });
    expect(r.body.byLocation).toEqual([{ locationId: op.locationId, totals: r.body.totals }]);

    // The client's figures play no part: a cancelled booking's reversals net its revenue to zero.
    const cancel = await post(`/coreBooking/${b.body.rentalId}/cancel`, { reason: 'test' }, k(op));
    expect(cancel.status, cancel.text).toBe(200);
    const after = await metrics(op, { locationIds: op.locationId, startDate: day, endDate: day });
    expect(after.body.totals).toMatchObject({ bookingRevenueCents: 0, discountsCents: 0, taxCents: 0, tipsCents: 0, bookingCount: 0, cancelledCount: 1 });
  });

  it("counts each entry on its location's local day: DST days, half-hour zones, several locations", async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const kolkata = await locationIn(op, 'Asia/Kolkata');
    const ny = op.locationId;
    await entries(op, [
      { locationId: ny, type: 'revenue', amount: 100, at: '2026-03-08T04:59:00.000Z' }, // 23:59 EST on the 7th
      { locationId: ny, type: 'revenue', amount: 200, at: '2026-03-08T05:00:00.000Z' }, // 00:00 EST on the 8th
      { locationId: ny, type: 'revenue', amount: 400, at: '2026-03-09T03:59:00.000Z' }, // 23:59 EDT on the 8th (a 23-hour day)
      { locationId: ny, type: 'revenue', amount: 800, at: '2026-03-09T04:00:00.000Z' }, // 00:00 EDT on the 9th
      { locationId: kolkata, type: 'revenue', amount: 1600, at: '2026-03-08T18:29:00.000Z' }, // 23:59 IST on the 8th
      { locationId: kolkata, type: 'revenue', amount: 3200, at: '2026-03-08T18:30:00.000Z' }, // 00:00 IST on the 9th
      { locationId: ny, type: 'revenue', amount: 6400, at: '2026-11-01T04:30:00.000Z' }, // 00:30 EDT on Nov 1 (a 25-hour day)
      { locationId: ny, type: 'revenue', amount: 12800, at: '2026-11-02T04:59:00.000Z' }, // 23:59 EST on Nov 1
      { locationId: ny, type: 'revenue', amount: 25600, at: '2026-11-02T05:00:00.000Z' }, // 00:00 EST on Nov 2
    ]);
    const one = await metrics(op, { locationIds: `${ny},${kolkata}`, startDate: '2026-03-08', endDate: '2026-03-08' });
    expect(one.status, one.text).toBe(200);
    expect(one.body.totals.revenueCents).toBe(2200);
    expect(one.body.daily).toEqual([expect.objectContaining({ date: '2026-03-08', revenueCents: 2200 })]);
    expect(one.body.byLocation.map((l: any) => [l.locationId, l.totals.revenueCents])).toEqual([
      [ny, 600],
      [kolkata, 1600],
    ]);
    const three = await metrics(op, { locationIds: `${ny},${kolkata}`, startDate: '2026-03-07', endDate: '2026-03-09' });
    expect(three.body.daily.map((d: any) => [d.date, d.revenueCents])).toEqual([
      ['2026-03-07', 100],
      ['2026-03-08', 2200],
      ['2026-03-09', 4000],
    ]);
    const fall = await metrics(op, { locationIds: ny, startDate: '2026-11-01', endDate: '2026-11-02' });
    expect(fall.body.daily.map((d: any) => [d.date, d.revenueCents])).toEqual([
      ['2026-11-01', 19200],
      ['2026-11-02', 25600],
    ]);
  });

  it('splits kinds and entry types, realized and deferred revenue, booking counts and memberships; leaves test bookings out', async () => {
    const op = await createOperator({ timezone: 'UTC' });
    const loc = op.locationId;
    const day = '2026-05-14';
    const t = `${day}T12:00:00.000Z`;
    const rows = await Promise.all([
      bookingRow(op, { locationId: loc, date: day, tz: 'UTC', status: 'completed', participants: 4 }),
      bookingRow(op, { locationId: loc, date: day, tz: 'UTC', status: 'confirmed' }),
      bookingRow(op, { locationId: loc, date: day, tz: 'UTC', status: 'cancelled', participants: 6 }),
      bookingRow(op, { locationId: loc, date: day, tz: 'UTC', status: 'no_show', quantity: 2 }),
      bookingRow(op, { locationId: loc, date: day, tz: 'UTC', status: 'confirmed', participants: 9, testMode: true }),
    ]);
    await insertAll(rows.map((r) => r.stmt));
    const [done, open, , , sandbox] = rows.map((r) => r.id);
    await entries(op, [
      { locationId: loc, rentalId: done, type: 'revenue', amount: 10000, at: t },
      { locationId: loc, rentalId: done, type: 'discount', amount: -1000, at: t },
      { locationId: loc, rentalId: done, type: 'tax', amount: 630, at: t },
      { locationId: loc, rentalId: done, type: 'tip', amount: 500, at: t },
      { locationId: loc, rentalId: done, type: 'payment', amount: -10130, at: t, source: 'card' },
      { locationId: loc, rentalId: open, type: 'revenue', amount: 5000, at: t },
      { locationId: loc, rentalId: sandbox, type: 'revenue', amount: 7777, at: t, source: 'channel' },
      { locationId: loc, type: 'revenue', amount: 1250, at: t, source: 'pos' },
      { locationId: loc, type: 'refund', amount: 250, at: t, source: 'pos' },
      { locationId: loc, type: 'revenue', amount: 3000, at: t, source: 'slip' },
      { locationId: loc, type: 'revenue', amount: 700, at: t, source: 'protection_plan' },
      { locationId: loc, type: 'deposit_hold', amount: 50000, at: t, source: 'card' },
    ]);
    // The completed rental realized (as realize-completed-bookings writes it).
    await env.DB.prepare(
      `INSERT INTO ledger_entries (id, customer_id, location_id, rental_id, transaction_id, entry_type, amount, currency, affects_balance, occurred_at, created_at)
         VALUES (?, ?, ?, ?, 'txn', 'revenue_realized', 9000, 'usd', 0, ?, ?)`,
    )
      .bind(`led_rlz_${done}`, op.customerId, loc, done, t, t)
      .run();
    await db()
      .insert(membershipInvoices)
      .values({
        id: newId('minv'),
        customerId: op.customerId,
        membershipId: newId('mem'),
        number: 'M-1',
        kind: 'initial',
        status: 'paid',
        periodStart: t,
        periodEnd: t,
        lines: [],
        total: 4900,
        amountPaid: 4900,
        amountRefunded: 900,
        paidAt: t,
      });
    // The invoice's money as memberships write it on the ledger: the account's (no location), source membership.
    await entries(op, [
      { locationId: null, type: 'revenue', amount: 4900, at: t, source: 'membership' },
      { locationId: null, type: 'payment', amount: -4900, at: t, source: 'membership' },
      { locationId: null, type: 'revenue', amount: -900, at: t, source: 'membership' },
      { locationId: null, type: 'refund', amount: 900, at: t, source: 'membership' },
    ]);
    const r = await metrics(op, { locationIds: loc, startDate: day, endDate: day });
    expect(r.status, r.text).toBe(200);
    expect(r.body.totals).toEqual({
      revenueCents: 18950,
      bookingRevenueCents: 14000,
      posRevenueCents: 1250,
      slipRevenueCents: 3000,
      otherRevenueCents: 700,
      grossRevenueCents: 10000 + 5000 + 1250 + 3000 + 700,
      discountsCents: 1000,
      netRevenueCents: 18950,
      cancellationFeesCents: 0,
      premiumsCents: 0,
      depositCapturesCents: 0,
      taxCents: 630,
      tipsCents: 500,
      refundsCents: 250,
      paymentsCents: 10130,
      realizedRevenueCents: 9000,
      deferredRevenueCents: 5000,
      bookingCount: 3,
      cancelledCount: 1,
      completedCount: 1,
      noShowCount: 1,
      renters: 4 + 1 + 2,
      posSales: 0,
    });
    expect(r.body.memberships).toEqual({ revenueCents: 4000, refundsCents: 900, invoicesPaid: 1, newMemberships: 1 });
  });

  it('answers in one D1 round trip after authentication once the locations are known; a changed time zone counts at once', async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    await entries(op, [{ locationId: op.locationId, type: 'revenue', amount: 100, at: '2026-03-08T04:59:00.000Z' }]); // Mar 7 in New York, Mar 8 in UTC
    const q = { locationIds: op.locationId, startDate: '2026-03-08', endDate: '2026-03-08' };
    const first = await metrics(op, q);
    expect(first.body.totals.revenueCents).toBe(0);
    expect(Number(first.headers.get('x-round-trips-operation'))).toBeLessThanOrEqual(2);
    const again = await metrics(op, q);
    expect(Number(again.headers.get('x-round-trips-operation')), again.headers.get('x-round-trip-trace') ?? '').toBe(1);
    expect((await patch('/location', { locationId: op.locationId, timezone: 'UTC' }, k(op))).status).toBe(200);
    const moved = await metrics(op, q);
    expect(moved.body.totals.revenueCents).toBe(100);
    expect(moved.body.locations[0].timezone).toBe('UTC');
  });

  it('validates the query and answers 404 for locations that are not the caller’s', async () => {
    const op = await createOperator();
    const q = { locationIds: op.locationId, startDate: '2026-01-01', endDate: '2026-01-31' };
    expectError(await get('/analytics/metrics', k(op)), 400, 'validation_failed');
    expectError(await metrics(op, { ...q, startDate: '2026-02-30' }), 400, 'validation_failed');
    expectError(await metrics(op, { ...q, endDate: '2025-12-31' }), 400, 'validation_failed');
    expectError(await metrics(op, { ...q, startDate: '2023-01-01', endDate: '2025-12-31' }), 400, 'validation_failed');
    expectError(await metrics(op, { ...q, locationIds: ' , ' }), 400, 'validation_failed');
    const intruder = await otherOperator();
    expectError(await metrics(op, { ...q, locationIds: `${op.locationId},${intruder.locationId}` }), 404, 'not_found');
    expectError(await metrics(op, { ...q, locationIds: 'loc_nope' }), 404, 'not_found');
    const eur = await locationIn(op, 'Europe/Paris', 'eur');
    const mixed = await metrics(op, { ...q, locationIds: `${op.locationId},${eur}` });
    expectError(mixed, 400, 'validation_failed');
    expect(mixed.body.details[0]).toMatchObject({ field: 'locationIds', code: 'mixed_currencies' });
    const staff = await op.addUser({ role: 'staff' });
    expectError(await metrics(op, q, staff.key), 403, 'forbidden');
    const analyst = await op.addUser({ role: 'staff', permissions: ['analytics'] });
    expect((await metrics(op, q, analyst.key)).status).toBe(200);
  });
});

describe('GET /analytics/inventory-performance', () => {
  it('ranks items, assets and products by net revenue from the ledger', async () => {
    const op = await createOperator({ timezone: 'UTC' });
    const big = await rentalItem(op, { assets: 2, data: { name: 'Yacht 40' } });
    const small = await rentalItem(op, { assets: 1, data: { name: 'Kayak' } });
    const day = '2026-06-10';
    const t = `${day}T15:00:00.000Z`;
    const rows = await Promise.all([
      bookingRow(op, { locationId: op.locationId, date: day, tz: 'UTC', itemId: big.id }),
      bookingRow(op, { locationId: op.locationId, date: day, tz: 'UTC', itemId: big.id }),
      bookingRow(op, { locationId: op.locationId, date: day, tz: 'UTC', itemId: small.id }),
    ]);
    await insertAll(rows.map((r) => r.stmt));
    const [b1, b2, b3] = rows.map((r) => r.id);
    await entries(op, [
      { locationId: op.locationId, rentalId: b1, itemId: big.id, assetId: big.assetIds[0], type: 'revenue', amount: 50000, at: t },
      { locationId: op.locationId, rentalId: b1, itemId: big.id, assetId: big.assetIds[0], type: 'discount', amount: -5000, at: t },
      { locationId: op.locationId, rentalId: b2, itemId: big.id, assetId: big.assetIds[1], type: 'revenue', amount: 30000, at: t },
      { locationId: op.locationId, rentalId: b3, itemId: small.id, assetId: small.assetIds[0], type: 'revenue', amount: 8000, at: t },
      { locationId: op.locationId, type: 'revenue', amount: 1500, at: t, metadata: { posItemId: 'pitm_ice', quantity: 3 } },
      { locationId: op.locationId, type: 'revenue', amount: 4000, at: t, metadata: { posItemId: 'pitm_fuel', quantity: 1 } },
      { locationId: op.locationId, type: 'revenue', amount: 9999, at: '2026-06-11T00:00:00.000Z', rentalId: b3, itemId: small.id }, // next day
    ]);
    const r = await get(`/analytics/inventory-performance?locationIds=${op.locationId}&startDate=${day}&endDate=${day}&limit=5`, k(op));
    expect(r.status, r.text).toBe(200);
    expect(r.body.rentalRevenueCents).toBe(83000);
    expect(r.body.items).toEqual([
      {
        inventoryId: big.id,
        name: 'Yacht 40',
        locationId: op.locationId,
        revenueCents: 75000,
        grossRevenueCents: 80000,
        discountsCents: 5000,
        bookings: 2,
        bookedHours: 2,
        sharePercent: 90.36,
      },
      {
        inventoryId: small.id,
        name: 'Kayak',
        locationId: op.locationId,
        revenueCents: 8000,
        grossRevenueCents: 8000,
        discountsCents: 0,
        bookings: 1,
        bookedHours: 1,
        sharePercent: 9.64,
      },
    ]);
    expect(r.body.assets.map((a: any) => [a.assetId, a.name, a.itemName, a.revenueCents])).toEqual([
      [big.assetIds[0], 'Boat 1', 'Yacht 40', 45000],
      [big.assetIds[1], 'Boat 2', 'Yacht 40', 30000],
      [small.assetIds[0], 'Boat 1', 'Kayak', 8000],
    ]);
    expect(r.body.products).toEqual([
      { posItemId: 'pitm_fuel', name: null, revenueCents: 4000, quantity: 1 },
      { posItemId: 'pitm_ice', name: null, revenueCents: 1500, quantity: 3 },
    ]);
    const top1 = await get(`/analytics/inventory-performance?locationIds=${op.locationId}&startDate=${day}&endDate=${day}&limit=1`, k(op));
    expect(top1.body.items.map((i: any) => i.inventoryId)).toEqual([big.id]);
    expect(top1.body.rentalRevenueCents).toBe(83000);
    expectError(await get(`/analytics/inventory-performance?locationIds=${op.locationId}&startDate=${day}&endDate=${day}&limit=0`, k(op)), 400);
    const intruder = await otherOperator();
    expectError(await get(`/analytics/inventory-performance?locationIds=${intruder.locationId}&startDate=${day}&endDate=${day}`, k(op)), 404, 'not_found');
  });
});
