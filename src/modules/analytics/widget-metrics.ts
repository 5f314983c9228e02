/**
 * `GET /analytics/widget-metrics`: the booking widget's funnel from the events it recorded
 * (`widget_events`: view, date chosen, slot chosen, checkout, booked, waitlist; one random visit id
 * per browser visit, no personal data). An event belongs to a location by its `locationId`, else by
 * its item's location; each location's events are counted over its own local days, and the heatmap
 * and the daily rows use its local time. Aggregate statements in one D1 batch.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { datesBetween, dayRange, localDateOfIso, localWeekdayHourOfIso, offsetSegments } from './local-days';
import { reportBatch, type AnalyticsLocation } from './queries';
import { lit, litList } from './sql-literals';

const STEPS = ['view', 'date_chosen', 'slot_chosen', 'checkout', 'booked'] as const;
const MONDAY_FIRST = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

function statements(customerId: string, q: { startDate: string; endDate: string }, locs: AnalyticsLocation[]): SQL[] {
  const ranged = locs.map((l) => ({ ...l, ...dayRange(q.startDate, q.endDate, l.timezone) }));
  const from = ranged.reduce((m, l) => (l.fromIso < m ? l.fromIso : m), ranged[0].fromIso);
  const to = ranged.reduce((m, l) => (l.toIso > m ? l.toIso : m), ranged[0].toIso);
  const perLoc = (expr: (l: (typeof ranged)[number]) => SQL) =>
    sql`CASE ev.loc ${sql.join(
      ranged.map((l) => sql`WHEN ${lit(l.locationId)} THEN ${expr(l)}`),
      sql.raw(' '),
    )} END`;
  const col = sql.raw('ev.created_at');
  const day = perLoc((l) => localDateOfIso(col, offsetSegments(l.timezone, l.from, l.to)));
  const weekHour = perLoc((l) => localWeekdayHourOfIso(col, offsetSegments(l.timezone, l.from, l.to)));
  const inRange = sql.join(
    ranged.map((l) => sql`(ev.loc = ${lit(l.locationId)} AND ev.created_at >= ${lit(l.fromIso)} AND ev.created_at < ${lit(l.toIso)})`),
    sql.raw(' OR '),
  );
  // The caller's events of the period with their location (the event's, else its item's: looked up
  // only for events without one), kept for the requested locations.
  const events = sql`WITH ev AS (
      SELECT e.session_id, e.event, e.inventory_id, e.source, e.ref, e.created_at,
        coalesce(e.location_id, (SELECT i.location_id FROM inventory_items i WHERE i.id = e.inventory_id AND i.customer_id = ${lit(customerId)})) AS loc
      FROM widget_events e
      WHERE e.customer_id = ${lit(customerId)} AND e.created_at >= ${lit(from)} AND e.created_at < ${lit(to)}
    ), f AS (SELECT ev.*, ${day} AS day, ${weekHour} AS wh FROM ev WHERE ev.loc IN (${litList(locs.map((l) => l.locationId))}) AND (${inRange}))`;
  return [
    sql`${events} SELECT event, COUNT(DISTINCT session_id) AS sessions, COUNT(*) AS n FROM f GROUP BY event`,
    sql`${events} SELECT wh, COUNT(*) AS n FROM f WHERE event = 'view' GROUP BY wh`,
    sql`${events} SELECT day, COUNT(DISTINCT session_id) AS sessions, SUM(CASE WHEN event = 'view' THEN 1 ELSE 0 END) AS views,
      COUNT(DISTINCT CASE WHEN event = 'booked' THEN session_id END) AS bookings, COUNT(DISTINCT CASE WHEN event = 'view' THEN session_id END) AS viewers
      FROM f GROUP BY day`,
    sql`${events} SELECT coalesce(source, '(direct)') AS source, COUNT(DISTINCT session_id) AS sessions,
      COUNT(DISTINCT CASE WHEN event = 'booked' THEN session_id END) AS bookings
      FROM f GROUP BY 1 ORDER BY sessions DESC, source LIMIT 20`,
    sql`${events} SELECT ref, COUNT(DISTINCT session_id) AS sessions, COUNT(DISTINCT CASE WHEN event = 'booked' THEN session_id END) AS bookings
      FROM f WHERE ref IS NOT NULL GROUP BY ref ORDER BY sessions DESC, ref LIMIT 20`,
    sql`${events} SELECT f.inventory_id AS id, i.name AS name,
      COUNT(DISTINCT CASE WHEN f.event = 'view' THEN f.session_id END) AS views,
      COUNT(DISTINCT CASE WHEN f.event = 'checkout' THEN f.session_id END) AS checkouts,
      COUNT(DISTINCT CASE WHEN f.event = 'booked' THEN f.session_id END) AS bookings
      FROM f LEFT JOIN inventory_items i ON i.id = f.inventory_id AND i.customer_id = ${lit(customerId)}
      WHERE f.inventory_id IS NOT NULL GROUP BY f.inventory_id ORDER BY bookings DESC, views DESC, f.inventory_id LIMIT 10`,
  ];
}

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

export async function getWidgetMetrics(ctx: Ctx, q: { locationIds: string[]; startDate: string; endDate: string }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const { locs, results } = await reportBatch(ctx, q.locationIds, (locs) => statements(customerId, q, locs));
  const [funnelRows, heatRows, dailyRows, sourceRows, refRows, productRows] = results as Row[][];
  const step = new Map(funnelRows.map((r) => [String(r.event), { sessions: num(r.sessions), events: num(r.n) }]));
  const viewers = step.get('view')?.sessions ?? 0;
  const counts = MONDAY_FIRST.map(() => Array.from({ length: 24 }, () => 0));
  for (const r of heatRows) {
    const [w, h] = String(r.wh).split(' ').map(Number);
    counts[(w + 6) % 7][h] += num(r.n);
  }
  const byDay = new Map(dailyRows.map((r) => [String(r.day), r]));
  return {
    locationIds: locs.map((l) => l.locationId),
    startDate: q.startDate,
    endDate: q.endDate,
    funnel: {
      steps: STEPS.map((s) => {
        const v = step.get(s) ?? { sessions: 0, events: 0 };
        return { step: s, sessions: v.sessions, events: v.events, conversionPercent: pct(v.sessions, viewers) };
      }),
      waitlistSessions: step.get('waitlist')?.sessions ?? 0,
      overallConversionPercent: pct(step.get('booked')?.sessions ?? 0, viewers),
    },
    heatmap: { metric: 'views' as const, weekdays: MONDAY_FIRST, counts },
    daily: datesBetween(q.startDate, q.endDate).map((date) => {
      const r = byDay.get(date);
      return {
        date,
        sessions: num(r?.sessions),
        views: num(r?.views),
        bookings: num(r?.bookings),
        conversionPercent: pct(num(r?.bookings), num(r?.viewers)),
      };
    }),
    sources: sourceRows.map((r) => ({ source: String(r.source), sessions: num(r.sessions), bookings: num(r.bookings) })),
    referrals: refRows.map((r) => ({ ref: String(r.ref), sessions: num(r.sessions), bookings: num(r.bookings) })),
    topProducts: productRows.map((r) => ({
      inventoryId: String(r.id),
      name: (r.name as string | null) ?? null,
      views: num(r.views),
      checkouts: num(r.checkouts),
      bookings: num(r.bookings),
      conversionPercent: pct(num(r.bookings), num(r.views)),
    })),
  };
}
