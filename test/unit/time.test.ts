/**
 * Time zones and calendar arithmetic (src/lib/time.ts), renter-facing time text
 * (src/lib/local-time.ts) and money helpers (src/lib/money.ts), function level. Zones with
 * hour, half-hour and 45-minute offsets and DST shifts of an hour or half an hour.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { addDays, datesOfMonth, dayBounds, localDate, localTime, toWallTime, wallTimeToUtc, weekdayOf, WEEKDAYS, zoneOffsetMs } from '../../src/lib/time';
import { formatLocalRange, ISO_TIMESTAMP, zoneAbbreviation } from '../../src/lib/local-time';
import { formatMoney, percentOf } from '../../src/lib/money';

const RUNS = { numRuns: 200 };
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];

const zoneArb = fc.constantFrom(...ZONES);
/** Whole-minute instants from 1995 to 2040. */
const instantArb = fc.integer({ min: Date.UTC(1995, 0, 1) / MIN, max: Date.UTC(2040, 0, 1) / MIN }).map((m) => m * MIN);
const dateArb = fc.integer({ min: 0, max: 45 * 366 }).map((n) => addDays('1995-01-01', n));
const clockArb = fc.record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) }).map(({ h, m }) => `${pad(h)}:${pad(m)}`);
const pad = (n: number) => String(n).padStart(2, '0');
const wallMs = (date: string, time: string) => Date.parse(`${date}T${time}:00Z`);

describe('toWallTime and wallTimeToUtc', () => {
  it('an instant read as wall time converts back to itself (its first or, in a repeated hour, its later occurrence)', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, tz) => {
        const w = toWallTime(t, tz);
        expect(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - t).toBe(zoneOffsetMs(t, tz));
        const date = localDate(t, tz);
        const first = wallTimeToUtc(date, localTime(t, tz), tz);
        const later = wallTimeToUtc(date, localTime(t, tz), tz, { later: true });
        expect([first, later]).toContain(t);
        expect(first).toBeLessThanOrEqual(later);
        // Two occurrences only in a fall-back hour: an hour or (Lord Howe) half an hour apart.
        expect([0, 30 * MIN, HOUR]).toContain(later - first);
        expect(w.weekday).toBe(weekdayOf(date));
      }),
      RUNS,
    );
  });

  it('a wall time converts to an instant showing that wall time, or, in a skipped hour, moved forward by the gap', () => {
    fc.assert(
      fc.property(dateArb, clockArb, zoneArb, (date, time, tz) => {
        const u = wallTimeToUtc(date, time, tz);
        const shown = wallMs(localDate(u, tz), localTime(u, tz));
        const shift = shown - wallMs(date, time);
        if (shift !== 0) {
          expect([30 * MIN, HOUR]).toContain(shift);
          expect(zoneOffsetMs(u + DAY, tz) - zoneOffsetMs(u - DAY, tz)).toBe(shift);
        }
      }),
      RUNS,
    );
  });

  it('by hand: DST gaps move forward, repeated times resolve to the first occurrence unless `later`', () => {
    const cases: [string, string, string, { later?: boolean }, string][] = [
      ['2026-03-08', '02:30', 'America/New_York', {}, '2026-03-08T07:30:00.000Z'],
      ['2026-11-01', '01:30', 'America/New_York', {}, '2026-11-01T05:30:00.000Z'],
      ['2026-11-01', '01:30', 'America/New_York', { later: true }, '2026-11-01T06:30:00.000Z'],
      ['2026-03-29', '02:30', 'Europe/Berlin', {}, '2026-03-29T01:30:00.000Z'],
      ['2026-10-25', '02:30', 'Europe/Berlin', { later: true }, '2026-10-25T01:30:00.000Z'],
      ['2026-10-04', '02:15', 'Australia/Lord_Howe', {}, '2026-10-03T15:45:00.000Z'],
      ['2026-04-05', '01:45', 'Australia/Lord_Howe', {}, '2026-04-04T14:45:00.000Z'],
      ['2026-04-05', '01:45', 'Australia/Lord_Howe', { later: true }, '2026-04-04T15:15:00.000Z'],
      ['2026-09-27', '03:00', 'Pacific/Chatham', {}, '2026-09-26T14:15:00.000Z'],
      ['2026-07-01', '09:00', 'Asia/Kolkata', {}, '2026-07-01T03:30:00.000Z'],
    ];
    for (const [date, time, tz, opts, iso] of cases)
      expect([date, time, tz, new Date(wallTimeToUtc(date, time, tz, opts)).toISOString()]).toEqual([date, time, tz, iso]);
  });
});

describe('localDate and dayBounds', () => {
  it('every instant lies in [start, end) of its local day; the day starts at 00:00 and lasts 23 to 25 hours', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, tz) => {
        const date = localDate(t, tz);
        const { start, end } = dayBounds(date, tz);
        expect(start).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(end);
        expect([localDate(start, tz), localTime(start, tz)]).toEqual([date, '00:00']);
        expect(localDate(end - 1, tz)).toBe(date);
        expect(localDate(end, tz)).toBe(addDays(date, 1));
        expect([23, 23.5, 24, 24.5, 25]).toContain((end - start) / HOUR);
        expect(dayBounds(addDays(date, 1), tz).start).toBe(end);
      }),
      RUNS,
    );
  });

  it('by hand: 23-, 25- and 23.5-hour days', () => {
    const hours = (date: string, tz: string) => {
      const b = dayBounds(date, tz);
      return (b.end - b.start) / HOUR;
    };
    expect(hours('2026-03-08', 'America/New_York')).toBe(23);
    expect(hours('2026-11-01', 'America/New_York')).toBe(25);
    expect(hours('2026-03-29', 'Europe/Berlin')).toBe(23);
    expect(hours('2026-10-04', 'Australia/Lord_Howe')).toBe(23.5);
    expect(hours('2026-04-05', 'Australia/Lord_Howe')).toBe(24.5);
    expect(hours('2026-07-01', 'Asia/Kolkata')).toBe(24);
  });
});

describe('calendar arithmetic', () => {
  it('addDays is invertible, additive and moves the weekday by n', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (d, n, k) => {
        expect(addDays(addDays(d, n), -n)).toBe(d);
        expect(addDays(addDays(d, n), k)).toBe(addDays(d, n + k));
        expect((Date.parse(addDays(d, n)) - Date.parse(d)) / DAY).toBe(n);
        expect(weekdayOf(addDays(d, n))).toBe(WEEKDAYS[(((WEEKDAYS.indexOf(weekdayOf(d)) + n) % 7) + 7) % 7]);
      }),
      RUNS,
    );
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(weekdayOf('2026-12-12')).toBe('Saturday');
  });

  it('datesOfMonth lists the month’s consecutive days from the 1st, ending before the next month’s 1st', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2100 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const month = `${y}-${pad(m)}`;
        const dates = datesOfMonth(month);
        expect(dates[0]).toBe(`${month}-01`);
        expect([28, 29, 30, 31]).toContain(dates.length);
        dates.forEach((d, i) => i > 0 && expect(addDays(dates[i - 1], 1)).toBe(d));
        expect(addDays(dates[dates.length - 1], 1)).toBe(m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`);
      }),
      RUNS,
    );
    expect(datesOfMonth('2100-02')).toHaveLength(28);
    expect(datesOfMonth('2000-02')).toHaveLength(29);
  });
});

describe('formatLocalRange and zoneAbbreviation', () => {
  it('renter text never holds an ISO timestamp and names the zone by a short name, never "GMT+x"', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: 1, max: 72 * 4 }), zoneArb, (s, quarters, tz) => {
        const e = s + quarters * 15 * MIN;
        const text = formatLocalRange(s, e, tz);
        expect(ISO_TIMESTAMP.test(text)).toBe(false);
        const abbr = zoneAbbreviation(s, tz);
        expect(abbr).toMatch(/^([A-Z]{2,5}|UTC[+-]\d{1,2}(:\d{2})?)$/);
        expect(text).toContain(` ${abbr}`);
        expect(text).toContain(zoneAbbreviation(e, tz));
        expect(text).toContain(localTime(s, tz));
        expect(text).toContain(localTime(e, tz));
      }),
      RUNS,
    );
  });

  it('by hand: one local day, across days, across a DST change', () => {
    const ny = 'America/New_York';
    expect(formatLocalRange('2026-12-12T15:00:00Z', '2026-12-12T19:00:00Z', ny)).toBe('Sat 12 Dec 2026, 10:00–14:00 EST');
    expect(formatLocalRange('2026-12-12T15:00:00Z', '2026-12-13T19:00:00Z', ny)).toBe('Sat 12 Dec 2026, 10:00 EST – Sun 13 Dec 2026, 14:00 EST');
    expect(formatLocalRange('2026-11-01T04:30:00Z', '2026-11-01T07:00:00Z', ny)).toBe('Sun 1 Nov 2026, 00:30 EDT – Sun 1 Nov 2026, 02:00 EST');
    expect(formatLocalRange(Date.parse('2026-07-01T08:00:00Z'), new Date('2026-07-01T10:00:00Z'), 'Europe/Berlin')).toBe('Wed 1 Jul 2026, 10:00–12:00 CEST');
    expect(zoneAbbreviation(Date.parse('2026-07-01T00:00:00Z'), 'Etc/UTC')).toBe('UTC');
  });
});

describe('money', () => {
  it('percentOf rounds half up on non-negative amounts, exactly for integer percents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 100 }), (cents, pct) => {
        const p = cents * pct;
        expect(percentOf(cents, pct)).toBe(Math.floor(p / 100) + (p % 100 >= 50 ? 1 : 0));
      }),
      RUNS,
    );
    expect(percentOf(1005, 10)).toBe(101);
    expect(percentOf(12345, 8.875)).toBe(1096);
  });

  it('formatMoney writes cents as renters read them', () => {
    expect(formatMoney(9500, 'usd')).toBe('$95.00');
    expect(formatMoney(4500, 'EUR')).toBe('€45.00');
    expect(formatMoney(123456789, 'usd')).toBe('$1,234,567.89');
    expect(formatMoney(-500, 'usd')).toBe('-$5.00');
    expect(formatMoney(4500, 'dollars')).toBe('45.00 DOLLARS');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        expect(formatMoney(cents, 'usd').replace(/[$,]/g, '')).toBe((cents / 100).toFixed(2));
      }),
      RUNS,
    );
  });
});
