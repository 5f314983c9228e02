import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import { dayBounds, isoDate } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { posRefunds, posSettlements, posTransactions } from '../../db/schema/pos';
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
export async function settleRange(
  ctx: Ctx,
  input: {
    locationId: string;
    startDate?: string;
    endDate?: string;
    drawerId?: string;
    countedCash?: number;
    expectedCash?: number;
    difference?: number;
    cashBreakdown?: Record<string, number>;
  },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const loc = await locationOf(ctx, input.locationId);
  const drawer = input.drawerId ?? '';
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
  const startIso = new Date(start).toISOString();
  const endIso = new Date(end).toISOString();

  let counted = input.countedCash !== undefined ? toCents(input.countedCash) : null;
  if (input.cashBreakdown) {
    const fromBreakdown = Object.entries(input.cashBreakdown).reduce((s, [denom, n]) => s + toCents(Number(denom)) * n, 0);
    if (counted !== null && counted !== fromBreakdown)
      throw new ApiError('bad_request', `cashBreakdown adds up to ${(fromBreakdown / 100).toFixed(2)} but countedCash is ${(counted / 100).toFixed(2)}`, {
        details: [{ field: 'cashBreakdown', message: 'does not match countedCash' }],
      });
    counted = fromBreakdown;
  }

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
  const sumOf = (f: (t: (typeof txns)[number]) => boolean) => txns.filter(f).reduce((s, t) => s + t.total, 0);
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

  const id = newId('pset');
  const nowIso = new Date(ctx.clock.now()).toISOString();
  const overlapFree = sql`NOT EXISTS (SELECT 1 FROM pos_settlements o WHERE o.customer_id = ${customerId} AND o.location_id = ${loc.id}
      AND (${drawer} = '' OR o.drawer_id = '' OR o.drawer_id = ${drawer}) AND o.range_start < ${endIso} AND o.range_end > ${startIso})`;
  // The report's number is NULL (a NOT NULL failure that aborts the whole batch) when a report of the
  // same drawer overlaps the range: checked inside the INSERT, so two racing closes settle once.
  const stmts: Stmt[] = [
    ctx.db.insert(posSettlements).values({
      id,
      customerId,
      locationId: loc.id,
      drawerId: drawer,
      number: sql`(CASE WHEN ${overlapFree} THEN (SELECT coalesce(max(number), 0) + 1 FROM pos_settlements WHERE customer_id = ${customerId} AND location_id = ${loc.id}) ELSE NULL END)`,
      rangeStart: startIso,
      rangeEnd: endIso,
      currency: loc.currency,
      openingFloat,
      cashSales,
      paidIn,
      paidOut,
      cashRefunds,
      expectedCash: expected,
      countedCash: counted,
      difference: counted === null ? null : counted - expected,
      clientExpectedCash: input.expectedCash !== undefined ? toCents(input.expectedCash) : null,
      clientDifference: input.difference !== undefined ? toCents(input.difference) : null,
      cashBreakdown: input.cashBreakdown ?? null,
      totals,
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
  const z = (await ctx.db.select().from(posSettlements).where(eq(posSettlements.id, id)).get())!;
  return zReportOut(z);
}
