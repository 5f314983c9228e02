/**
 * Catalog prices of a booking (src/modules/bookings/pricing.ts), function level: add-ons by price
 * type, tour fares and private charters, season precedence and a rental's unit price by the hour
 * or by the day, as properties with hand-checked examples.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { InventoryData, WEEKDAY_NAMES, type InventoryDataInput } from '../../src/modules/inventory/model';
import type { EngineItem } from '../../src/modules/availability/engine-types';
import { priceAddons, rentalUnitPrice, seasonFor, tourQuote } from '../../src/modules/bookings/pricing';
import { addDays, wallTimeToUtc, weekdayOf } from '../../src/lib/time';

const RUNS = { numRuns: 200 };
const tz = 'America/New_York';
const every = <T>(v: T) => Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, v])) as Record<(typeof WEEKDAY_NAMES)[number], T>;
const model = (data: Partial<InventoryDataInput>) => InventoryData.parse({ name: 'Boat', locationId: 'loc', ...data });
const rental = (data: Partial<InventoryDataInput>): EngineItem => ({ id: 'inv', kind: 'rental', timezone: tz, assets: [], model: model(data) });
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('priceAddons', () => {
  const catalog = model({
    addons: [
      { addonId: 'flat', name: 'Cooler', price: 15.25 },
      { addonId: 'hour', name: 'Skipper', price: 40, priceType: 'per_hour', taxable: false },
      { addonId: 'day', name: 'Gear', price: 25, priceType: 'per_day', maxQuantity: 3 },
      { addonId: 'person', name: 'Vest', price: 5, priceType: 'per_person' },
    ],
  }).addons.map((def) => ({ def, global: false }));

  it('amount = price × (hours | days | 1) × quantity; per-person quantity defaults to the party', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 10 }), (hours, days, party) => {
        const lines = priceAddons([{ addonId: 'flat', quantity: 2 }, { addonId: 'hour' }, { addonId: 'day', quantity: 3 }, { addonId: 'person' }], catalog, {
          hours,
          days,
          participants: party,
        });
        expect(lines.map((l) => l.amount)).toEqual([3050, 4000 * hours, 2500 * days * 3, 500 * party]);
        expect(lines.map((l) => l.taxable)).toEqual([true, false, true, true]);
      }),
      RUNS,
    );
  });

  it('quantities outside 1..maxQuantity and unknown add-ons are refused', () => {
    const basis = { hours: 1, days: 1, participants: 1 };
    expect(() => priceAddons([{ addonId: 'day', quantity: 4 }], catalog, basis)).toThrow(/between 1 and 3/);
    expect(() => priceAddons([{ addonId: 'flat', quantity: 0 }], catalog, basis)).toThrow(/between 1 and 10/);
    expect(() => priceAddons([{ addonId: 'flat' }], catalog, { ...basis, globalOnly: true })).toThrow(/Unknown add-on/);
  });
});

describe('tourQuote', () => {
  const tiers = [
    { name: 'Adult', price: 45.5 },
    { name: 'Child', price: 20 },
    { name: 'Infant', price: 0, seats: 0 },
  ];
  const tour = model({ type: 'tour', tourPricing: { priceTiers: tiers } });

  it('amount = Σ tickets × fare, seats = Σ tickets × seats per ticket', () => {
    fc.assert(
      fc.property(fc.nat(6), fc.nat(6), fc.nat(3), (adult, child, infant) => {
        fc.pre(adult + child + infant > 0);
        const q = tourQuote(tour, { tickets: { Adult: adult, Child: child, infant } }, { requirePrice: true });
        expect(q).toMatchObject({ amount: adult * 4550 + child * 2000, seats: adult + child, participants: adult + child + infant, unit: 'ticket' });
      }),
      RUNS,
    );
  });

  it('private charter: base price covers the base headcount, each extra guest pays the extra price', () => {
    const charter = model({ type: 'tour', tourPricing: { isPrivate: true, privatePricing: { basePrice: 600, baseHeadcount: 6, extraParticipantPrice: 40 } } });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), (n) => {
        const q = tourQuote(charter, { quantity: n }, { requirePrice: true });
        expect(q).toMatchObject({ amount: 60000 + Math.max(0, n - 6) * 4000, unit: 'charter', seats: n, participants: n, privateCharter: true });
      }),
      RUNS,
    );
  });
});

describe('seasonFor: a dated season beats a recurring MM-DD one, which beats an undated one', () => {
  const dateArb = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2026-01-01', n));
  it('for any date and any order of the seasons', () => {
    const seasons = [
      { name: 'Default' },
      { name: 'Winter', startDate: '11-01', endDate: '02-28' },
      { name: 'Holidays', startDate: '2026-12-20', endDate: '2027-01-05' },
    ];
    fc.assert(
      fc.property(dateArb, fc.shuffledSubarray(seasons, { minLength: 3 }), (date, order) => {
        const md = date.slice(5);
        const expected = date >= '2026-12-20' && date <= '2027-01-05' ? 'Holidays' : md >= '11-01' || md <= '02-28' ? 'Winter' : 'Default';
        expect(seasonFor(model({ seasons: order }), date)?.name).toBe(expected);
      }),
      RUNS,
    );
  });
});

describe('rentalUnitPrice (America/New_York, open 08:00–18:00)', () => {
  const discounts = [
    { hours: 3, discountPercentage: 10 },
    { hours: 6, discountPercentage: 25 },
  ];
  const item = rental({
    seasons: [
      { name: 'D', dailyPrices: { ...every(400), Saturday: 550.5 }, hourlyPrices: every({ basePrice: 37.5, minimumHours: 1, multiHourDiscounts: discounts }) },
    ],
  });
  const dayArb = fc.integer({ min: 0, max: 400 }).map((n) => addDays('2026-01-01', n));

  it('within a day: hourly price × hours, less the largest multi-hour discount reached', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 2, max: 19 }), (date, startHalfHours, halfHours) => {
        const start = wallTimeToUtc(date, `${String(8 + Math.floor(startHalfHours / 2)).padStart(2, '0')}:${startHalfHours % 2 ? '30' : '00'}`, tz);
        const hours = Math.min(halfHours / 2, 10 - startHalfHours / 2 - 0.5);
        fc.pre(hours >= 1);
        const pct = hours >= 6 ? 25 : hours >= 3 ? 10 : 0;
        expect(rentalUnitPrice(item, start, start + hours * 3_600_000)).toEqual({
          amount: Math.round(3750 * hours * (1 - pct / 100)),
          unit: 'hour',
          season: 'D',
        });
      }),
      RUNS,
    );
  });

  it('across days: the sum of each date’s daily price', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 1, max: 9 }), (date, extra) => {
        const last = addDays(date, extra);
        const dates = Array.from({ length: extra + 1 }, (_, i) => addDays(date, i));
        const expected = sum(dates.map((d) => (weekdayOf(d) === 'Saturday' ? 55050 : 40000)));
        expect(rentalUnitPrice(item, wallTimeToUtc(date, '09:00', tz), wallTimeToUtc(last, '17:00', tz))).toMatchObject({ amount: expected, unit: 'day' });
      }),
      RUNS,
    );
  });
});
