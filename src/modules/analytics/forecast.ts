/**
 * `GET /forecast`: daily renter (or booking) counts for the next 7 or 14 local days of a location,
 * from the operator's own history of the last 16 weeks (bookings not cancelled, test bookings left
 * out, each day in the location's zone or the `timezone` given).
 *
 * The model, chosen by how much history there is:
 * - `holt_winters_weekly` (21 days of history or more): additive Holt-Winters with a weekly season
 *   and no trend. Level and weekday effects start from the first two weeks' means; then, day by day,
 *   level = alpha * (y - effect[weekday]) + (1 - alpha) * level and
 *   effect[weekday] = gamma * (y - level) + (1 - gamma) * effect[weekday]. alpha and gamma are the
 *   pair of a fixed grid with the least squared one-day-ahead error. The forecast of a day is
 *   level + effect[its weekday]; the 80% interval is +/- 1.2816 * sigma * sqrt(1 + (h - 1) * alpha^2)
 *   (sigma: the one-day-ahead errors' standard deviation, h: days ahead).
 * - `weekday_mean` (1 to 20 days): the mean of the same weekday where it was seen, else the mean of
 *   all days; the interval from the spread of the days around those means.
 * - `no_history`: nothing to learn from; the days' own bookings are the forecast.
 * A day never forecasts fewer than it has booked already.
 */
import { sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { addDays, wallTimeToUtc, weekdayOf } from '../../lib/time';
import { localDateOfMs, offsetSegments } from './local-days';
import { reportBatch } from './queries';
import { lit } from './sql-literals';
import type { Forecast } from './schemas';

export const HISTORY_DAYS = 112;
const MIN_SEASONAL_DAYS = 21;
const Z80 = 1.2816;
const ALPHAS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7];
const GAMMAS = [0.05, 0.1, 0.2, 0.3, 0.5];
const MONDAY_FIRST = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const round1 = (n: number) => Math.round(n * 10) / 10;
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

interface Fit {
  level: number;
  season: number[];
  sse: number;
  n: number;
  alpha: number;
  gamma: number;
}

/** Additive Holt-Winters (weekly season, no trend) over `y`, one-day-ahead errors counted after the first two weeks. */
export function holtWinters(y: number[], alpha: number, gamma: number): Fit {
  const level0 = mean(y.slice(0, 14));
  const season = Array.from({ length: 7 }, (_, j) => mean([y[j], y[j + 7]]) - level0);
  let level = level0;
  let sse = 0;
  let n = 0;
  for (let t = 14; t < y.length; t++) {
    const j = t % 7;
    const err = y[t] - (level + season[j]);
    sse += err * err;
    n++;
    const next = alpha * (y[t] - season[j]) + (1 - alpha) * level;
    season[j] = gamma * (y[t] - next) + (1 - gamma) * season[j];
    level = next;
  }
  return { level, season, sse, n, alpha, gamma };
}

export function bestFit(y: number[]): Fit {
  let best: Fit | null = null;
  for (const a of ALPHAS)
    for (const g of GAMMAS) {
      const f = holtWinters(y, a, g);
      if (!best || f.sse < best.sse - 1e-9) best = f;
    }
  return best!;
}

type Out = z.output<typeof Forecast>;

export async function getForecast(ctx: Ctx, q: { locationId: string; days: number; timezone?: string; units: 'renters' | 'bookings' }): Promise<Out> {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  let plan = { tz: '', today: '', first: '' };
  const { locs, results } = await reportBatch(ctx, [q.locationId], ([loc]) => {
    const tz = q.timezone ?? loc.timezone;
    const today = todayIn(ctx, tz);
    const first = addDays(today, -HISTORY_DAYS);
    const from = wallTimeToUtc(first, '00:00', tz);
    const to = wallTimeToUtc(addDays(addDays(today, q.days - 1), 1), '00:00', tz);
    const day = localDateOfMs(sql.raw('b.start'), offsetSegments(tz, from, to));
    plan = { tz, today, first };
    return [
      sql`
        SELECT ${day} AS day, COUNT(*) AS n, SUM(coalesce(b.participants, b.quantity, 1)) AS people
        FROM bookings b
        WHERE b.location_id = ${lit(loc.locationId)} AND b.start >= ${sql.raw(String(from))} AND b.start < ${sql.raw(String(to))}
          AND b.customer_id = ${lit(customerId)} AND b.status <> 'cancelled' AND b.test_mode = 0
        GROUP BY day`,
    ];
  });
  const loc = locs[0];
  const { tz, today, first } = plan;
  const rows = results[0] as { day: string; n: number; people: number }[];
  const count = new Map(rows.map((r) => [r.day, Number(q.units === 'bookings' ? r.n : r.people)]));

  // History: from the first day with bookings (within the window) to yesterday.
  const history: { date: string; y: number }[] = [];
  for (let d = first; d < today; d = addDays(d, 1)) history.push({ date: d, y: count.get(d) ?? 0 });
  const start = history.findIndex((h) => h.y > 0);
  const series = start < 0 ? [] : history.slice(start);
  const y = series.map((s) => s.y);
  const horizon = Array.from({ length: q.days }, (_, i) => addDays(today, i));

  let method: Out['method'];
  let methodDescription: string;
  let sigma: number | null = null;
  let alpha: number | null = null;
  let gamma: number | null = null;
  let predict: (i: number, date: string) => number;
  const effects = new Map<string, number>();
  if (y.length >= MIN_SEASONAL_DAYS) {
    const fit = bestFit(y);
    method = 'holt_winters_weekly';
    methodDescription = `Additive Holt-Winters with a weekly season and no trend, fitted on ${y.length} days (alpha ${fit.alpha}, gamma ${fit.gamma}); 80% interval from the one-day-ahead errors.`;
    alpha = fit.alpha;
    gamma = fit.gamma;
    sigma = fit.n ? Math.sqrt(fit.sse / fit.n) : 0;
    predict = (i) => fit.level + fit.season[(y.length + i) % 7];
    for (let j = 0; j < 7; j++) effects.set(weekdayOf(series[j].date), fit.season[j]);
  } else if (y.length) {
    const byWeekday = new Map<string, number[]>();
    for (const s of series) byWeekday.set(weekdayOf(s.date), [...(byWeekday.get(weekdayOf(s.date)) ?? []), s.y]);
    const overall = mean(y);
    const expectOn = (weekday: string) => (byWeekday.has(weekday) ? mean(byWeekday.get(weekday)!) : overall);
    const expect = (date: string) => expectOn(weekdayOf(date));
    method = 'weekday_mean';
    methodDescription = `Only ${y.length} day(s) of history: the mean of the same weekday where it was seen, else of all days; 80% interval from the spread around those means.`;
    sigma = Math.sqrt(mean(series.map((s) => (s.y - expect(s.date)) ** 2)));
    predict = (_i, date) => expect(date);
    for (const w of MONDAY_FIRST) effects.set(w, expectOn(w) - overall);
  } else {
    method = 'no_history';
    methodDescription = 'No bookings in the last 16 weeks to learn from: each day forecasts what it has booked already.';
    predict = () => 0;
  }

  const forecast = horizon.map((date, i) => {
    const booked = count.get(date) ?? 0;
    const model = Math.max(0, predict(i, date));
    const spread = sigma == null ? 0 : Z80 * sigma * Math.sqrt(1 + i * (alpha ?? 0) ** 2);
    const predicted = Math.max(model, booked);
    return {
      date,
      weekday: weekdayOf(date),
      predicted: round1(predicted),
      low: round1(Math.max(booked, model - spread, 0)),
      high: round1(Math.max(predicted, model + spread)),
      booked,
    };
  });
  return {
    locationId: loc.locationId,
    timezone: tz,
    units: q.units,
    days: q.days,
    method,
    methodDescription,
    interval: { level: 0.8, residualStdDev: sigma == null ? null : Math.round(sigma * 100) / 100 },
    parameters: { alpha, gamma, historyDays: y.length, historyFrom: series[0]?.date ?? null },
    seasonality: MONDAY_FIRST.map((weekday) => ({ weekday, effect: round1(effects.get(weekday) ?? 0) })),
    forecast,
  };
}
