/**
 * `GET /analytics/metrics`: revenue, tax, tips, discounts, payments, refunds, realized and deferred
 * revenue, booking counts and point-of-sale sales of some locations over a range of local days, with
 * the daily breakdown (each location's own time zone) and the operator's membership revenue. Revenue
 * is the one figure of ledger-sql.ts (the money kept, net of cancellations and refunds), the same as
 * year-over-year's. Aggregate statements, run at once in one batch; nothing loops over ledger rows.
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
    revenueCents: s.revenue(),
    bookingRevenueCents: s.revenue('booking'),
    posRevenueCents: s.revenue('pos'),
    slipRevenueCents: s.revenue('slip'),
    otherRevenueCents: s.revenue('other'),
    grossRevenueCents: s.gross(),
    discountsCents: -s.sum('discount'),
    netRevenueCents: s.revenue(),
    cancellationFeesCents: s.kept('cancellationFees'),
    premiumsCents: s.kept('premiums'),
    depositCapturesCents: s.kept('depositCaptures'),
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

type Query = { locationIds: string[]; startDate: string; endDate: string };
type LedgerRow = { loc: string; day: string; kind: string; type: string; amount: number; unrealized: number };
type PosRow = { loc: string; day: string; n: number };
type BookedRow = { loc: string; day: string; status: string; n: number; people: number };
type MembersRow = { invoices: number; created: number };

/** The report's statements: per location its ledger and sales by day; the booking counts; the memberships. */
function statements(customerId: string, q: Query, locs: AnalyticsLocation[]): SQL[] {
  currencyOf(locs);
  const ranged: Ranged[] = locs.map((l) => ({ ...l, ...dayRange(q.startDate, q.endDate, l.timezone) }));
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
      SELECT COUNT(*) AS invoices, coalesce(SUM(CASE WHEN kind = 'initial' THEN 1 ELSE 0 END), 0) AS created
      FROM membership_invoices
      WHERE customer_id = ${lit(customerId)} AND paid_at >= ${lit(first.fromIso)} AND paid_at < ${lit(first.toIso)} AND amount_paid > 0`,
    // Membership money from the ledger (memberships/ledger.ts: the account's entries, no location), by entry type.
    sql`
      SELECT l.entry_type AS type, SUM(l.amount) AS amount FROM ledger_entries l
      WHERE l.customer_id = ${lit(customerId)} AND l.occurred_at >= ${lit(first.fromIso)} AND l.occurred_at < ${lit(first.toIso)}
        AND l.source = 'membership' AND l.location_id IS NULL AND l.entry_type IN (${typeList(REPORTED_TYPES)}) AND l.deleted_at IS NULL
      GROUP BY l.entry_type`,
  ];
}

type Cell = { sums: LedgerSums; bookings: BookingCounts; pos: number };
const cell = (): Cell => ({ sums: new LedgerSums(), bookings: noBookings(), pos: 0 });

/** The rows of the batch added up per date, per location and in total. */
function tally(results: Record<string, unknown>[][], locs: AnalyticsLocation[], dates: string[]) {
  const n = locs.length;
  const ledger = results.slice(0, n).flat() as LedgerRow[];
  const pos = results.slice(n, 2 * n).flat() as PosRow[];
  const booked = results[2 * n] as BookedRow[];
  const byDay = new Map(dates.map((d) => [d, cell()]));
  const byLoc = new Map(locs.map((l) => [l.locationId, cell()]));
  const total = cell();
  const cellsOf = (day: string, loc: string) => [byDay.get(day), byLoc.get(loc), total].filter((c): c is Cell => !!c);
  for (const r of ledger) for (const c of cellsOf(r.day, r.loc)) c.sums.add(r.kind, r.type, r.amount, r.unrealized);
  for (const r of booked) for (const c of cellsOf(r.day, r.loc)) addStatus(c.bookings, r.status, Number(r.n), Number(r.people));
  for (const r of pos) for (const c of cellsOf(r.day, r.loc)) c.pos += Number(r.n);
  const memberMoney = new LedgerSums();
  for (const r of results[2 * n + 2] as { type: string; amount: number }[]) memberMoney.add('other', r.type, r.amount);
  return { byDay, byLoc, total, members: results[2 * n + 1][0] as MembersRow | undefined, memberMoney };
}

export async function getMetrics(ctx: Ctx, q: Query) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const { locs, results } = await reportBatch(ctx, q.locationIds, (locs) => statements(customerId, q, locs));
  const currency = currencyOf(locs);
  const dates = datesBetween(q.startDate, q.endDate);
  const { byDay, byLoc, total, members, memberMoney } = tally(results, locs, dates);
  const figuresOf = (c: Cell) => figures(c.sums, c.bookings, c.pos);
  return {
    locationIds: locs.map((l) => l.locationId),
    startDate: q.startDate,
    endDate: q.endDate,
    currency,
    locations: locs,
    totals: figuresOf(total),
    daily: dates.map((date) => ({ date, ...figuresOf(byDay.get(date)!) })),
    byLocation: locs.map((l) => ({ locationId: l.locationId, totals: figuresOf(byLoc.get(l.locationId)!) })),
    memberships: {
      revenueCents: memberMoney.revenue(),
      refundsCents: memberMoney.sum('refund'),
      invoicesPaid: Number(members?.invoices ?? 0),
      newMemberships: Number(members?.created ?? 0),
    },
  };
}
