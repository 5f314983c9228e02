/**
 * Term pricing of slip stays (src/modules/slip-reservations/pricing.ts), function level, as
 * properties: calendar months that clamp to a month's end, stays cut into whole terms and a rest,
 * seasonal and annual bases that follow the term (whole terms at the rate, the rest by its days), and
 * the minimum stay of each rate type.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  addCalendarMonths,
  minimumDeparture,
  nightsBetween,
  PERIOD_MONTHS,
  priceReservation,
  termSplit,
  type PriceInput,
} from '../../../src/modules/slip-reservations/pricing';
import { addDays } from '../../../src/lib/time';

const RUNS = { numRuns: 300 };
/** Arrival between 2024 and 2028 (leap days on both sides), up to three years long. */
const stayArb = fc.record({ offset: fc.integer({ min: 0, max: 5 * 365 }), nights: fc.integer({ min: 1, max: 3 * 366 }) }).map(({ offset, nights }) => {
  const arrival = addDays('2024-01-01', offset);
  return { arrival, departure: addDays(arrival, nights), nights };
});
const termArb = fc.constantFrom('seasonal' as const, 'annual' as const);

const base = (o: Partial<PriceInput>): PriceInput => ({
  rateType: 'annual',
  arrivalDate: '2027-02-01',
  departureDate: '2028-02-01',
  ratePerFootCents: 16000,
  billableLengthFt: 40,
  fees: [],
  utilities: [],
  taxRatePercent: 0,
  discountCents: 0,
  ...o,
});

describe('addCalendarMonths', () => {
  it('keeps the day of the month, or the last day of a shorter month', () => {
    expect(addCalendarMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addCalendarMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addCalendarMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addCalendarMonths('2027-08-31', 6)).toBe('2028-02-29');
    expect(addCalendarMonths('2027-11-15', 2)).toBe('2028-01-15');
    fc.assert(
      fc.property(stayArb, fc.integer({ min: 0, max: 36 }), ({ arrival }, n) => {
        const d = addCalendarMonths(arrival, n);
        const [y, m] = arrival.split('-').map(Number);
        const index = y * 12 + m - 1 + n;
        expect(d.slice(0, 7)).toBe(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
        expect(Number(d.slice(8))).toBeLessThanOrEqual(Number(arrival.slice(8)));
        expect(d >= arrival).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('termSplit', () => {
  it('whole terms, then a rest shorter than the term it begins; the nights add up', () => {
    fc.assert(
      fc.property(stayArb, termArb, ({ arrival, departure, nights }, rateType) => {
        const months = PERIOD_MONTHS[rateType];
        const s = termSplit(months, arrival, departure);
        expect(s.restStart).toBe(addCalendarMonths(arrival, s.terms * months));
        expect(s.restStart <= departure).toBe(true);
        expect(addCalendarMonths(arrival, (s.terms + 1) * months) > departure).toBe(true);
        expect(s.restNights).toBeGreaterThanOrEqual(0);
        expect(s.restNights).toBeLessThan(s.termNights);
        expect(nightsBetween(arrival, s.restStart) + s.restNights).toBe(nights);
      }),
      RUNS,
    );
  });
});

describe('seasonal and annual prices follow the term', () => {
  it('each whole term costs rate × feet; the rest is pro-rated by its days over the term it begins', () => {
    fc.assert(
      fc.property(stayArb, termArb, fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 80, max: 480 }), (stay, rateType, rate, q) => {
        const p = base({ rateType, arrivalDate: stay.arrival, departureDate: stay.departure, ratePerFootCents: rate, billableLengthFt: q / 4 });
        const r = priceReservation(p);
        const ftH = q * 25;
        const one = Math.round((rate * ftH) / 100);
        const s = termSplit(PERIOD_MONTHS[rateType], stay.arrival, stay.departure);
        expect(r.baseCents).toBe(one * s.terms + Math.round((rate * ftH * s.restNights) / (100 * s.termNights)));
        expect(r.firstPeriodCents).toBe(one);
        // Never less for a longer stay.
        const longer = priceReservation({ ...p, departureDate: addDays(stay.departure, 1) });
        expect(longer.baseCents).toBeGreaterThanOrEqual(r.baseCents);
      }),
      RUNS,
    );
  });

  it('by hand: 731 nights from 1 Feb 2027 are two years; a year and 90 nights are 1 + 90/366 years', () => {
    expect(priceReservation(base({ departureDate: '2029-02-01' })).baseCents).toBe(1_280_000);
    expect(priceReservation(base({ departureDate: '2028-05-01' })).baseCents).toBe(640_000 + 157_377);
    // A season is six months: 1 May to 1 Nov once; a season and a month by the 182 nights of Nov to May.
    const season = { rateType: 'seasonal' as const, arrivalDate: '2027-05-01', ratePerFootCents: 9000, billableLengthFt: 50 };
    expect(priceReservation(base({ ...season, departureDate: '2027-11-01' })).baseCents).toBe(450_000);
    expect(priceReservation(base({ ...season, departureDate: '2027-12-01' })).baseCents).toBe(524_176);
  });
});

describe('minimumDeparture', () => {
  it('one night, month, season or year after arrival; a stay that long has one whole period', () => {
    expect(minimumDeparture('nightly', '2027-03-10')).toBe('2027-03-11');
    expect(minimumDeparture('monthly', '2027-01-31')).toBe('2027-02-28');
    expect(minimumDeparture('seasonal', '2027-05-01')).toBe('2027-11-01');
    expect(minimumDeparture('annual', '2028-02-29')).toBe('2029-02-28');
    fc.assert(
      fc.property(stayArb, termArb, ({ arrival }, rateType) => {
        const min = minimumDeparture(rateType, arrival);
        expect(termSplit(PERIOD_MONTHS[rateType], arrival, min)).toMatchObject({ terms: 1, restNights: 0 });
        expect(termSplit(PERIOD_MONTHS[rateType], arrival, addDays(min, -1)).terms).toBe(0);
      }),
      RUNS,
    );
  });
});
