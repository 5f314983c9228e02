/**
 * Order pricing (src/modules/bookings/pricing.ts), function level: the arithmetic of quoteOrder as
 * properties over random lines, discounts, taxes and tips; tax-inclusive overrides and loyalty
 * points; the day-rate cap and allowed durations of a rental as properties over random rates.
 * Add-ons, tours, seasons and rental unit prices: catalog-pricing.test.ts.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  checkAllowedDuration,
  loyaltyPointsFor,
  quoteFromTotal,
  quoteOrder,
  rentalUnitPrice,
  type AddonLine,
  type LineInput,
  type OrderDiscount,
} from '../../src/modules/bookings/pricing';
import { InventoryData, WEEKDAY_NAMES, type InventoryDataInput } from '../../src/modules/inventory/model';
import type { EngineItem } from '../../src/modules/availability/engine-types';
import { ApiError } from '../../src/lib/errors';
import { addDays, wallTimeToUtc } from '../../src/lib/time';

const RUNS = { numRuns: 200 };
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

// ------------------------------------------------------------------------------------------------
// Arbitraries: order lines in cents, as the booking service builds them.

const addonArb: fc.Arbitrary<AddonLine> = fc.record({
  addonId: fc.constantFrom('a', 'b', 'c'),
  name: fc.constant('Addon'),
  priceType: fc.constantFrom('flat' as const, 'per_hour' as const, 'per_day' as const, 'per_person' as const),
  unitPrice: fc.integer({ min: 0, max: 50_000 }),
  quantity: fc.integer({ min: 1, max: 5 }),
  amount: fc.integer({ min: 0, max: 200_000 }),
  taxable: fc.boolean(),
  global: fc.boolean(),
});
const taxArb = fc.record({
  name: fc.constantFrom('Sales', 'Boat', 'Goods'),
  rate: fc.oneof(fc.integer({ min: 0, max: 25 }), fc.constantFrom(6.25, 8.875, 13.5)),
  appliesTo: fc.constantFrom('all' as const, 'rental' as const, 'addons' as const),
});
const lineArb: fc.Arbitrary<LineInput> = fc.record({
  unit: fc.constantFrom('hour' as const, 'day' as const, 'ticket' as const),
  hours: fc.integer({ min: 1, max: 48 }),
  days: fc.integer({ min: 1, max: 3 }),
  season: fc.constant(null),
  rental: fc.integer({ min: 0, max: 500_000 }),
  addons: fc.array(addonArb, { maxLength: 3 }),
  taxes: fc.array(taxArb, { maxLength: 3 }),
  linePercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
});
const percentOff: fc.Arbitrary<OrderDiscount> = fc.record({
  type: fc.constantFrom('promo' as const, 'membership' as const),
  percent: fc.integer({ min: 0, max: 100 }),
});
const amountOff: fc.Arbitrary<OrderDiscount> = fc.record({
  type: fc.constantFrom('promo' as const, 'manual' as const),
  amount: fc.integer({ min: 0, max: 1_500_000 }),
});
const orderArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
  discounts: fc.array(fc.oneof(percentOff, amountOff), { maxLength: 3 }),
  tip: fc.integer({ min: 0, max: 20_000 }),
});

describe('quoteOrder: order totals', () => {
  it('every line: total = subtotal − discounts + taxes + tip, in integer cents, discounts within the subtotal', () => {
    fc.assert(
      fc.property(orderArb, ({ lines, discounts, tip }) => {
        const quotes = quoteOrder(lines, { discounts, tip });
        expect(quotes).toHaveLength(lines.length);
        quotes.forEach((q, i) => {
          expect(q.subtotal).toBe(lines[i].rental + sum(lines[i].addons.map((a) => a.amount)));
          expect(q.discountTotal).toBeGreaterThanOrEqual(0);
          expect(q.discountTotal).toBeLessThanOrEqual(q.subtotal);
          expect(q.taxTotal).toBe(sum(q.taxes.map((t) => t.amount)));
          expect(q.tip).toBe(i === 0 ? tip : 0);
          expect(q.total).toBe(q.subtotal - q.discountTotal + q.taxTotal + q.tip);
          for (const n of [q.subtotal, q.discountTotal, q.taxTotal, q.total, ...q.taxes.map((t) => t.amount), ...q.discounts.map((d) => d.amount)])
            expect(Number.isInteger(n)).toBe(true);
          expect(q.taxes.every((t) => t.amount >= 0)).toBe(true);
          expect(q.discounts.every((d) => d.amount > 0)).toBe(true);
        });
      }),
      RUNS,
    );
  });

  it('tips are never taxed: a tip changes only the first line’s total, by the tip', () => {
    fc.assert(
      fc.property(orderArb, ({ lines, discounts, tip }) => {
        const without = quoteOrder(lines, { discounts, tip: 0 });
        const withTip = quoteOrder(lines, { discounts, tip });
        withTip.forEach((q, i) => {
          expect(q.taxes).toEqual(without[i].taxes);
          expect(q.total - without[i].total).toBe(i === 0 ? tip : 0);
        });
      }),
      RUNS,
    );
  });

  it('without discounts each tax is rate × its base (rental, taxable add-ons, or both), rounded once', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 3 }), (raw) => {
        const lines = raw.map((l) => ({ ...l, linePercent: undefined }));
        quoteOrder(lines, {}).forEach((q, i) => {
          const rental = lines[i].rental;
          const addons = sum(lines[i].addons.filter((a) => a.taxable).map((a) => a.amount));
          const base = { rental, addons, all: rental + addons };
          expect(q.discountTotal).toBe(0);
          q.taxes.forEach((t) => expect(t.amount).toBe(Math.round((base[t.appliesTo] * t.rate) / 100)));
        });
      }),
      RUNS,
    );
  });

  it('a discount never raises a tax', () => {
    fc.assert(
      fc.property(orderArb, ({ lines, discounts }) => {
        const full = quoteOrder(
          lines.map((l) => ({ ...l, linePercent: undefined })),
          {},
        );
        quoteOrder(lines, { discounts }).forEach((q, i) => q.taxes.forEach((t, j) => expect(t.amount).toBeLessThanOrEqual(full[i].taxes[j].amount)));
      }),
      RUNS,
    );
  });

  it('percent discounts compound on what is left of each line', () => {
    fc.assert(
      fc.property(lineArb, fc.array(percentOff, { maxLength: 3 }), (line, discounts) => {
        const [q] = quoteOrder([line], { discounts });
        let left = q.subtotal;
        for (const p of [line.linePercent ?? 0, ...discounts.map((d) => d.percent!)]) left -= Math.round((left * p) / 100);
        expect(q.subtotal - q.discountTotal).toBe(left);
      }),
      RUNS,
    );
  });

  it('a fixed amount off is given in full up to the order total, shared by value, no line discounted beyond its subtotal', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 4 }), fc.double({ min: 0, max: 2, noNaN: true }), (raw, f) => {
        const lines = raw.map((l) => ({ ...l, linePercent: undefined }));
        const pool = sum(quoteOrder(lines, {}).map((q) => q.subtotal));
        const amount = Math.floor(pool * f); // up to twice the order: what is over the order is not given
        const quotes = quoteOrder(lines, { discounts: [{ type: 'manual', amount }] });
        expect(sum(quotes.map((q) => q.discountTotal))).toBe(Math.min(amount, pool));
        for (const q of quotes) {
          expect(q.discountTotal).toBeLessThanOrEqual(q.subtotal);
          expect(sum(q.discounts.map((d) => d.amount))).toBe(q.discountTotal);
          if (pool) expect(Math.abs(q.discountTotal - (Math.min(amount, pool) * q.subtotal) / pool)).toBeLessThan(1);
        }
      }),
      RUNS,
    );
  });

  it('by hand: a 10.00 discount on a 2.00 order of two lines takes both to zero; 0.04 off 0.03 + 0.03 + 0.03 gives 1 + 2 + 1 cents', () => {
    const line = (rental: number): LineInput => ({ unit: 'hour', hours: 1, days: 1, season: null, rental, addons: [], taxes: [] });
    expect(quoteOrder([line(100), line(100)], { discounts: [{ type: 'manual', amount: 1000 }] }).map((q) => [q.discountTotal, q.total])).toEqual([
      [100, 0],
      [100, 0],
    ]);
    expect(quoteOrder([line(3), line(3), line(3), line(0)], { discounts: [{ type: 'manual', amount: 4 }] }).map((q) => q.discountTotal)).toEqual([1, 2, 1, 0]);
  });

  it('by hand: 295.00 with 10% off, three taxes and a 10.00 tip', () => {
    const addons: AddonLine[] = [
      { addonId: 'cooler', name: 'Cooler', priceType: 'flat', unitPrice: 1500, quantity: 1, amount: 1500, taxable: true, global: false },
      { addonId: 'skipper', name: 'Skipper', priceType: 'per_hour', unitPrice: 4000, quantity: 1, amount: 8000, taxable: false, global: false },
    ];
    const taxes = [
      { name: 'Sales', rate: 10, appliesTo: 'all' as const },
      { name: 'Boat', rate: 5, appliesTo: 'rental' as const },
    ];
    const [q] = quoteOrder([{ unit: 'hour', hours: 2, days: 1, season: null, rental: 20000, addons, taxes }], {
      discounts: [{ type: 'promo', code: 'TEN', percent: 10 }],
      tip: 1000,
    });
    // 29.50 off: 20.00 from the rental (180.00 left), 9.50 from add-ons (1.50 of it from the taxable cooler: 13.50 left).
    expect(q).toMatchObject({ subtotal: 29500, discountTotal: 2950, tip: 1000 });
    expect(q.taxes.map((t) => t.amount)).toEqual([1935, 900]);
    expect(q.total).toBe(29500 - 2950 + 2835 + 1000);
  });
});

describe('quoteFromTotal and loyaltyPointsFor', () => {
  it('a tax-inclusive total splits into a pre-tax part and taxes that add back to it exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), fc.array(taxArb, { maxLength: 4 }), fc.nat(5000), (total, taxes, tip) => {
        const q = quoteFromTotal(total, { hours: 2, days: 1, season: null, taxes }, tip);
        const rate = sum(taxes.map((t) => t.rate));
        expect(q.rental + q.taxTotal).toBe(total);
        expect(sum(q.taxes.map((t) => t.amount))).toBe(q.taxTotal);
        expect(Math.abs(q.rental - total / (1 + rate / 100))).toBeLessThanOrEqual(0.5);
        expect(q.total).toBe(total + tip);
      }),
      RUNS,
    );
    expect(quoteFromTotal(11000, { hours: 1, days: 1, season: null, taxes: [{ name: 'VAT', rate: 10, appliesTo: 'all' }] })).toMatchObject({
      rental: 10000,
      taxTotal: 1000,
    });
  });

  it('one point per whole dollar after discounts, never negative', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (subtotal, off) => {
        const discountTotal = Math.min(subtotal, off);
        const points = loyaltyPointsFor({ subtotal, discountTotal });
        expect(points * 100).toBeLessThanOrEqual(subtotal - discountTotal);
        expect((points + 1) * 100).toBeGreaterThan(subtotal - discountTotal);
      }),
      RUNS,
    );
    expect(loyaltyPointsFor({ subtotal: 12999, discountTotal: 0 })).toBe(129);
  });
});

// ------------------------------------------------------------------------------------------------
// The day-rate cap and allowed durations: rentals within one opening day, over random rates.

const HOUR = 3_600_000;
const TZ = 'America/New_York';
const everyDay = <T>(v: T) => Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, v])) as Record<(typeof WEEKDAY_NAMES)[number], T>;
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Rates of an item (dollars), its opening day, and a rental inside that day (minutes, quarter hours). */
const rentalCase = fc
  .record({
    date: fc.integer({ min: 0, max: 730 }).map((n) => addDays('2026-01-01', n)),
    basePrice: fc.integer({ min: 500, max: 50_000 }).map((c) => c / 100),
    discounts: fc.array(fc.record({ hours: fc.integer({ min: 1, max: 12 }), discountPercentage: fc.integer({ min: 0, max: 60 }) }), { maxLength: 3 }),
    daily: fc.option(
      fc.integer({ min: 1_000, max: 200_000 }).map((c) => c / 100),
      { nil: undefined },
    ),
    half: fc.option(
      fc.integer({ min: 1_000, max: 150_000 }).map((c) => c / 100),
      { nil: undefined },
    ),
    open: fc.integer({ min: 20, max: 40 }).map((q) => q * 15), // 05:00 to 10:00
    length: fc.integer({ min: 16, max: 52 }).map((q) => q * 15), // a 4- to 13-hour opening day (closing by 23:00)
    from: fc.nat(1000),
    quarters: fc.integer({ min: 1, max: 56 }),
  })
  .map((c) => {
    const minutes = Math.min(c.quarters * 15, c.length - 15); // shorter than the opening day: not a day rental
    const offset = Math.floor(((c.from % 1000) / 1000) * ((c.length - minutes) / 15)) * 15;
    return { ...c, minutes, offset };
  });

type RentalCase = typeof rentalCase extends fc.Arbitrary<infer T> ? T : never;

function itemOf(c: RentalCase, extra: Partial<InventoryDataInput> = {}): EngineItem {
  const data = {
    name: 'Boat',
    locationId: 'loc',
    operatingHours: everyDay({ open: hhmm(c.open), close: hhmm(c.open + c.length) }),
    seasons: [
      {
        name: 'All year',
        hourlyPrices: everyDay({ basePrice: c.basePrice, multiHourDiscounts: c.discounts }),
        ...(c.daily != null ? { dailyPrices: everyDay(c.daily) } : {}),
        ...(c.half != null ? { halfDayPrices: everyDay(c.half) } : {}),
      },
    ],
    ...extra,
  };
  return { id: 'inv', kind: 'rental', timezone: TZ, assets: [], model: InventoryData.parse(data) };
}

const windowOf = (c: RentalCase) => {
  const start = wallTimeToUtc(c.date, hhmm(c.open + c.offset), TZ);
  return { start, end: start + c.minutes * 60_000 };
};
/** The hourly total before any cap (cents). */
const hourlyTotal = (c: RentalCase) => {
  const hours = c.minutes / 60;
  const pct = Math.max(0, ...c.discounts.filter((d) => hours >= d.hours).map((d) => d.discountPercentage));
  return Math.round(Math.round(c.basePrice * 100) * hours * (1 - pct / 100));
};

describe('the day-rate cap (rentalUnitPrice)', () => {
  it('a rental never costs more than the next longer rate that covers it: the half day up to half the day, the day', () => {
    fc.assert(
      fc.property(rentalCase, (c) => {
        const item = itemOf(c);
        const { start, end } = windowOf(c);
        const price = rentalUnitPrice(item, start, end).amount;
        if (c.half != null && c.minutes * 2 <= c.length) expect(price).toBeLessThanOrEqual(Math.round(c.half * 100));
        if (c.daily != null) {
          // The next longer rate is the day: the whole opening day of the same date, as it is quoted.
          const day = rentalUnitPrice(item, wallTimeToUtc(c.date, hhmm(c.open), TZ), wallTimeToUtc(c.date, hhmm(c.open + c.length), TZ));
          expect(day.unit).toBe('day');
          expect(price).toBeLessThanOrEqual(day.amount);
        }
        expect(price).toBeLessThanOrEqual(hourlyTotal(c));
      }),
      RUNS,
    );
  });

  it('the cap charges the cheapest covering rate, and only caps: the hourly total stands when it is the lowest', () => {
    fc.assert(
      fc.property(rentalCase, (c) => {
        const { start, end } = windowOf(c);
        const covering = [
          hourlyTotal(c),
          ...(c.half != null && c.minutes * 2 <= c.length ? [Math.round(c.half * 100)] : []),
          ...(c.daily != null ? [Math.round(c.daily * 100)] : []),
        ];
        const q = rentalUnitPrice(itemOf(c), start, end);
        expect(q.amount).toBe(Math.min(...covering));
        if (q.amount === hourlyTotal(c)) expect(q.unit).toBe('hour');
      }),
      RUNS,
    );
  });

  it('turned off (dayRateCap: false), the hourly total is charged as it is', () => {
    fc.assert(
      fc.property(rentalCase, (c) => {
        const { start, end } = windowOf(c);
        expect(rentalUnitPrice(itemOf(c, { dayRateCap: false } as Partial<InventoryDataInput>), start, end)).toMatchObject({
          amount: hourlyTotal(c),
          unit: 'hour',
        });
      }),
      RUNS,
    );
  });

  it('by hand: 8 hours at 108.25 (866.00) costs the 10-hour day’s 757.75', () => {
    const c = { date: '2026-07-05', basePrice: 108.25, discounts: [], daily: 757.75, half: undefined, open: 480, length: 600, from: 0, quarters: 32 };
    const item = itemOf({ ...c, minutes: 480, offset: 60 });
    const start = wallTimeToUtc('2026-07-05', '09:00', TZ);
    expect(rentalUnitPrice(item, start, start + 8 * HOUR)).toMatchObject({ amount: 75775, unit: 'day' });
    expect(rentalUnitPrice(item, start, start + 4 * HOUR)).toMatchObject({ amount: 43300, unit: 'hour' });
  });
});

describe('allowed durations (checkAllowedDuration)', () => {
  it('below the opening day a rental lasts one of the item’s durations; the whole opening day is always allowed', () => {
    const durationsArb = fc.uniqueArray(
      fc.integer({ min: 1, max: 40 }).map((q) => q / 4),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(rentalCase, durationsArb, (c, durations) => {
        const item = itemOf(c, { durations });
        const { start, end } = windowOf(c);
        const allowed = durations.some((h) => Math.round(h * 60) === c.minutes);
        let refused: ApiError | null = null;
        try {
          checkAllowedDuration(item, start, end);
        } catch (e) {
          refused = e as ApiError;
        }
        expect(refused === null).toBe(allowed);
        if (refused) {
          expect(refused.status).toBe(400);
          expect(refused.extra).toMatchObject({ reason: 'duration_not_allowed', allowedDurations: [...durations].sort((a, b) => a - b) });
        }
        const open = wallTimeToUtc(c.date, hhmm(c.open), TZ);
        expect(() => checkAllowedDuration(item, open, wallTimeToUtc(c.date, hhmm(c.open + c.length), TZ))).not.toThrow();
      }),
      RUNS,
    );
  });
});
