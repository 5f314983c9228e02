/**
 * `GET /analytics/metrics`: revenue, tax, tips, discounts, payments, refunds, realized and deferred
 * revenue, booking counts and point-of-sale sales of some locations over a range of local days, with
 * the daily breakdown (each location's own time zone) and the operator's membership revenue. Four
 * aggregate statements, run at once; nothing loops over ledger rows.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { countedEntry, kindOf, LedgerSums, REPORTED_TYPES, typeList, unrealized } from './ledger-sql';
import { datesBetween, dayRange, localDateOfIso, offsetSegments } from './local-days';
import { currencyOf, reportBatch, type AnalyticsLocation } from './queries';
import { lit, litList } from './sql-literals';
import type { MetricsFigures } from './schemas';

type Figures = z.output<typeof MetricsFigures>;

export interface BookingCounts {
  bookingCount: number;
  cancelledCount: number;
  completedCount: number;
  noShowCount: number;
  renters: number;
}

const noBookings = (): BookingCounts => ({ bookingCount: 0, cancelledCount: 0, completedCount: 0, noShowCount: 0, renters: 0 });

function addStatus(b: BookingCounts, status: string, n: number, people: number) {
  if (status === 'cancelled') b.cancelledCount += n;
  else {
    b.bookingCount += n;
    b.renters += people;
    if (status === 'completed') b.completedCount += n;
    if (status === 'no_show') b.noShowCount += n;
  }
}

export function figures(s: LedgerSums, b: BookingCounts, posSales: number): Figures {
  return {
    revenueCents: s.sum('revenue'),
    bookingRevenueCents: s.sum('revenue', 'booking'),
    posRevenueCents: s.sum('revenue', 'pos'),
    slipRevenueCents: s.sum('revenue', 'slip'),
    otherRevenueCents: s.sum('revenue', 'other'),
    discountsCents: -s.sum('discount'),
    netRevenueCents: s.net(),
    taxCents: s.sum('tax'),
    tipsCents: s.sum('tip'),
    refundsCents: s.sum('refund'),
    paymentsCents: -s.sum('payment'),
    realizedRevenueCents: s.sum('revenue_realized'),
    deferredRevenueCents: s.unrealizedCents,
    ...b,
    posSales,
  };
}

interface Ranged extends AnalyticsLocation {
  from: number;
  to: number;
  fromIso: string;
  toIso: string;
}

/**
 * Ledger sums of one location per local day, kind and entry type. (One statement per location: D1
 * allows only a few terms in a compound SELECT, and each location has its own days.)
 */
function ledgerByDay(customerId: string, l: Ranged): SQL {
  const day = localDateOfIso(sql.raw('l.occurred_at'), offsetSegments(l.timezone, l.from, l.to));
  return sql`SELECT ${lit(l.locationId)} AS loc, ${day} AS day, ${kindOf('l')} AS kind, l.entry_type AS type, SUM(l.amount) AS amount,
    SUM(CASE WHEN ${unrealized('l')} THEN l.amount ELSE 0 END) AS unrealized
    FROM ledger_entries l
    WHERE l.location_id = ${lit(l.locationId)} AND l.occurred_at >= ${lit(l.fromIso)} AND l.occurred_at < ${lit(l.toIso)}
      AND +l.customer_id = ${lit(customerId)} AND l.entry_type IN (${typeList(REPORTED_TYPES)}) AND ${countedEntry('l')}
    GROUP BY day, kind, type`;
}

/** Point-of-sale sales of one location per local day. */
function posByDay(customerId: string, l: Ranged): SQL {
  const day = localDateOfIso(sql.raw('p.created_at'), offsetSegments(l.timezone, l.from, l.to));
  return sql`SELECT ${lit(l.locationId)} AS loc, ${day} AS day, COUNT(*) AS n FROM pos_transactions p
    WHERE p.customer_id = ${lit(customerId)} AND p.location_id = ${lit(l.locationId)} AND p.created_at >= ${lit(l.fromIso)} AND p.created_at < ${lit(l.toIso)}
      AND p.kind = 'sale'
    GROUP BY day`;
}

type LedgerRow = { loc: string; day: string; kind: string; type: string; amount: number; unrealized: number };
type PosRow = { loc: string; day: string; n: number };

export async function getMetrics(ctx: Ctx, q: { locationIds: string[]; startDate: string; endDate: string }) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const rangedOf = (locs: AnalyticsLocation[]): Ranged[] => locs.map((l) => ({ ...l, ...dayRange(q.startDate, q.endDate, l.timezone) }));
  const { locs, results } = await reportBatch(ctx, q.locationIds, (locs) => {
    currencyOf(locs);
    const ranged = rangedOf(locs);
    const first = ranged[0];
    return [
      ...ranged.map((l) => ledgerByDay(customerId, l)),
      ...ranged.map((l) => posByDay(customerId, l)),
      sql`
        SELECT location_id AS loc, local_date AS day, status, COUNT(*) AS n, SUM(coalesce(participants, quantity, 1)) AS people
        FROM bookings
        WHERE customer_id = ${lit(customerId)} AND local_date >= ${lit(q.startDate)} AND local_date <= ${lit(q.endDate)}
          AND location_id IN (${litList(locs.map((l) => l.locationId))}) AND test_mode = 0
        GROUP BY loc, day, status`,
      sql`
        SELECT coalesce(SUM(amount_paid), 0) AS paid, coalesce(SUM(amount_refunded), 0) AS refunded, COUNT(*) AS invoices,
          coalesce(SUM(CASE WHEN kind = 'initial' THEN 1 ELSE 0 END), 0) AS created
        FROM membership_invoices
        WHERE customer_id = ${lit(customerId)} AND paid_at >= ${lit(first.fromIso)} AND paid_at < ${lit(first.toIso)} AND amount_paid > 0`,
    ];
  });
  const currency = currencyOf(locs);
  const n = locs.length;
  const ledger = results.slice(0, n).flat() as LedgerRow[];
  const pos = results.slice(n, 2 * n).flat() as PosRow[];
  const booked = results[2 * n] as { loc: string; day: string; status: string; n: number; people: number }[];
  const members = results[2 * n + 1][0] as { paid: number; refunded: number; invoices: number; created: number } | undefined;

  const dates = datesBetween(q.startDate, q.endDate);
  const cell = () => ({ sums: new LedgerSums(), bookings: noBookings(), pos: 0 });
  const byDay = new Map(dates.map((d) => [d, cell()]));
  const byLoc = new Map(locs.map((l) => [l.locationId, cell()]));
  const total = cell();
  for (const r of ledger) {
    for (const c of [byDay.get(r.day), byLoc.get(r.loc), total]) c?.sums.add(r.kind, r.type, r.amount, r.unrealized);
  }
  for (const r of booked) {
    for (const c of [byDay.get(r.day), byLoc.get(r.loc), total]) if (c) addStatus(c.bookings, r.status, Number(r.n), Number(r.people));
  }
  for (const r of pos) {
    for (const c of [byDay.get(r.day), byLoc.get(r.loc), total]) if (c) c.pos += Number(r.n);
  }
  return {
    locationIds: locs.map((l) => l.locationId),
    startDate: q.startDate,
    endDate: q.endDate,
    currency,
    locations: locs,
    totals: figures(total.sums, total.bookings, total.pos),
    daily: dates.map((date) => {
      const c = byDay.get(date)!;
      return { date, ...figures(c.sums, c.bookings, c.pos) };
    }),
    byLocation: locs.map((l) => {
      const c = byLoc.get(l.locationId)!;
      return { locationId: l.locationId, totals: figures(c.sums, c.bookings, c.pos) };
    }),
    memberships: {
      revenueCents: Number(members?.paid ?? 0) - Number(members?.refunded ?? 0),
      refundsCents: Number(members?.refunded ?? 0),
      invoicesPaid: Number(members?.invoices ?? 0),
      newMemberships: Number(members?.created ?? 0),
    },
  };
}
