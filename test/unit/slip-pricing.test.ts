/**
 * Slip pricing (src/modules/slip-reservations/pricing.ts), function level: nights, calendar-month
 * segments, the reservation price (nightly, monthly pro-rated by days, seasonal, annual), deposits
 * and the monthly revenue shares of a stay.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  depositFor,
  monthlyShares,
  monthSegments,
  nightsBetween,
  priceReservation,
  PERIOD_MONTHS,
  termSplit,
  type PriceInput,
} from '../../src/modules/slip-reservations/pricing';
import type { SlipChargeLine } from '../../src/db/schema/slip-reservations';
import { addDays, datesOfMonth } from '../../src/lib/time';

const RUNS = { numRuns: 200 };
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/** A stay: arrival between 2024 and 2028 (two leap days in range), up to ~14 months long. */
const stayArb = fc.record({ offset: fc.integer({ min: 0, max: 5 * 365 }), nights: fc.integer({ min: 1, max: 430 }) }).map(({ offset, nights }) => {
  const arrival = addDays('2024-01-01', offset);
  return { arrival, departure: addDays(arrival, nights), nights };
});
const chargeArb: fc.Arbitrary<SlipChargeLine> = fc.record({
  name: fc.constantFrom('Pump-out', 'Electric', 'Water'),
  amountCents: fc.integer({ min: 0, max: 50_000 }),
  per: fc.constantFrom('stay' as const, 'night' as const, 'month' as const, 'foot' as const),
  taxable: fc.boolean(),
});
const priceArb: fc.Arbitrary<PriceInput> = fc
  .record({
    stay: stayArb,
    rateType: fc.constantFrom('nightly' as const, 'monthly' as const, 'seasonal' as const, 'annual' as const),
    ratePerFootCents: fc.integer({ min: 0, max: 20_000 }),
    // Feet to the quarter foot: 20 to 120 ft.
    billableLengthFt: fc.integer({ min: 80, max: 480 }).map((q) => q / 4),
    fees: fc.array(chargeArb, { maxLength: 3 }),
    utilities: fc.array(chargeArb, { maxLength: 2 }),
    taxRatePercent: fc.oneof(fc.integer({ min: 0, max: 15 }), fc.constantFrom(6.25, 8.875)),
    discountCents: fc.integer({ min: -1000, max: 2_000_000 }),
  })
  .map(({ stay, ...p }) => ({ ...p, arrivalDate: stay.arrival, departureDate: stay.departure }));

/** 40 ft at 2500 cents per foot, no fees, tax or discount. */
const basic: PriceInput = {
  rateType: 'nightly',
  arrivalDate: '2027-01-15',
  departureDate: '2027-02-01',
  ratePerFootCents: 2500,
  billableLengthFt: 40,
  fees: [],
  utilities: [],
  taxRatePercent: 0,
  discountCents: 0,
};

describe('nightsBetween and monthSegments', () => {
  it('nights are the calendar days between the dates, whatever the DST or leap day in between', () => {
    fc.assert(
      fc.property(stayArb, ({ arrival, departure, nights }) => {
        expect(nightsBetween(arrival, departure)).toBe(nights);
        expect(nightsBetween(departure, arrival)).toBe(-nights);
      }),
      RUNS,
    );
    expect(nightsBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(nightsBetween('2026-03-07', '2026-03-09')).toBe(2);
  });

  it('segments cover the stay month by month: nights add up, each within its month and its days', () => {
    fc.assert(
      fc.property(stayArb, ({ arrival, departure, nights }) => {
        const segs = monthSegments(arrival, departure);
        expect(sum(segs.map((s) => s.nights))).toBe(nights);
        expect(segs[0].month).toBe(arrival.slice(0, 7));
        expect(segs[segs.length - 1].month).toBe(addDays(departure, -1).slice(0, 7));
        segs.forEach((s, i) => {
          expect(s.nights).toBeGreaterThan(0);
          expect(s.nights).toBeLessThanOrEqual(s.daysInMonth);
          expect(s.daysInMonth).toBe(datesOfMonth(s.month).length);
          if (i > 0) expect(addDays(`${segs[i - 1].month}-01`, segs[i - 1].daysInMonth)).toBe(`${s.month}-01`);
        });
      }),
      RUNS,
    );
  });

  it('by hand: 15 Jan to 3 Mar 2028 (leap year)', () => {
    expect(monthSegments('2028-01-15', '2028-03-03')).toEqual([
      { month: '2028-01', nights: 17, daysInMonth: 31 },
      { month: '2028-02', nights: 29, daysInMonth: 29 },
      { month: '2028-03', nights: 2, daysInMonth: 31 },
    ]);
    expect(monthSegments('2028-01-15', '2028-01-15')).toEqual([]);
  });
});

describe('priceReservation', () => {
  it('total = base + fees + utilities − discount + tax, and equals the sum of its lines', () => {
    fc.assert(
      fc.property(priceArb, (p) => {
        const r = priceReservation(p);
        expect(r.totalCents).toBe(r.baseCents + r.feesCents + r.utilitiesCents - r.discountCents + r.taxCents);
        expect(sum(r.pricing.lines.map((l) => l.amountCents))).toBe(r.totalCents);
        for (const n of [r.baseCents, r.feesCents, r.utilitiesCents, r.discountCents, r.taxCents, r.totalCents, r.firstPeriodCents]) {
          expect(Number.isInteger(n)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('the discount is clamped to 0..(base + fees + utilities) and comes off before tax', () => {
    fc.assert(
      fc.property(priceArb, (p) => {
        const r = priceReservation(p);
        const gross = r.baseCents + r.feesCents + r.utilitiesCents;
        expect(r.discountCents).toBe(Math.min(Math.max(0, p.discountCents), gross));
        const charges = [...p.fees, ...p.utilities];
        const chargeLines = r.pricing.lines.filter((l) => l.kind === 'fee' || l.kind === 'utility');
        const taxable = r.baseCents + sum(chargeLines.filter((_, i) => charges[i].taxable).map((l) => l.amountCents));
        expect(r.taxCents).toBe(Math.round((Math.max(0, taxable - r.discountCents) * p.taxRatePercent) / 100));
      }),
      RUNS,
    );
  });

  it('nightly: rate × feet × nights, rounded once; first night for the deposit', () => {
    fc.assert(
      fc.property(priceArb, (p) => {
        const r = priceReservation({ ...p, rateType: 'nightly' });
        expect(r.baseCents).toBe(Math.round(p.ratePerFootCents * p.billableLengthFt * r.nights));
        expect(r.firstPeriodCents).toBe(Math.round(p.ratePerFootCents * p.billableLengthFt));
      }),
      RUNS,
    );
  });

  it('monthly: a full calendar month costs rate × feet whatever its length; a partial one by its days', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 80, max: 480 }), (m, rate, q) => {
        const month = `${2024 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
        const days = datesOfMonth(month);
        const input = { ...basic, rateType: 'monthly' as const, ratePerFootCents: rate, billableLengthFt: q / 4 };
        const full = priceReservation({ ...input, arrivalDate: days[0], departureDate: addDays(days[days.length - 1], 1) });
        expect(full.baseCents).toBe(Math.round((rate * q) / 4));
        const part = priceReservation({ ...input, arrivalDate: days[0], departureDate: days[9] });
        expect(part.baseCents).toBe(Math.round((rate * q * 9) / 4 / days.length));
      }),
      RUNS,
    );
    // 17 nights of a 31-day January at 2500 cents × 40 ft: 100000 × 17/31.
    expect(priceReservation({ ...basic, rateType: 'monthly', arrivalDate: '2027-01-15', departureDate: '2027-02-01' }).baseCents).toBe(54839);
  });

  it('seasonal and annual: whole terms at rate × feet, the rest by its days (issue 31: a 731-night annual stay is two years and a day)', () => {
    fc.assert(
      fc.property(priceArb, fc.constantFrom('seasonal' as const, 'annual' as const), (p, rateType) => {
        const r = priceReservation({ ...p, rateType });
        const ftH = Math.round(p.billableLengthFt * 100);
        const one = Math.round((p.ratePerFootCents * ftH) / 100);
        const s = termSplit(PERIOD_MONTHS[rateType], p.arrivalDate, p.departureDate);
        expect(r.baseCents).toBe(one * s.terms + Math.round((p.ratePerFootCents * ftH * s.restNights) / (100 * s.termNights)));
        expect(r.firstPeriodCents).toBe(one);
      }),
      RUNS,
    );
  });
});

describe('depositFor', () => {
  const policyArb = fc.record({
    policy: fc.constantFrom('none', 'fixed', 'percent', 'first_night', 'first_month'),
    amountCents: fc.integer({ min: -500, max: 5_000_000 }),
    percent: fc.integer({ min: 0, max: 100 }),
  });

  it('is between 0 and the total, and follows the policy', () => {
    fc.assert(
      fc.property(policyArb, priceArb, (policy, p) => {
        const price = priceReservation(p);
        const d = depositFor(policy, price);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(price.totalCents);
        const raw = {
          none: 0,
          fixed: policy.amountCents,
          percent: Math.round((price.totalCents * policy.percent) / 100),
          first_night: price.firstNightCents,
          first_month: price.firstMonthCents,
        }[policy.policy]!;
        expect(d).toBe(Math.min(Math.max(0, raw), price.totalCents));
      }),
      RUNS,
    );
  });
});

describe('monthlyShares', () => {
  it('shares sum exactly to the amount, one per month of the stay, in integer cents', () => {
    fc.assert(
      fc.property(stayArb, fc.integer({ min: 0, max: 10_000_000 }), ({ arrival, departure }, amount) => {
        const shares = monthlyShares(arrival, departure, amount);
        expect(shares.map((s) => s.month)).toEqual(monthSegments(arrival, departure).map((s) => s.month));
        expect(sum(shares.map((s) => s.amountCents))).toBe(amount);
        expect(shares.every((s) => Number.isInteger(s.amountCents))).toBe(true);
      }),
      RUNS,
    );
  });

  it('each month gets its share by nights within a cent, never negative (the rounding of one month never lands on another)', () => {
    fc.assert(
      fc.property(stayArb, fc.integer({ min: 0, max: 10_000_000 }), ({ arrival, departure, nights }, amount) => {
        const segs = monthSegments(arrival, departure);
        const shares = monthlyShares(arrival, departure, amount);
        shares.forEach((s, i) => {
          expect(s.amountCents).toBeGreaterThanOrEqual(0);
          expect(Math.abs(s.amountCents - (amount * segs[i].nights) / nights)).toBeLessThan(1);
        });
      }),
      RUNS,
    );
  });

  it('by hand: 7 cents over five months, and 100.14 over four months and four nights', () => {
    // 31 + 28 + 31 + 30 + 1 = 121 nights; running totals 1.79, 3.41, 5.21, 6.94, 7 round to 2, 3, 5, 7, 7.
    expect(monthlyShares('2026-01-01', '2026-05-02', 7).map((s) => s.amountCents)).toEqual([2, 1, 2, 2, 0]);
    // 124 nights; exact shares 2503.50, 2261.32, 2503.50, 2422.74, 323.03 (May: 100.14 × 4 / 124).
    expect(monthlyShares('2026-01-01', '2026-05-05', 10014).map((s) => s.amountCents)).toEqual([2504, 2261, 2503, 2423, 323]);
  });
});
