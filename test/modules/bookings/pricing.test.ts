/** Server-side pricing, service level: seasons, hourly rules, days, tours, add-ons, discounts, taxes, tips. */
import { describe, it, expect } from 'vitest';
import { InventoryData, type InventoryDataInput } from '../../../src/modules/inventory/model';
import type { EngineItem } from '../../../src/modules/availability/engine';
import {
  loyaltyPointsFor,
  priceAddons,
  quoteFromTotal,
  quoteOrder,
  rentalUnitPrice,
  seasonFor,
  tourQuote,
  type LineInput,
} from '../../../src/modules/bookings/pricing';
import { ApiError } from '../../../src/lib/errors';
import { wallTimeToUtc } from '../../../src/lib/time';

const tz = 'America/New_York';
const at = (date: string, time: string) => wallTimeToUtc(date, time, tz);
const every = <T>(v: T) => ({ Monday: v, Tuesday: v, Wednesday: v, Thursday: v, Friday: v, Saturday: v, Sunday: v });

function rental(data: Partial<InventoryDataInput>): EngineItem {
  return { id: 'inv', kind: 'rental', timezone: tz, assets: [], model: InventoryData.parse({ name: 'Boat', locationId: 'loc', ...data }) };
}

function expectBad(fn: () => unknown, reason?: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    if (reason) expect((e as ApiError).extra?.reason).toBe(reason);
    return;
  }
  throw new Error('expected a 400');
}

describe('rental prices', () => {
  // 2026-07-06 is a Monday.
  const base = rental({
    seasons: [
      {
        name: 'Default',
        dailyPrices: every(400),
        hourlyPrices: every({
          basePrice: 100,
          minimumHours: 2,
          maximumHours: 8,
          multiHourDiscounts: [
            { hours: 4, discountPercentage: 10 },
            { hours: 6, discountPercentage: 20 },
          ],
        }),
      },
    ],
  });

  it('hourly with the largest multi-hour discount reached', () => {
    expect(rentalUnitPrice(base, at('2026-07-06', '10:00'), at('2026-07-06', '12:00'))).toMatchObject({ amount: 20000, unit: 'hour' });
    expect(rentalUnitPrice(base, at('2026-07-06', '10:00'), at('2026-07-06', '14:00')).amount).toBe(36000);
    // 6.5 hours with 20% off is 520.00 by the hour: the day-rate cap charges the day's 400 (issue 31), unless the item turns it off.
    expect(rentalUnitPrice(base, at('2026-07-06', '10:00'), at('2026-07-06', '16:30'))).toMatchObject({ amount: 40000, unit: 'day' });
    const uncapped: EngineItem = { ...base, model: { ...base.model, dayRateCap: false } as EngineItem['model'] };
    expect(rentalUnitPrice(uncapped, at('2026-07-06', '10:00'), at('2026-07-06', '16:30')).amount).toBe(52000);
  });

  it('minimum and maximum hours', () => {
    expectBad(() => rentalUnitPrice(base, at('2026-07-06', '10:00'), at('2026-07-06', '11:00')), 'duration_not_allowed');
    const long = rental({
      operatingHours: every({ open: '06:00', close: '22:00' }),
      seasons: [{ name: 'D', hourlyPrices: every({ basePrice: 10, maximumHours: 8 }) }],
    });
    expectBad(() => rentalUnitPrice(long, at('2026-07-06', '06:00'), at('2026-07-06', '15:00')), 'duration_not_allowed');
  });

  it('the opening day or several days are priced by the day (per weekday)', () => {
    const weekdays = rental({ seasons: [{ name: 'D', dailyPrices: { ...every(300), Saturday: 500 }, hourlyPrices: every(50) }] });
    expect(rentalUnitPrice(weekdays, at('2026-07-06', '08:00'), at('2026-07-06', '18:00'))).toMatchObject({ amount: 30000, unit: 'day' });
    // Friday 08:00 to Sunday 18:00: Friday 300 + Saturday 500 + Sunday 300.
    expect(rentalUnitPrice(weekdays, at('2026-07-10', '08:00'), at('2026-07-12', '18:00')).amount).toBe(110000);
    // A legacy bare hourly number reads as basePrice.
    expect(rentalUnitPrice(weekdays, at('2026-07-06', '09:00'), at('2026-07-06', '12:00'))).toMatchObject({ amount: 15000, unit: 'hour' });
  });

  it('half-day price when no hourly rule and at most half the opening day', () => {
    const half = rental({ seasons: [{ name: 'D', dailyPrices: every(400), halfDayPrices: every(250) }] });
    expect(rentalUnitPrice(half, at('2026-07-06', '08:00'), at('2026-07-06', '12:00'))).toMatchObject({ amount: 25000, unit: 'half_day' });
    expect(rentalUnitPrice(half, at('2026-07-06', '08:00'), at('2026-07-06', '15:00'))).toMatchObject({ amount: 40000, unit: 'day' });
  });

  it('seasons: a dated one beats a recurring one beats the default; MM-DD seasons wrap the new year', () => {
    const model = InventoryData.parse({
      name: 'B',
      locationId: 'l',
      seasons: [
        { name: 'Default', hourlyPrices: every(10) },
        { name: 'Winter', startDate: '11-01', endDate: '02-28', hourlyPrices: every(20) },
        { name: 'Holidays 2026', startDate: '2026-12-20', endDate: '2026-12-31', hourlyPrices: every(30) },
      ],
    });
    expect(seasonFor(model, '2026-07-06')?.name).toBe('Default');
    expect(seasonFor(model, '2027-01-15')?.name).toBe('Winter');
    expect(seasonFor(model, '2026-11-01')?.name).toBe('Winter');
    expect(seasonFor(model, '2026-12-24')?.name).toBe('Holidays 2026');
    expect(seasonFor(model, '2027-12-24')?.name).toBe('Winter');
  });

  it('no price configured is a 400 (an absent price is never zero)', () => {
    expectBad(() => rentalUnitPrice(rental({}), at('2026-07-06', '10:00'), at('2026-07-06', '12:00')), 'no_price');
  });
});

describe('tour prices', () => {
  const model = InventoryData.parse({
    name: 'Tour',
    locationId: 'l',
    type: 'tour',
    tourPricing: {
      priceTiers: [
        { name: 'Child', price: 20 },
        { name: 'Adult', price: 45.5 },
        { name: 'Infant', price: 0, seats: 0 },
      ],
      minParticipants: 2,
    },
  });

  it('tickets per tier, seats per tier, the Adult fare as standard', () => {
    const q = tourQuote(model, { tickets: { Adult: 2, Child: 1, Infant: 1 } }, { requirePrice: true });
    expect(q).toMatchObject({ amount: 11100, seats: 3, participants: 4, unit: 'ticket', privateCharter: false });
    expect(tourQuote(model, { quantity: 3 }, { requirePrice: true }).amount).toBe(13650);
  });

  it('unknown tiers and parties below the minimum are 400', () => {
    expectBad(() => tourQuote(model, { tickets: { Senior: 2 } }, { requirePrice: true }));
    expectBad(() => tourQuote(model, { tickets: { Adult: 1 } }, { requirePrice: true }));
  });

  it('private charter: base price for the base headcount plus each extra guest', () => {
    const charter = InventoryData.parse({
      name: 'C',
      locationId: 'l',
      type: 'tour',
      capacity: 12,
      tourPricing: { isPrivate: true, privatePricing: { basePrice: 600, baseHeadcount: 6, extraParticipantPrice: 40 } },
    });
    expect(tourQuote(charter, { quantity: 8 }, { requirePrice: true })).toMatchObject({
      amount: 68000,
      unit: 'charter',
      privateCharter: true,
      participants: 8,
    });
    expect(tourQuote(charter, { quantity: 4 }, { requirePrice: true }).amount).toBe(60000);
  });
});

describe('add-ons, discounts, taxes and tips', () => {
  const catalog = InventoryData.parse({
    name: 'B',
    locationId: 'l',
    addons: [
      { addonId: 'cooler', name: 'Cooler', price: 15 },
      { addonId: 'skipper', name: 'Skipper', price: 40, priceType: 'per_hour', taxable: false },
      { addonId: 'gear', name: 'Fishing gear', price: 25, priceType: 'per_day', maxQuantity: 2 },
      { addonId: 'vest', name: 'Life vest', price: 5, priceType: 'per_person' },
    ],
  }).addons.map((def) => ({ def, global: false }));

  it('prices each add-on by its price type', () => {
    const lines = priceAddons([{ addonId: 'cooler', quantity: 2 }, { addonId: 'skipper' }, { addonId: 'gear' }, { addonId: 'vest' }], catalog, {
      hours: 3,
      days: 2,
      participants: 4,
    });
    expect(lines.map((l) => [l.addonId, l.amount])).toEqual([
      ['cooler', 3000],
      ['skipper', 12000],
      ['gear', 5000],
      ['vest', 2000],
    ]);
    expectBad(() => priceAddons([{ addonId: 'nope' }], catalog, { hours: 1, days: 1, participants: 1 }));
    expectBad(() => priceAddons([{ addonId: 'gear', quantity: 3 }], catalog, { hours: 1, days: 1, participants: 1 }));
  });

  const line = (o: Partial<LineInput> = {}): LineInput => ({ unit: 'hour', hours: 2, days: 1, season: null, rental: 20000, addons: [], taxes: [], ...o });

  it('discount before tax, taxes by appliesTo, untaxed tip', () => {
    const addons = priceAddons([{ addonId: 'cooler' }, { addonId: 'skipper' }], catalog, { hours: 2, days: 1, participants: 1 }); // 15 taxable + 80 untaxed
    const [q] = quoteOrder(
      [
        line({
          addons,
          taxes: [
            { name: 'Sales', rate: 10, appliesTo: 'all' },
            { name: 'Boat', rate: 5, appliesTo: 'rental' },
            { name: 'Goods', rate: 2, appliesTo: 'addons' },
          ],
        }),
      ],
      { discounts: [{ type: 'promo', code: 'TEN', percent: 10 }], tip: 1000 },
    );
    // Subtotal 200 + 15 + 80 = 295; 10% off = 29.50 (rental 20.00, add-ons 9.50 of which cooler 1.50).
    expect(q.subtotal).toBe(29500);
    expect(q.discountTotal).toBe(2950);
    const tax = Object.fromEntries(q.taxes.map((t) => [t.name, t.amount]));
    expect(tax).toEqual({ Sales: Math.round((18000 + 1350) * 0.1), Boat: 900, Goods: 27 });
    expect(q.tip).toBe(1000);
    expect(q.total).toBe(29500 - 2950 + q.taxTotal + 1000);
    expect(loyaltyPointsFor(q)).toBe(265);
  });

  it('a fixed amount off is shared across lines by value; a bundle percent applies per line', () => {
    const qs = quoteOrder([line({ rental: 30000, linePercent: 10 }), line({ rental: 10000 })], { discounts: [{ type: 'promo', code: 'FIVE', amount: 2000 }] });
    expect(qs[0].discounts.map((d) => [d.type, d.amount])).toEqual([
      ['bundle', 3000],
      ['promo', 1459],
    ]);
    expect(qs[1].discounts.map((d) => [d.type, d.amount])).toEqual([['promo', 541]]);
    expect(qs[0].discountTotal + qs[1].discountTotal).toBe(5000);
  });

  it('a seller-set tax-inclusive total splits into price and tax', () => {
    const q = quoteFromTotal(11000, {
      hours: 2,
      days: 1,
      season: null,
      taxes: [
        { name: 'A', rate: 6, appliesTo: 'all' },
        { name: 'B', rate: 4, appliesTo: 'all' },
      ],
    });
    expect(q).toMatchObject({ subtotal: 10000, taxTotal: 1000, total: 11000, unit: 'override' });
    expect(q.taxes.map((t) => t.amount)).toEqual([600, 400]);
  });
});
