import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import { dayBounds, isoDate } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { posRefunds, posSettlements, posTransactions, type ZReportTotals } from '../../db/schema/pos';
import { posFail } from './errors';
import { locationOf } from './queries';
import { zReportOut } from './views';

const chunks = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

function instantOf(v: string, tz: string, edge: 'start' | 'end', field: string): number {
  if (isoDate.test(v)) {
    const b = dayBounds(v, tz);
    return edge === 'start' ? b.start : b.end;
  }
  const t = Date.parse(v);
  if (Number.isNaN(t))
    throw new ApiError('validation_failed', `${field} must be YYYY-MM-DD or an ISO 8601 instant`, { details: [{ field, message: 'invalid date' }] });
  return t;
}

interface SettleRangeInput {
  locationId: string;
  startDate?: string;
  endDate?: string;
  drawerId?: string;
  countedCash?: number;
  expectedCash?: number;
  difference?: number;
  cashBreakdown?: Record<string, number>;
}

type Location = Awaited<ReturnType<typeof locationOf>>;
type TxnRow = typeof posTransactions.$inferSelect;
type RefundRow = typeof posRefunds.$inferSelect;

/** The drawer being closed (`''`: every drawer of the location) and the range, as UTC instants. */
interface DrawerRange {
  customerId: string;
  loc: Location;
  drawer: string;
  startIso: string;
  endIso: string;
}

/** The server's count of a drawer over a range: cash movements (cents), expected cash, and the report's totals. */
interface DrawerCount {
  openingFloat: number;
  paidIn: number;
  paidOut: number;
  cashSales: number;
  cashRefunds: number;
  expected: number;
  totals: ZReportTotals;
}

/**
 * PUT /pos/transaction/settle-range: closes a cash drawer (one till, or every drawer of the
 * location) for a range and writes a numbered Z report. Expected cash = opening float + cash sales +
 * paid in - cash refunds - paid out, computed by the server from the range's unsettled transactions
 * and refunds; the counted cash (or the sum of `cashBreakdown`) and the difference counted -
 * expected are stored, the client's `expectedCash` / `difference` kept beside the server's. The
 * report and the settled marks on its transactions are one batch, and the report is inserted only
 * when no report of the same drawer overlaps the range (checked inside the INSERT), so a range is
 * settled at most once and stays immutable. Amounts are integer cents inside.
 */
export async function settleRange(ctx: Ctx, input: SettleRangeInput) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const loc = await locationOf(ctx, input.locationId);
  const drawer = input.drawerId ?? '';
  const range = await settlementRange(ctx, { customerId, loc, drawer, input });
  const counted = countedCashOf(input);
  const { txns, refunds } = await unsettledInRange(ctx, range);
  const count = countDrawer(txns, refunds);
  const id = newId('pset');
  const stmts = settlementStmts(ctx, { id, range, count, counted, input, txns, refunds });
  await commitSettlement(ctx, { id, range, stmts, expected: count.expected, counted });
  const z = (await ctx.db.select().from(posSettlements).where(eq(posSettlements.id, id)).get())!;
  return zReportOut(z);
}

/** The range to settle: from `startDate` (else the end of the drawer's last report, else the beginning) to `endDate` (else now), never past now. */
async function settlementRange(
  ctx: Ctx,
  { customerId, loc, drawer, input }: { customerId: string; loc: Location; drawer: string; input: SettleRangeInput },
): Promise<DrawerRange> {
  const now = ctx.clock.now();
  const sameDrawer = drawer ? or(eq(posSettlements.drawerId, drawer), eq(posSettlements.drawerId, '')) : undefined;
  const last = await ctx.db
    .select({ rangeEnd: posSettlements.rangeEnd })
    .from(posSettlements)
    .where(and(eq(posSettlements.customerId, customerId), eq(posSettlements.locationId, loc.id), sameDrawer))
    .orderBy(desc(posSettlements.rangeEnd))
    .get();
  const start = input.startDate ? instantOf(input.startDate, loc.timezone, 'start', 'startDate') : last ? Date.parse(last.rangeEnd) : 0;
  const end = Math.min(input.endDate ? instantOf(input.endDate, loc.timezone, 'end', 'endDate') : now, now);
  if (end <= start) throw new ApiError('bad_request', 'The range is empty: endDate must be after startDate (and the range cannot be in the future)');
  return { customerId, loc, drawer, startIso: new Date(start).toISOString(), endIso: new Date(end).toISOString() };
}

/** The counted cash in cents: `countedCash`, or the sum of `cashBreakdown` (which must match it when both are given); null when neither is. */
function countedCashOf(input: SettleRangeInput): number | null {
  let counted = input.countedCash !== undefined ? toCents(input.countedCash) : null;
  if (input.cashBreakdown) {
    const fromBreakdown = Object.entries(input.cashBreakdown).reduce((s, [denom, n]) => s + toCents(Number(denom)) * n, 0);
    if (counted !== null && counted !== fromBreakdown)
      throw new ApiError('bad_request', `cashBreakdown adds up to ${(fromBreakdown / 100).toFixed(2)} but countedCash is ${(counted / 100).toFixed(2)}`, {
        details: [{ field: 'cashBreakdown', message: 'does not match countedCash' }],
      });
    counted = fromBreakdown;
  }
  return counted;
}

/** The drawer's unsettled transactions and refunds of the range (read together). */
async function unsettledInRange(ctx: Ctx, { customerId, loc, drawer, startIso, endIso }: DrawerRange): Promise<{ txns: TxnRow[]; refunds: RefundRow[] }> {
  const inRange = (col: typeof posTransactions.createdAt | typeof posRefunds.createdAt) => and(gte(col, startIso), lt(col, endIso));
  const [txns, refunds] = await Promise.all([
    ctx.db
      .select()
      .from(posTransactions)
      .where(
        and(
          eq(posTransactions.customerId, customerId),
          eq(posTransactions.locationId, loc.id),
          drawer ? eq(posTransactions.tillId, drawer) : undefined,
          isNull(posTransactions.settlementId),
          inRange(posTransactions.createdAt),
        ),
      )
      .all(),
    ctx.db
      .select()
      .from(posRefunds)
      .where(
        and(
          eq(posRefunds.customerId, customerId),
          eq(posRefunds.locationId, loc.id),
          drawer ? eq(posRefunds.tillId, drawer) : undefined,
          isNull(posRefunds.settlementId),
          inRange(posRefunds.createdAt),
        ),
      )
      .all(),
  ]);
  return { txns, refunds };
}

/** Expected cash = opening float + cash sales + paid in - cash refunds - paid out, and the report's sales and refund totals (dollars). */
function countDrawer(txns: TxnRow[], refunds: RefundRow[]): DrawerCount {
  const sumOf = (f: (t: TxnRow) => boolean) => txns.filter(f).reduce((s, t) => s + t.total, 0);
  const openingFloat = sumOf((t) => t.kind === 'opening_float');
  const paidIn = sumOf((t) => t.kind === 'paid_in');
  const paidOut = sumOf((t) => t.kind === 'paid_out');
  const cashSales = sumOf((t) => t.kind === 'sale' && t.paymentType === 'cash');
  const cashRefunds = refunds.filter((r) => r.method === 'cash').reduce((s, r) => s + r.amount, 0);
  const expected = openingFloat + cashSales + paidIn - cashRefunds - paidOut;
  const sales = txns.filter((t) => t.kind === 'sale');
  const byType: Record<string, number> = {};
  for (const t of sales) byType[t.paymentType] = (byType[t.paymentType] ?? 0) + t.total;
  const refundsByMethod: Record<string, number> = {};
  for (const r of refunds) refundsByMethod[r.method] = (refundsByMethod[r.method] ?? 0) + r.amount;
  const d = (c: number) => c / 100;
  const totals = {
    salesCount: sales.length,
    grossSales: d(sales.reduce((s, t) => s + t.total, 0)),
    taxCollected: d(sales.reduce((s, t) => s + t.taxTotal, 0)),
    discounts: d(sales.reduce((s, t) => s + t.discountTotal, 0)),
    salesByPaymentType: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, d(v)])),
    refundCount: refunds.length,
    refundsByMethod: Object.fromEntries(Object.entries(refundsByMethod).map(([k, v]) => [k, d(v)])),
  };
  return { openingFloat, paidIn, paidOut, cashSales, cashRefunds, expected, totals };
}

/**
 * The report's INSERT and the settled marks on its transactions and refunds. The report's number is
 * NULL (a NOT NULL failure that aborts the whole batch) when a report of the same drawer overlaps the
 * range: checked inside the INSERT, so two racing closes settle once.
 */
function settlementStmts(
  ctx: Ctx,
  p: { id: string; range: DrawerRange; count: DrawerCount; counted: number | null; input: SettleRangeInput; txns: TxnRow[]; refunds: RefundRow[] },
): Stmt[] {
  const { id, count, counted, input, txns, refunds } = p;
  const { customerId, loc, drawer, startIso, endIso } = p.range;
  const nowIso = new Date(ctx.clock.now()).toISOString();
  const overlapFree = sql`NOT EXISTS (SELECT 1 FROM pos_settlements o WHERE o.customer_id = ${customerId} AND o.location_id = ${loc.id}
      AND (${drawer} = '' OR o.drawer_id = '' OR o.drawer_id = ${drawer}) AND o.range_start < ${endIso} AND o.range_end > ${startIso})`;
  return [
    ctx.db.insert(posSettlements).values({
      id,
      customerId,
      locationId: loc.id,
      drawerId: drawer,
      number: sql`(CASE WHEN ${overlapFree} THEN (SELECT coalesce(max(number), 0) + 1 FROM pos_settlements WHERE customer_id = ${customerId} AND location_id = ${loc.id}) ELSE NULL END)`,
      rangeStart: startIso,
      rangeEnd: endIso,
      currency: loc.currency,
      openingFloat: count.openingFloat,
      cashSales: count.cashSales,
      paidIn: count.paidIn,
      paidOut: count.paidOut,
      cashRefunds: count.cashRefunds,
      expectedCash: count.expected,
      countedCash: counted,
      difference: counted === null ? null : counted - count.expected,
      clientExpectedCash: input.expectedCash !== undefined ? toCents(input.expectedCash) : null,
      clientDifference: input.difference !== undefined ? toCents(input.difference) : null,
      cashBreakdown: input.cashBreakdown ?? null,
      totals: count.totals,
      transactionCount: txns.length,
      userId: ctx.principal.userId,
      createdAt: nowIso,
    }),
    ...chunks(
      txns.map((t) => t.id),
      80,
    ).map((ids) =>
      ctx.db
        .update(posTransactions)
        .set({ settlementId: id, settled: true, settledAt: sql`coalesce(${posTransactions.settledAt}, ${nowIso})` })
        .where(and(inArray(posTransactions.id, ids), eq(posTransactions.customerId, customerId), isNull(posTransactions.settlementId))),
    ),
    ...chunks(
      refunds.map((r) => r.id),
      80,
    ).map((ids) =>
      ctx.db
        .update(posRefunds)
        .set({ settlementId: id })
        .where(and(inArray(posRefunds.id, ids), eq(posRefunds.customerId, customerId), isNull(posRefunds.settlementId))),
    ),
  ];
}

/** Commits the report in one batch; a range overlapping a settled report of the drawer answers 409 `already_settled`. */
async function commitSettlement(
  ctx: Ctx,
  { id, range, stmts, expected, counted }: { id: string; range: DrawerRange; stmts: Stmt[]; expected: number; counted: number | null },
): Promise<void> {
  const { loc, drawer, startIso, endIso } = range;
  try {
    await commit(ctx, stmts, {
      audit: {
        action: 'pos.settle_range',
        targetType: 'pos_settlement',
        targetId: id,
        details: { locationId: loc.id, drawerId: drawer || null, startIso, endIso, expected, counted },
      },
    });
  } catch (err) {
    if (/NOT NULL constraint failed: pos_settlements\.number|UNIQUE constraint failed: pos_settlements/i.test(String(err)))
      throw posFail('already_settled', `This range (${startIso} to ${endIso}) overlaps a settled Z report of this drawer; settled ranges are immutable`);
    throw err;
  }
}
