/**
 * Pricing rules on every sales path (issue 31): the day-rate cap (a rental never costs more than a
 * longer rate that covers it, unless the item turns the cap off) and the item's allowed durations
 * (operator, widget quote and checkout, reseller channel with its own price).
 */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, post, type ApiResult, type Operator } from '../../harness';
import { at, book, bookBody, counts, email, everyDay, rentalItem, type TestItem } from './factories';
import { partnerKey, ch } from '../channel/factories';

/** The item: 108.25 an hour, 757.75 the day, open 08:00–18:00 (the factory's default hours). */
const season = { name: 'Summer', dailyPrices: everyDay(757.75), hourlyPrices: everyDay({ basePrice: 108.25 }) };

/** The operator's price of a window: the 400 `price_mismatch` answers the server's total and breakdown without booking. */
async function operatorQuote(op: Operator, item: TestItem, from: string, to: string) {
  const r = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, from), endTime: at(op.timezone, 5, to), total: 0.01 }));
  expectError(r, 400, 'price_mismatch');
  return { total: r.body.expectedTotal as number, unit: r.body.breakdown[0].unit as string };
}

const widgetOrder = (op: Operator, item: TestItem, from: string, to: string) => ({
  customerId: op.customerId,
  inventoryId: item.id,
  startTime: at(op.timezone, 6, from),
  endTime: at(op.timezone, 6, to),
});

describe('the day-rate cap', () => {
  it('8 hours never costs more than the 10-hour day at the day rate (operator and widget)', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { data: { seasons: [season] } });
    expect(await operatorQuote(op, item, '08:00', '18:00')).toEqual({ total: 757.75, unit: 'day' });
    // 8 × 108.25 = 866.00 by the hour: capped at the day's 757.75.
    expect(await operatorQuote(op, item, '09:00', '17:00')).toEqual({ total: 757.75, unit: 'day' });
    // Below the day rate the hourly price stands.
    expect(await operatorQuote(op, item, '09:00', '13:00')).toEqual({ total: 433, unit: 'hour' });
    const w = await post('/public/widget/quote', widgetOrder(op, item, '09:00', '17:00'));
    expect(w.status, w.text).toBe(200);
    expect(w.body.total).toBe(757.75);
    const placed = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 7, '09:00'), endTime: at(op.timezone, 7, '17:00'), total: 757.75 }),
    );
    expect(placed.status, placed.text).toBe(201);
  });

  it('a half-day price caps the hours up to half the opening day', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { data: { seasons: [{ ...season, halfDayPrices: everyDay(400) }] } });
    // 5 hours (half of 08:00–18:00) × 108.25 = 541.25: the half day's 400.
    expect(await operatorQuote(op, item, '08:00', '13:00')).toEqual({ total: 400, unit: 'half_day' });
    // 6 hours is more than half a day: 649.50 by the hour, under the day rate.
    expect(await operatorQuote(op, item, '08:00', '14:00')).toEqual({ total: 649.5, unit: 'hour' });
  });

  it('the operator may turn the cap off for an item (dayRateCap: false), through POST /inventory/setup', async () => {
    const op = await createOperator();
    const off = await rentalItem(op, { data: { seasons: [season], dayRateCap: false } as never });
    expect(await operatorQuote(op, off, '09:00', '17:00')).toEqual({ total: 866, unit: 'hour' });
    const setup = await post(
      '/inventory/setup',
      {
        data: {
          name: 'Uncapped boat',
          type: 'rental',
          locationId: op.locationId,
          assets: [{ name: 'Boat 1' }],
          seasons: [season],
          dayRateCap: false,
        },
      },
      { key: op.adminKey },
    );
    expect(setup.status, setup.text).toBeLessThan(300);
    expect(setup.body.data.dayRateCap).toBe(false);
    const id = setup.body.inventoryId as string;
    const listed = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(listed.body.data.find((i: { inventoryId: string }) => i.inventoryId === id).data.dayRateCap).toBe(false);
    expect(await operatorQuote(op, { id } as TestItem, '09:00', '17:00')).toEqual({ total: 866, unit: 'hour' });
    const bad = await post(
      '/inventory/setup',
      { data: { name: 'X', type: 'rental', locationId: op.locationId, assets: [{ name: 'B' }], dayRateCap: 'no' } },
      {
        key: op.adminKey,
      },
    );
    expectError(bad, 400, 'validation_failed');
  });
});

describe('allowed durations', () => {
  const setup = async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { data: { durations: [2, 4, 8] } });
    return { op, item };
  };
  const expectDurationRefused = (r: ApiResult) => {
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toContain('2, 4 or 8 hours');
    expect(r.body.allowedDurations).toEqual([2, 4, 8]);
    expect(r.body.reason).toBe('duration_not_allowed');
  };

  it('the widget quote and checkout refuse 3 hours on an item that rents for 2, 4 or 8', async () => {
    const { op, item } = await setup();
    expectDurationRefused(await post('/public/widget/quote', widgetOrder(op, item, '10:00', '13:00')));
    const renter = { firstName: 'Rita', lastName: 'Renter', email: email('durations') };
    const checkout = (from: string, to: string) =>
      post('/public/widget/checkout', { ...widgetOrder(op, item, from, to), customerInfo: renter, paymentMethodId: 'pm_card_visa' });
    expectDurationRefused(await checkout('10:00', '13:00'));
    expect((await counts(op.customerId)).bookings).toBe(0);
    const ok = await checkout('10:00', '14:00');
    expect(ok.status, ok.text).toBe(201);
  });

  it('the operator is held to them too; the whole opening day is a day rental and stays bookable', async () => {
    const { op, item } = await setup();
    const w = (day: number, from: string, to: string) => ({ inventoryId: item.id, startTime: at(op.timezone, day, from), endTime: at(op.timezone, day, to) });
    expectDurationRefused(await book(op, bookBody(w(4, '10:00', '13:00'))));
    // 9.5 hours is less than the opening day (08:00–18:00), and not an allowed duration.
    expectDurationRefused(await book(op, bookBody(w(4, '08:00', '17:30'))));
    expect((await counts(op.customerId)).bookings).toBe(0);
    expect((await book(op, bookBody(w(4, '08:00', '10:00')))).status).toBe(201);
    const day = await book(op, bookBody(w(5, '08:00', '18:00')));
    expect(day.status, day.text).toBe(201);
  });

  it('a reseller channel sale with its own price is held to them', async () => {
    const { op, item } = await setup();
    const pk = await partnerKey(op);
    const sale = (from: string, to: string, totalPrice: number) =>
      post(
        '/channel/v1/bookings',
        {
          productId: item.id,
          startTime: at(op.timezone, 9, from),
          endTime: at(op.timezone, 9, to),
          quantity: 1,
          totalPrice,
          reference: `REF-${crypto.randomUUID().slice(0, 6)}`,
          guest: { firstName: 'Gail', lastName: 'Guest', email: 'gail@example.test' },
        },
        ch(pk.key, { 'idempotency-key': crypto.randomUUID() }),
      );
    const refused = await sale('10:00', '13:00', 300);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.message).toContain('2, 4 or 8 hours');
    expect((await counts(op.customerId)).bookings).toBe(0);
    const ok = await sale('10:00', '12:00', 200);
    expect(ok.status, ok.text).toBe(201);
  });
});
