/**
 * Private reseller sandboxes (issue 28): every reseller channel and every single-operator key holder
 * sells its own private demo operator with its test key, created and seeded on first use; no reseller
 * sees another's bookings or availability, and a sandbox reset resets that operator alone.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, del, expectError, get, post } from '../../harness';
import { at, ch, idem, partnerKey, platform, rentalItem } from './factories';
import { tagOf } from '../../../src/seed';
import { inventoryIds } from '../../../src/seed/inventory';
import { SEED } from '../../../src/seed/types';

const TZ = 'America/New_York';

const q = async <T = any>(sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;

const merchantOf = async (key: string): Promise<string> => {
  const r = await get('/channel/v1/me', ch(key));
  expect(r.status, r.text).toBe(200);
  return r.body.channel ? r.body.channel.merchants[0].merchantId : r.body.connection.merchantId;
};

/** A morning far enough ahead that no seeded booking is on it. */
const window = { startTime: at(TZ, 40, '10:00'), endTime: at(TZ, 40, '12:00') };
const line = async (key: string, productId: string) => {
  const r = await post('/channel/v1/availability', { productIds: [productId], ...window }, ch(key));
  expect(r.status, r.text).toBe(200);
  return r.body.data[0];
};
const sale = (productId: string, quantity: number, reference: string) => ({ productId, ...window, quantity, totalPrice: 250 * quantity, reference });

describe('Reseller sandboxes', () => {
  it("each reseller channel sells its own private operator: no reseller sees another's bookings or availability; a reset resets it alone", async () => {
    const a = await platform();
    const b = await platform();
    // Two first requests at once: one private operator, seeded once (each seeding issues one admin key).
    const first = await Promise.all([get('/channel/v1/me', ch(a.keys.test)), get('/channel/v1/me', ch(a.keys.test))]);
    for (const r of first) expect(r.status, r.text).toBe(200);
    const opA = first[0].body.channel.merchants[0].merchantId as string;
    expect(first[1].body.channel.merchants[0].merchantId).toBe(opA);
    expect(first[0].body).toMatchObject({ mode: 'test', channel: { merchants: [{ merchantId: opA, sandbox: true }] } });
    expect(opA).toMatch(/^cus_sbx_/);
    expect(await q('SELECT owner_kind AS kind, owner_id AS owner FROM sandbox_operators WHERE operator_id = ?', opA)).toEqual([
      { kind: 'channel', owner: a.channelId },
    ]);
    expect(await q('SELECT count(*) AS n FROM api_keys WHERE customer_id = ?', opA)).toEqual([{ n: 1 }]);
    const opB = await merchantOf(b.keys.test);
    expect(opB).toMatch(/^cus_sbx_/);
    expect(new Set([opA, opB, SEED.demo.customerId]).size).toBe(3);

    // Each sells its own demo data, and only that.
    const pontoonA = inventoryIds({ tag: tagOf(opA) }).pontoon;
    const pontoonB = inventoryIds({ tag: tagOf(opB) }).pontoon;
    const productsA = (await get('/channel/v1/products', ch(a.keys.test))).body.data as any[];
    expect(productsA.map((p) => p.productId)).toContain(pontoonA);
    expect(productsA.every((p) => p.merchantId === opA)).toBe(true);
    expect((await get('/channel/v1/products', ch(b.keys.test))).body.data.map((p: any) => p.productId)).not.toContain(pontoonA);
    expect(await line(b.keys.test, pontoonA)).toMatchObject({ available: false, error: 'unknown_product' });
    expectError(await post('/channel/v1/bookings', sale(pontoonA, 1, 'B-X'), idem(b.keys.test, 'bx')), 404, 'unknown_product');

    // A sells out its pontoons that morning; B sells one of its own.
    const free = (await line(a.keys.test, pontoonA)).unitsFree as number;
    expect(free).toBeGreaterThan(1);
    expect(await line(b.keys.test, pontoonB)).toMatchObject({ available: true, unitsFree: free });
    const bookA = await post('/channel/v1/bookings', sale(pontoonA, free, 'A-1'), idem(a.keys.test, 'a1'));
    expect(bookA.status, bookA.text).toBe(201);
    expect(bookA.body).toMatchObject({ mode: 'test', merchantId: opA });
    const bookB = await post('/channel/v1/bookings', sale(pontoonB, 1, 'B-1'), idem(b.keys.test, 'b1'));
    expect(bookB.status, bookB.text).toBe(201);
    expect(bookB.body).toMatchObject({ mode: 'test', merchantId: opB });
    expect(await line(a.keys.test, pontoonA)).toMatchObject({ available: false, unitsFree: 0 });
    expect(await line(b.keys.test, pontoonB)).toMatchObject({ available: true, unitsFree: free - 1 });

    // B never sees nor cancels A's booking.
    expectError(await get(`/channel/v1/bookings/${bookA.body.bookingId}`, ch(b.keys.test)), 404);
    expect((await get('/channel/v1/bookings?reference=A-1', ch(b.keys.test))).body.data).toEqual([]);
    expectError(await del(`/channel/v1/bookings/${bookA.body.bookingId}`, undefined, ch(b.keys.test)), 404);
    expect((await get(`/channel/v1/bookings/${bookA.body.bookingId}`, ch(a.keys.test))).body.status).toBe('confirmed');

    // A's reset: its operator purged and a fresh one seeded in its place; B's sandbox and booking stay.
    const reset = await post('/channel/v1/sandbox/reset', {}, ch(a.keys.test));
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({ reset: true, deletedBookings: 1, merchantId: opA, reseeded: true });
    const opA2 = await merchantOf(a.keys.test);
    expect(opA2).toMatch(/^cus_sbx_/);
    expect(opA2).not.toBe(opA);
    expect(await q('SELECT count(*) AS n FROM customers WHERE id = ?', opA)).toEqual([{ n: 0 }]);
    expect(await q('SELECT count(*) AS n FROM bookings WHERE customer_id = ?', opA)).toEqual([{ n: 0 }]);
    expect(await q('SELECT count(*) AS n FROM bookings WHERE customer_id = ? AND test_mode = 1', opA2)).toEqual([{ n: 0 }]);
    expectError(await get(`/channel/v1/bookings/${bookA.body.bookingId}`, ch(a.keys.test)), 404);
    expect(await line(a.keys.test, inventoryIds({ tag: tagOf(opA2) }).pontoon)).toMatchObject({ available: true, unitsFree: free });
    expect(await merchantOf(b.keys.test)).toBe(opB);
    expect((await get(`/channel/v1/bookings/${bookB.body.bookingId}`, ch(b.keys.test))).body).toMatchObject({ status: 'confirmed', merchantId: opB });
    expect(await line(b.keys.test, pontoonB)).toMatchObject({ unitsFree: free - 1 });
    // The same idempotency key starts over on the fresh sandbox.
    const again = await post('/channel/v1/bookings', sale(inventoryIds({ tag: tagOf(opA2) }).pontoon, 1, 'A-2'), idem(a.keys.test, 'a1'));
    expect(again.status, again.text).toBe(201);
  }, 180_000);

  it("a single-operator test key sells a private operator of its own; a sandbox operator's key sells it, and its reset wipes only its bookings", async () => {
    const live = await createOperator({ timezone: TZ });
    const liveItem = await rentalItem(live, { hourly: 50 });
    const one = await partnerKey(live, { mode: 'test', name: 'Desk one' });
    const two = await partnerKey(live, { mode: 'test', name: 'Desk two' });
    const [op1, op2] = [await merchantOf(one.key), await merchantOf(two.key)];
    expect(op1).toMatch(/^cus_sbx_/);
    expect(op2).toMatch(/^cus_sbx_/);
    expect(new Set([op1, op2, live.customerId, SEED.demo.customerId]).size).toBe(4);
    expect(await q('SELECT owner_kind AS kind, owner_id AS owner FROM sandbox_operators WHERE operator_id = ?', op1)).toEqual([
      { kind: 'connection', owner: one.connectionId },
    ]);
    const sold = ((await get('/channel/v1/products', ch(one.key))).body.data as any[]).map((p) => p.productId);
    expect(sold).toContain(inventoryIds({ tag: tagOf(op1) }).pontoon);
    expect(sold).not.toContain(liveItem.id);
    // The live operator's own calendar never holds a test sale.
    const b1 = await post('/channel/v1/bookings', sale(inventoryIds({ tag: tagOf(op1) }).pontoon, 1, 'D1'), idem(one.key, 'd1'));
    expect(b1.status, b1.text).toBe(201);
    expect(await q('SELECT count(*) AS n FROM bookings WHERE customer_id = ?', live.customerId)).toEqual([{ n: 0 }]);
    expectError(await get(`/channel/v1/bookings/${b1.body.bookingId}`, ch(two.key)), 404);

    // A sandbox operator's own single-operator key sells that operator itself; a reset leaves the operator in place.
    const sbx = await createOperator({ timezone: TZ, sandbox: true });
    const item = await rentalItem(sbx, { hourly: 50, assets: 2 });
    const own = await partnerKey(sbx, { mode: 'test', name: 'Own desk' });
    expect(await merchantOf(own.key)).toBe(sbx.customerId);
    const made = await post('/channel/v1/bookings', sale(item.id, 1, 'S1'), idem(own.key, 's1'));
    expect(made.status, made.text).toBe(201);
    const reset = await post('/channel/v1/sandbox/reset', {}, ch(own.key));
    expect(reset.body).toEqual({ reset: true, deletedBookings: 1, merchantId: sbx.customerId, reseeded: false });
    expect((await get('/customer', { key: sbx.adminKey })).body.customerId).toBe(sbx.customerId);
    expect(await line(own.key, item.id)).toMatchObject({ available: true, unitsFree: 2 });
    // ... and the other key holders' sandboxes are untouched.
    expect((await get(`/channel/v1/bookings/${b1.body.bookingId}`, ch(one.key))).status).toBe(200);
  }, 180_000);
});

describe('Sandbox settlement', () => {
  it("a test key's settlement shows its sandbox's test bookings, marked test, with their own totals; live settlement leaves them out", async () => {
    const p = await platform();
    const op = await merchantOf(p.keys.test);
    const pontoon = inventoryIds({ tag: tagOf(op) }).pontoon;
    const one = await post('/channel/v1/bookings', sale(pontoon, 1, 'SET-1'), idem(p.keys.test, 'set1'));
    expect(one.status, one.text).toBe(201);
    const two = await post('/channel/v1/bookings', sale(pontoon, 1, 'SET-2'), idem(p.keys.test, 'set2'));
    expect(two.status, two.text).toBe(201);
    const gone = await post('/channel/v1/bookings', sale(pontoon, 1, 'SET-3'), idem(p.keys.test, 'set3'));
    expect(gone.status, gone.text).toBe(201);
    expect((await del(`/channel/v1/bookings/${gone.body.bookingId}`, undefined, ch(p.keys.test))).status).toBe(200);

    const month = window.startTime.slice(0, 7);
    const rows = await q<{ total: number; tax: number; rate: number }>(
      'SELECT total, tax_total AS tax, commission_rate AS rate FROM bookings ' +
        "WHERE customer_id = ? AND test_mode = 1 AND status <> 'cancelled' AND local_date LIKE ?",
      op,
      `${month}-%`,
    );
    expect(rows).toHaveLength(2);
    const gross = rows.reduce((s, r) => s + r.total, 0) / 100;
    const commission = rows.reduce((s, r) => s + Math.round(((r.total - r.tax) * r.rate) / 100), 0) / 100;
    const sums = { bookings: 2, grossSales: gross, commission, amountOwed: Math.round((gross - commission) * 100) / 100 };

    const test = await get(`/channel/v1/settlement?month=${month}`, ch(p.keys.test));
    expect(test.status, test.text).toBe(200);
    expect(test.body.operators).toEqual([expect.objectContaining({ merchantId: op, test: true, ...sums })]);
    expect(test.body.testTotals).toEqual(sums);
    expect(test.body.totals).toEqual({ bookings: 0, grossSales: 0, commission: 0, amountOwed: 0 });

    // Live settlement (the live key, the portal) is unchanged: no test line, no testTotals.
    for (const live of [
      await get(`/channel/v1/settlement?month=${month}`, ch(p.keys.live)),
      await get(`/channel/v1/portal/settlement?month=${month}`, ch(p.portalToken)),
    ]) {
      expect(live.status, live.text).toBe(200);
      expect(live.body.operators).toEqual([]);
      expect(live.body.totals).toEqual({ bookings: 0, grossSales: 0, commission: 0, amountOwed: 0 });
      expect(live.body).not.toHaveProperty('testTotals');
    }
    expectError(await get(`/channel/v1/settlement?month=${month}`), 401);
    expectError(await get('/channel/v1/settlement?month=2026-13', ch(p.keys.test)), 400, 'validation_failed');
  }, 60_000);
});
