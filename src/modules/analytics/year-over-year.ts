/**
 * `GET /analytics/year-over-year`: net revenue (revenue less discounts, from the ledger, point of
 * sale included) month by month, this year against the year before, with each location's months in
 * its own time zone, the revenue target and the previous-year override.
 *
 * Two years of a busy location are a lot of ledger rows, so the months come from the trigger-kept
 * monthly totals (`analytics_ledger_months`, UTC months) corrected at each month boundary with the
 * raw entries between the UTC boundary and the local one (at most 14 hours): exact, and the work
 * does not grow with the history.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { wallTimeToUtc } from '../../lib/time';
import { analyticsLedgerMonths, analyticsRevenueTargets } from '../../db/schema/analytics';
import { countedEntry, kindOf, LedgerSums } from './ledger-sql';
import { currencyOf, reportBatch, type AnalyticsLocation } from './queries';
import { lit } from './sql-literals';

function byKind(s: LedgerSums) {
  return {
    revenueCents: s.net(),
    bookingRevenueCents: s.net('booking'),
    posRevenueCents: s.net('pos'),
    slipRevenueCents: s.net('slip'),
    otherRevenueCents: s.net('other'),
  };
}

const change = (now: number, before: number) => (before > 0 ? Math.round(((now - before) / before) * 10_000) / 100 : null);
const monthKey = (year: number, m: number) => `${year + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;

export async function getYearOverYear(ctx: Ctx, q: { locationIds: string[]; currentYear?: number }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  type Plan = { currentYear: number; windowMeta: { loc: string; k: number; sign: 1 | -1 }[] };
  let plan: Plan = { currentYear: 0, windowMeta: [] };
  const build = (locs: AnalyticsLocation[]) => {
    currencyOf(locs);
    const currentYear = q.currentYear ?? Number(todayIn(ctx, locs[0].timezone).slice(0, 4));
    const previousYear = currentYear - 1;
    const ids = locs.map((l) => l.locationId);
    // Month k = 0..23 is previousYear-01 .. currentYear-12; boundary k (0..24) starts month k.
    const windowMeta: Plan['windowMeta'] = [];
    const perLocWindows: SQL[] = [];
    for (const l of locs) {
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
      if (!cases.length) continue;
      // One statement per location (D1 allows only a few terms in a compound SELECT): its boundary windows, each labelled and
      // each read through the (location, occurred_at) index.
      perLocWindows.push(sql`SELECT w, kind, type, SUM(amount) AS amount FROM (
          SELECT CASE ${sql.join(cases, sql.raw(' '))} END AS w, ${kindOf('l')} AS kind, l.entry_type AS type, l.amount AS amount
          FROM ledger_entries l
          WHERE (${sql.join(ranges, sql.raw(' OR '))}) AND +l.customer_id = ${lit(customerId)} AND l.entry_type IN ('revenue', 'discount') AND ${countedEntry('l')}
        ) GROUP BY w, kind, type`);
    }
    plan = { currentYear, windowMeta };
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
            inArray(analyticsLedgerMonths.entryType, ['revenue', 'discount']),
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
      ...perLocWindows,
    ];
  };
  const { locs, results } = await reportBatch(ctx, q.locationIds, build);
  const currency = currencyOf(locs);
  const ids = locs.map((l) => l.locationId);
  const { currentYear, windowMeta } = plan;
  const previousYear = currentYear - 1;
  const [rolledRows, targetRows, ...edgeRows] = results;
  const rolled = rolledRows as { loc: string; month: string; kind: string; type: string; amount: number }[];
  const targets = targetRows as unknown as (typeof analyticsRevenueTargets.$inferSelect)[];
  const edges = edgeRows.flat() as { w: number; kind: string; type: string; amount: number }[];
  const perLoc = new Map(ids.map((id) => [id, Array.from({ length: 24 }, () => new LedgerSums())]));
  for (const r of rolled) {
    const [y, m] = r.month.split('-').map(Number);
    const k = (y - previousYear) * 12 + (m - 1);
    if (k >= 0 && k < 24) perLoc.get(r.loc)?.[k].add(r.kind, r.type, r.amount);
  }
  // sign 1: the local boundary is after the UTC one, so [utc, local) belongs to the local month before.
  for (const e of edges) {
    const { loc, k, sign } = windowMeta[Number(e.w)];
    const months = perLoc.get(loc)!;
    const to = sign === 1 ? k - 1 : k;
    const from = sign === 1 ? k : k - 1;
    if (to >= 0 && to < 24) months[to].add(e.kind, e.type, Number(e.amount));
    if (from >= 0 && from < 24) months[from].add(e.kind, e.type, -Number(e.amount));
  }
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
  for (const [loc, m] of perLoc) previousCompared += overrides.get(loc) ?? m.slice(0, 12).reduce((s, x) => s + x.net(), 0);
  const withTarget = targets.filter((t) => t.revenueTarget != null);
  const targetCents = withTarget.length ? withTarget.reduce((s, t) => s + (t.revenueTarget ?? 0), 0) : null;
  const currentCents = byKind(current).revenueCents;
  return {
    locationIds: ids,
    currentYear,
    previousYear,
    currency,
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
