import { and, eq, inArray, like, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { bookings } from '../../db/schema/bookings';
import { customers } from '../../db/schema/accounts';
import { toDollars } from '../../lib/money';

/** Which bookings a settlement counts: live sales, or a sandbox's test sales (a test key's own). */
export type SettlementMode = 'live' | 'test';

interface Row {
  customerId: string;
  connectionId: string | null;
  total: number;
  taxTotal: number;
  commissionRate: number | null;
  currency: string;
}

interface Agg {
  merchantId: string;
  merchantName: string;
  connectionId: string;
  currency: string;
  bookings: number;
  gross: number;
  commission: number;
}

const ZERO = { bookings: 0, grossSales: 0, commission: 0, amountOwed: 0 };

/**
 * What a reseller owes each operator for a month, by rental date (the booking's local date):
 * gross = tax-inclusive totals of non-cancelled bookings; commission = the stamped
 * commissionRate x the pre-tax amount (the operator remits the tax); owed = gross - commission.
 * Operators and resellers read exactly this function, so both sides see the same figures.
 *
 * `live` (the default) counts live bookings only, as every settlement always has. `test` counts the
 * test bookings of a sandbox connection instead, so a sandbox reseller can check its sums: each line
 * is marked `test: true`, and its sums are `testTotals`, apart from `totals` (live money: zero).
 */
export async function settlement(ctx: Ctx, connectionIds: string[], month: string, mode: SettlementMode = 'live') {
  const rows = connectionIds.length ? await settledRows(ctx, connectionIds, month, mode) : [];
  const test = mode === 'test';
  const operators = (await aggregate(ctx, rows)).map((a) => ({
    merchantId: a.merchantId,
    merchantName: a.merchantName,
    connectionId: a.connectionId,
    currency: a.currency,
    test,
    bookings: a.bookings,
    grossSales: toDollars(a.gross),
    commission: toDollars(a.commission),
    amountOwed: toDollars(a.gross - a.commission),
  }));
  const sum = (f: (o: (typeof operators)[number]) => number) => Math.round(operators.reduce((s, o) => s + f(o) * 100, 0)) / 100;
  const sums = {
    bookings: operators.reduce((s, o) => s + o.bookings, 0),
    grossSales: sum((o) => o.grossSales),
    commission: sum((o) => o.commission),
    amountOwed: sum((o) => o.amountOwed),
  };
  return {
    month,
    currency: operators[0]?.currency ?? 'usd',
    operators,
    totals: test ? ZERO : sums,
    ...(test ? { testTotals: sums } : {}),
  };
}

function settledRows(ctx: Ctx, connectionIds: string[], month: string, mode: SettlementMode): Promise<Row[]> {
  return ctx.db
    .select({
      customerId: bookings.customerId,
      connectionId: bookings.channelConnectionId,
      total: bookings.total,
      taxTotal: bookings.taxTotal,
      commissionRate: bookings.commissionRate,
      currency: bookings.currency,
    })
    .from(bookings)
    .where(
      and(
        inArray(bookings.channelConnectionId, connectionIds),
        like(bookings.localDate, `${month}-%`),
        ne(bookings.status, 'cancelled'),
        eq(bookings.testMode, mode === 'test'),
      ),
    )
    .all();
}

/** The rows by operator and connection, in cents, with the operators' names. */
async function aggregate(ctx: Ctx, rows: Row[]): Promise<Agg[]> {
  const names = rows.length
    ? await ctx.db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(inArray(customers.id, [...new Set(rows.map((r) => r.customerId))]))
        .all()
    : [];
  const byOp = new Map<string, Agg>();
  for (const r of rows) {
    const key = `${r.customerId}:${r.connectionId}`;
    const agg = byOp.get(key) ?? {
      merchantId: r.customerId,
      merchantName: names.find((n) => n.id === r.customerId)?.name ?? r.customerId,
      connectionId: r.connectionId!,
      currency: r.currency,
      bookings: 0,
      gross: 0,
      commission: 0,
    };
    agg.bookings++;
    agg.gross += r.total;
    agg.commission += Math.round(((r.total - r.taxTotal) * (r.commissionRate ?? 0)) / 100);
    byOp.set(key, agg);
  }
  return [...byOp.values()];
}
