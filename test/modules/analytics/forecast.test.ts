/** GET /forecast through HTTP: a synthetic history with a known weekly pattern is recovered; fallbacks; validation. */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, type Operator } from '../../harness';
import { otherOperator } from '../../security';
import { bookingRow, insertAll, k, locationIn } from './factories';
import { addDays, localDate, weekdayOf } from '../../../src/lib/time';

const TZ = 'America/Los_Angeles';
/** Renters per weekday in the synthetic history. */
const PATTERN: Record<string, number> = { Monday: 4, Tuesday: 2, Wednesday: 2, Thursday: 3, Friday: 6, Saturday: 10, Sunday: 8 };
/** Deterministic noise, mean zero over each fortnight. */
const NOISE = [0, 1, 0, -1, 1, 0, -1, 0, 0, 1, -1, 0, 0, 0];

const forecast = (op: Operator, q: Record<string, string | number>) =>
  get(`/forecast?${new URLSearchParams(Object.fromEntries(Object.entries(q).map(([a, b]) => [a, String(b)])))}`, k(op));

/** One booking a day with `participants` renters, for `weeks` weeks up to yesterday, as local wall times in `tz`. */
async function history(op: Operator, locationId: string, tz: string, days: number, renters: (date: string, i: number) => number) {
  const today = localDate(Date.now(), tz);
  const stmts = [];
  for (let i = days; i >= 1; i--) {
    const date = addDays(today, -i);
    // Late in the evening: the local day, not the UTC one, must count it.
    const r = await bookingRow(op, { locationId, date, time: '22:30', tz, participants: renters(date, i), status: 'completed' });
    stmts.push(r.stmt);
  }
  await insertAll(stmts);
  return today;
}

describe('GET /forecast', () => {
  it('recovers a weekly pattern within one renter; the 80% interval holds most days', async () => {
    const op = await createOperator({ timezone: TZ });
    const today = await history(op, op.locationId, TZ, 56, (date, i) => PATTERN[weekdayOf(date)] + NOISE[i % NOISE.length]);
    // Cancelled and sandbox bookings do not count; tomorrow already has 30 renters booked.
    const extra = await Promise.all([
      bookingRow(op, { locationId: op.locationId, date: addDays(today, -3), tz: TZ, participants: 50, status: 'cancelled' }),
      bookingRow(op, { locationId: op.locationId, date: addDays(today, -4), tz: TZ, participants: 50, testMode: true }),
      bookingRow(op, { locationId: op.locationId, date: addDays(today, 1), tz: TZ, participants: 30, status: 'confirmed' }),
    ]);
    await insertAll(extra.map((e) => e.stmt));

    const r = await forecast(op, { locationId: op.locationId, days: 14 });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ locationId: op.locationId, timezone: TZ, units: 'renters', days: 14, method: 'holt_winters_weekly' });
    expect(r.body.parameters.historyDays).toBe(56);
    expect(r.body.interval.level).toBe(0.8);
    expect(r.body.forecast).toHaveLength(14);
    expect(r.body.forecast[0].date).toBe(today);
    let covered = 0;
    for (const d of r.body.forecast) {
      expect(d.weekday).toBe(weekdayOf(d.date));
      if (d.date === addDays(today, 1)) {
        expect(d).toMatchObject({ booked: 30, predicted: 30 });
        continue;
      }
      const truth = PATTERN[d.weekday];
      expect(Math.abs(d.predicted - truth), `${d.date} ${d.weekday}: ${d.predicted} vs ${truth}`).toBeLessThanOrEqual(1);
      expect(d.low).toBeLessThanOrEqual(d.predicted);
      expect(d.high).toBeGreaterThanOrEqual(d.predicted);
      if (d.low <= truth && truth <= d.high) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(10); // of 13 days
    // The weekday effects are the pattern around its mean (5): Saturday high, Tuesday low.
    const effects = Object.fromEntries(r.body.seasonality.map((s: any) => [s.weekday, s.effect]));
    expect(effects.Saturday).toBeGreaterThan(4);
    expect(effects.Tuesday).toBeLessThan(-2);
    // Bookings as the unit: one a day.
    const b = await forecast(op, { locationId: op.locationId, days: 7, units: 'bookings' });
    expect(b.body.method).toBe('holt_winters_weekly');
    for (const d of b.body.forecast) if (d.date !== addDays(today, 1)) expect(Math.abs(d.predicted - 1)).toBeLessThanOrEqual(0.2);
  });

  it('counts days in the time zone asked for', async () => {
    const op = await createOperator({ timezone: TZ });
    // Every booking at 22:30 Los Angeles time is on the next day in UTC: the weekly pattern moves by one weekday.
    await history(op, op.locationId, TZ, 35, (date) => PATTERN[weekdayOf(date)]);
    const local = await forecast(op, { locationId: op.locationId, days: 7 });
    const utc = await forecast(op, { locationId: op.locationId, days: 7, timezone: 'UTC' });
    expect(utc.status, utc.text).toBe(200);
    expect(utc.body.timezone).toBe('UTC');
    const sat = (body: any) => body.seasonality.find((s: any) => s.weekday === 'Saturday').effect;
    const sun = (body: any) => body.seasonality.find((s: any) => s.weekday === 'Sunday').effect;
    expect(sat(local.body)).toBeCloseTo(PATTERN.Saturday - 5, 0);
    expect(sun(utc.body)).toBeCloseTo(PATTERN.Saturday - 5, 0);
  });

  it('falls back to weekday means on a short history and to the bookings alone with none', async () => {
    const op = await createOperator({ timezone: TZ });
    const today = await history(op, op.locationId, TZ, 5, (date) => PATTERN[weekdayOf(date)]);
    const short = await forecast(op, { locationId: op.locationId, days: 7 });
    expect(short.body.method).toBe('weekday_mean');
    expect(short.body.parameters).toMatchObject({ historyDays: 5, alpha: null, gamma: null, historyFrom: addDays(today, -5) });
    const seen = new Set(Array.from({ length: 5 }, (_, i) => weekdayOf(addDays(today, -1 - i))));
    const mean = [...seen].reduce((s, w) => s + PATTERN[w], 0) / 5;
    for (const d of short.body.forecast) {
      const expected = seen.has(d.weekday) ? PATTERN[d.weekday] : Math.round(mean * 10) / 10;
      expect(d.predicted).toBe(expected);
    }
    const empty = await locationIn(op, TZ);
    const none = await forecast(op, { locationId: empty, days: 7 });
    expect(none.body).toMatchObject({ method: 'no_history', parameters: { historyDays: 0 }, interval: { residualStdDev: null } });
    expect(none.body.forecast.every((d: any) => d.predicted === 0 && d.low === 0 && d.high === 0 && d.booked === 0)).toBe(true);
  });

  it('takes 7 or 14 days only and answers 404 for locations that are not the caller’s', async () => {
    const op = await createOperator();
    for (const days of [0, 1, 10, 15, 'week']) expectError(await forecast(op, { locationId: op.locationId, days }), 400, 'validation_failed');
    expectError(await forecast(op, { locationId: op.locationId, timezone: 'Mars/Olympus' }), 400, 'validation_failed');
    expectError(await forecast(op, { locationId: op.locationId, units: 'boats' }), 400, 'validation_failed');
    expectError(await get('/forecast', k(op)), 400, 'validation_failed');
    expect((await forecast(op, { locationId: op.locationId })).body.days).toBe(7);
    expectError(await forecast(op, { locationId: 'loc_nope' }), 404, 'not_found');
    const intruder = await otherOperator();
    expectError(await forecast(op, { locationId: intruder.locationId }), 404, 'not_found');
  });
});
