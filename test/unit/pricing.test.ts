/**
 * Order pricing (src/modules/bookings/pricing.ts), function level: the arithmetic of quoteOrder as
 * properties over random lines, discounts, taxes and tips; tax-inclusive overrides and loyalty
 * points. Add-ons, tours, seasons and rental unit prices: catalog-pricing.test.ts.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { loyaltyPointsFor, quoteFromTotal, quoteOrder, type AddonLine, type LineInput, type OrderDiscount } from '../../src/modules/bookings/pricing';

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
