/**
 * Membership billing periods and proration (src/modules/memberships/periods.ts), function level:
 * calendar-month cycles that keep the anchor day, whole UTC days, signed proration lines and the
 * dunning retry schedule.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  addCycles,
  addDaysIso,
  addMonths,
  anchorDayOf,
  daysBetween,
  DUNNING_RETRY_DAYS,
  linesTotal,
  MAX_RENEWAL_ATTEMPTS,
  nextDunningAttempt,
  prorationLine,
} from '../../src/modules/memberships/periods';

const RUNS = { numRuns: 200 };
const DAY = 86_400_000;
const daysInMonth = (y: number, m0: number) => new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();

/** Instants from 2020 to 2035, to the millisecond. */
const instantArb = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 11, 31) }).map((t) => new Date(t).toISOString());

describe('addMonths and addCycles', () => {
  it('by hand: an anchor of 31 bills on Feb 28 or 29 and back on Mar 31', () => {
    expect(addMonths('2027-01-31T10:00:00.000Z', 1)).toBe('2027-02-28T10:00:00.000Z');
    expect(addMonths('2027-02-28T10:00:00.000Z', 1, 31)).toBe('2027-03-31T10:00:00.000Z');
    expect(addMonths('2028-01-31T10:00:00.000Z', 1)).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths('2028-02-29T00:00:00.000Z', 12)).toBe('2029-02-28T00:00:00.000Z');
    expect(addMonths('2027-03-31T00:00:00.000Z', -1)).toBe('2027-02-28T00:00:00.000Z');
    expect(addCycles('2027-01-31T00:00:00.000Z', 'yearly', 1)).toBe('2028-01-31T00:00:00.000Z');
  });

  it('lands on the anchor day clamped to the month, same time of day, exactly `months` calendar months on', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: -24, max: 36 }), fc.option(fc.integer({ min: 1, max: 31 }), { nil: undefined }), (iso, n, anchor) => {
        const from = new Date(iso);
        const to = new Date(addMonths(iso, n, anchor));
        const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
        expect(months).toBe(n);
        expect(to.getUTCDate()).toBe(Math.min(anchor ?? from.getUTCDate(), daysInMonth(to.getUTCFullYear(), to.getUTCMonth())));
        expect(to.getTime() % DAY).toBe(from.getTime() % DAY);
      }),
      RUNS,
    );
  });

  it('with the anchor kept, stepping one cycle at a time equals jumping n cycles (no drift after a short month)', () => {
    fc.assert(
      fc.property(instantArb, fc.constantFrom('monthly' as const, 'yearly' as const), fc.integer({ min: 1, max: 30 }), (start, cycle, n) => {
        const anchor = anchorDayOf(start);
        let stepped = start;
        for (let i = 0; i < n; i++) stepped = addCycles(stepped, cycle, 1, anchor);
        expect(stepped).toBe(addCycles(start, cycle, n, anchor));
        expect(addCycles(start, cycle, n)).toBe(addMonths(start, (cycle === 'yearly' ? 12 : 1) * n));
      }),
      RUNS,
    );
  });

  it('periods are contiguous and each monthly period lasts 28 to 31 days', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: 1, max: 24 }), (start, n) => {
        const anchor = anchorDayOf(start);
        for (let i = 0; i < n; i++) {
          const s = addCycles(start, 'monthly', i, anchor);
          const e = addCycles(start, 'monthly', i + 1, anchor);
          expect(daysBetween(s, e)).toBeGreaterThanOrEqual(28);
          expect(daysBetween(s, e)).toBeLessThanOrEqual(31);
        }
      }),
      RUNS,
    );
  });
});

describe('daysBetween', () => {
  it('counts whole UTC calendar days: antisymmetric, additive, ignores the time of day', () => {
    fc.assert(
      fc.property(instantArb, instantArb, instantArb, (a, b, c) => {
        expect(daysBetween(a, b) + daysBetween(b, a)).toBe(0);
        expect(daysBetween(a, b) + daysBetween(b, c)).toBe(daysBetween(a, c));
        expect(daysBetween(a, b)).toBe((Date.parse(b.slice(0, 10)) - Date.parse(a.slice(0, 10))) / DAY);
        expect(daysBetween(a, addDaysIso(a, 10))).toBe(10);
      }),
      RUNS,
    );
    expect(daysBetween('2027-03-01T23:59:59.999Z', '2027-03-02T00:00:00.000Z')).toBe(1);
    expect(daysBetween(Date.parse('2028-02-28T12:00:00Z'), '2028-03-01T01:00:00Z')).toBe(2);
  });
});

describe('prorationLine and linesTotal', () => {
  const lineArb = fc.record({
    rate: fc.integer({ min: 0, max: 1_000_000 }),
    periodDays: fc.integer({ min: 1, max: 366 }),
    days: fc.integer({ min: -5, max: 400 }),
  });

  it('a credit is ≤ 0 and a charge ≥ 0, both round(rate × days / periodDays) with days clamped at 0', () => {
    fc.assert(
      fc.property(lineArb, ({ rate, periodDays, days }) => {
        const credit = prorationLine('proration_credit', 'Unused', rate, days, periodDays);
        const charge = prorationLine('proration_charge', 'Remaining', rate, days, periodDays);
        const raw = Math.round((rate * Math.max(0, days)) / periodDays);
        expect(credit.amount).toBe(-raw);
        expect(charge.amount).toBe(raw);
        expect(credit.amount).toBeLessThanOrEqual(0);
        expect(credit.proration).toMatchObject({ days: Math.max(0, days), periodDays, rate });
        expect(credit.proration!.formula).toBe(`-round(${rate} × ${Math.max(0, days)} / ${periodDays}) = ${credit.amount}`);
        expect(charge.proration!.formula.endsWith(`= ${raw}`)).toBe(true);
        if (days <= periodDays) expect(charge.amount).toBeLessThanOrEqual(rate);
      }),
      RUNS,
    );
  });

  it('the same days credited at the old price and charged at the same price cancel out', () => {
    fc.assert(
      fc.property(lineArb, ({ rate, periodDays, days }) => {
        const lines = [prorationLine('proration_credit', 'c', rate, days, periodDays), prorationLine('proration_charge', 'c', rate, days, periodDays)];
        expect(linesTotal(lines)).toBe(0);
      }),
      RUNS,
    );
  });

  it('by hand: an upgrade from 30.00 to 50.00 with 10 of 30 days left nets 6.67', () => {
    const lines = [prorationLine('proration_credit', 'Unused Basic', 3000, 10, 30), prorationLine('proration_charge', 'Remaining Plus', 5000, 10, 30)];
    expect(lines.map((l) => l.amount)).toEqual([-1000, 1667]);
    expect(linesTotal(lines)).toBe(667);
    expect(linesTotal([])).toBe(0);
    expect(prorationLine('proration_charge', 'x', 5000, 10, 0).amount).toBe(0);
  });
});

describe('nextDunningAttempt', () => {
  it('retries 1, 3 and 5 days after the due date, then gives up', () => {
    const due = '2027-02-14T09:30:00.000Z';
    expect(MAX_RENEWAL_ATTEMPTS).toBe(4);
    expect([1, 2, 3, 4].map((n) => nextDunningAttempt(due, n))).toEqual([
      '2027-02-15T09:30:00.000Z',
      '2027-02-17T09:30:00.000Z',
      '2027-02-19T09:30:00.000Z',
      null,
    ]);
  });

  it('for any due date: strictly later attempts, each whole days after the due date, none after the last', () => {
    fc.assert(
      fc.property(instantArb, (due) => {
        const attempts = Array.from({ length: MAX_RENEWAL_ATTEMPTS - 1 }, (_, i) => nextDunningAttempt(due, i + 1)!);
        attempts.forEach((at, i) => {
          expect(Date.parse(at) - Date.parse(due)).toBe(DUNNING_RETRY_DAYS[i] * DAY);
          if (i > 0) expect(Date.parse(at)).toBeGreaterThan(Date.parse(attempts[i - 1]));
        });
        expect(nextDunningAttempt(due, MAX_RENEWAL_ATTEMPTS)).toBeNull();
        expect(nextDunningAttempt(due, MAX_RENEWAL_ATTEMPTS + 3)).toBeNull();
      }),
      RUNS,
    );
  });
});
