/**
 * `GET /analytics/year-over-year`: revenue (the one figure of ledger-sql.ts, the same as metrics':
 * the money kept, net of cancellations and refunds, point of sale included) month by month, this
 * year against the year before, with each location's months in its own time zone, the revenue
 * target and the previous-year override.
 *
 * Two years of a busy location are a lot of ledger rows, so the months come from the trigger-kept
 * monthly totals (`analytics_ledger_months`, UTC months) corrected at each month boundary with the
 * raw entries between the UTC boundary and the local one (at most 14 hours): exact, and the work
 * does not grow with the history. Point-of-sale refunds are on the ledger as reversals of their sales'
 * entries (pos/refunds.ts), so the monthly totals hold them too.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { wallTimeToUtc } from '../../lib/time';
import { analyticsLedgerMonths, analyticsRevenueTargets } from '../../db/schema/analytics';
import { countedEntry, kindOf, LedgerSums, REVENUE_TYPES, typeList } from './ledger-sql';
import { currencyOf, reportBatch, type AnalyticsLocation } from './queries';
import { lit } from './sql-literals';

function byKind(s: LedgerSums) {
  return {
    revenueCents: s.revenue(),
    bookingRevenueCents: s.revenue('booking'),
    posRevenueCents: s.revenue('pos'),
    slipRevenueCents: s.revenue('slip'),
    otherRevenueCents: s.revenue('other'),
  };
}

const change = (now: number, before: number) => (before > 0 ? Math.round(((now - before) / before) * 10_000) / 100 : null);
const monthKey = (year: number, m: number) => `${year + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;

type Edge = { loc: string; k: number; sign: 1 | -1 };
type Plan = { currentYear: number; windowMeta: Edge[] };

/**
 * One statement per location (D1 allows only a few terms in a compound SELECT): the raw entries of its
 * boundary windows, each window labelled (its index in `windowMeta`) and read through the (location,
 * occurred_at) index. Month k = 0..23 is previousYear-01 .. currentYear-12; boundary k (0..24) starts month k.
 */
function boundaryWindows(customerId: string, l: AnalyticsLocation, previousYear: number, windowMeta: Edge[]): SQL | null {
  const cases: SQL[] = [];
  const ranges: SQL[] = [];
  for (let k = 0; k <= 24; k++) {
    const key = monthKey(previousYear, k);
    const utc = Date.parse(`${key}-01T00:00:00.000Z`);
    const local = wallTimeToUtc(`${key}-01`, '00:00', l.timezone);
    if (utc === local) continue;
    // Entries between the two boundaries sit in one UTC month but in the neighbouring local month.
    const [a, b] = utc < local ? [utc, local] : [local, utc];
    windowMeta.push({ loc: l.locationId, k, sign: utc < local ? 1 : -1 });
    const range = sql`l.occurred_at >= ${lit(new Date(a).toISOString())} AND l.occurred_at < ${lit(new Date(b).toISOString())}`;
    cases.push(sql`WHEN ${range} THEN ${sql.raw(String(windowMeta.length - 1))}`);
    ranges.push(sql`(l.location_id = ${lit(l.locationId)} AND ${range})`);
  }
  if (!cases.length) return null;
  return sql`SELECT w, kind, type, SUM(amount) AS amount FROM (
      SELECT CASE ${sql.join(cases, sql.raw(' '))} END AS w, ${kindOf('l')} AS kind, l.entry_type AS type, l.amount AS amount
      FROM ledger_entries l
      WHERE (${sql.join(ranges, sql.raw(' OR '))}) AND +l.customer_id = ${lit(customerId)} AND l.entry_type IN (${typeList(REVENUE_TYPES)})
        AND ${countedEntry('l')}
    ) GROUP BY w, kind, type`;
}

/** The report's statements: the monthly totals, the targets, then per location its boundary windows. */
function statements(ctx: Ctx, customerId: string, locs: AnalyticsLocation[], currentYear: number, windowMeta: Edge[]) {
  const previousYear = currentYear - 1;
  const ids = locs.map((l) => l.locationId);
  const windows = locs.map((l) => boundaryWindows(customerId, l, previousYear, windowMeta)).filter((w): w is SQL => !!w);
  return [
    ctx.db
      .select({
        loc: analyticsLedgerMonths.locationId,
        month: analyticsLedgerMonths.month,
        kind: analyticsLedgerMonths.kind,
        type: analyticsLedgerMonths.entryType,
        amount: analyticsLedgerMonths.amount,
      })
      .from(analyticsLedgerMonths)
      .where(
        and(
          inArray(analyticsLedgerMonths.locationId, ids),
          eq(analyticsLedgerMonths.customerId, customerId),
          inArray(analyticsLedgerMonths.entryType, [...REVENUE_TYPES]),
          sql`${analyticsLedgerMonths.month} >= ${`${previousYear}-01`} AND ${analyticsLedgerMonths.month} <= ${`${currentYear}-12`}`,
        ),
      ),
    ctx.db
      .select()
      .from(analyticsRevenueTargets)
      .where(
        and(
          eq(analyticsRevenueTargets.customerId, customerId),
          inArray(analyticsRevenueTargets.locationId, ids),
          eq(analyticsRevenueTargets.year, currentYear),
        ),
      ),
    ...windows,
  ];
}

type Rolled = { loc: string; month: string; kind: string; type: string; amount: number };
type EdgeRow = { w: number; kind: string; type: string; amount: number };

/** Each location's 24 local months: the UTC monthly totals, moved at the month boundaries. */
function monthsByLocation(locs: AnalyticsLocation[], previousYear: number, rolled: Rolled[], edges: EdgeRow[], meta: Edge[]) {
  const perLoc = new Map(locs.map((l) => [l.locationId, Array.from({ length: 24 }, () => new LedgerSums())]));
  const monthIndex = (month: string) => {
    const [y, m] = month.split('-').map(Number);
    const k = (y - previousYear) * 12 + (m - 1);
    return k >= 0 && k < 24 ? k : -1;
  };
  for (const r of rolled) perLoc.get(r.loc)?.[monthIndex(r.month)]?.add(r.kind, r.type, r.amount);
  // sign 1: the local boundary is after the UTC one, so [utc, local) belongs to the local month before.
  for (const e of edges) {
    const { loc, k, sign } = meta[Number(e.w)];
    const months = perLoc.get(loc)!;
    const to = sign === 1 ? k - 1 : k;
    const from = sign === 1 ? k : k - 1;
    if (to >= 0 && to < 24) months[to].add(e.kind, e.type, Number(e.amount));
    if (from >= 0 && from < 24) months[from].add(e.kind, e.type, -Number(e.amount));
  }
  return perLoc;
}

type TargetRow = typeof analyticsRevenueTargets.$inferSelect;

/** The two years compared, month by month and in total, with each location's previous-year override, and the targets. */
function comparison(perLoc: Map<string, LedgerSums[]>, targets: TargetRow[]) {
  const months: LedgerSums[] = Array.from({ length: 24 }, (_, k) => {
    const s = new LedgerSums();
    for (const m of perLoc.values()) s.merge(m[k]);
    return s;
  });
  const current = new LedgerSums();
  const previous = new LedgerSums();
  const rows = Array.from({ length: 12 }, (_, i) => {
    current.merge(months[12 + i]);
    previous.merge(months[i]);
    const c = byKind(months[12 + i]);
    const p = byKind(months[i]);
    return { month: i + 1, current: c, previous: p, changePercent: change(c.revenueCents, p.revenueCents) };
  });
  // A location's override replaces its own previous-year revenue in the comparison.
  const overrides = new Map(targets.filter((t) => t.previousYearRevenueOverride != null).map((t) => [t.locationId, t.previousYearRevenueOverride!]));
  let previousCompared = 0;
  for (const [loc, m] of perLoc) previousCompared += overrides.get(loc) ?? m.slice(0, 12).reduce((s, x) => s + x.revenue(), 0);
  const withTarget = targets.filter((t) => t.revenueTarget != null);
  const targetCents = withTarget.length ? withTarget.reduce((s, t) => s + (t.revenueTarget ?? 0), 0) : null;
  const currentCents = byKind(current).revenueCents;
  return {
    months: rows,
    totals: {
      current: byKind(current),
      previous: byKind(previous),
      previousYearRevenueOverrideCents: overrides.size ? [...overrides.values()].reduce((s, v) => s + v, 0) : null,
      previousComparedCents: previousCompared,
      changePercent: change(currentCents, previousCompared),
    },
    target: {
      revenueTargetCents: targetCents,
      locationsWithTarget: withTarget.length,
      progressPercent: targetCents ? Math.round((currentCents / targetCents) * 10_000) / 100 : null,
      remainingCents: targetCents != null ? Math.max(0, targetCents - currentCents) : null,
    },
  };
}

export async function getYearOverYear(ctx: Ctx, q: { locationIds: string[]; currentYear?: number }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  let plan: Plan = { currentYear: 0, windowMeta: [] };
  const build = (locs: AnalyticsLocation[]) => {
    currencyOf(locs);
    plan = { currentYear: q.currentYear ?? Number(todayIn(ctx, locs[0].timezone).slice(0, 4)), windowMeta: [] };
    return statements(ctx, customerId, locs, plan.currentYear, plan.windowMeta);
  };
  const { locs, results } = await reportBatch(ctx, q.locationIds, build);
  const currency = currencyOf(locs);
  const { currentYear, windowMeta } = plan;
  const [rolled, targets, ...rest] = results;
  const edges = rest.flat() as EdgeRow[];
  const perLoc = monthsByLocation(locs, currentYear - 1, rolled as Rolled[], edges, windowMeta);
  return {
    locationIds: locs.map((l) => l.locationId),
    currentYear,
    previousYear: currentYear - 1,
    currency,
    ...comparison(perLoc, targets as unknown as TargetRow[]),
  };
}
