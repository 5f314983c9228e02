import { and, asc, desc, eq, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { toDollars } from '../../lib/money';
import { addDays, isoDate } from '../../lib/time';
import { ledgerEntries, renters } from '../../db/schema/bookings';
import { getRenterInTenant, renterBalanceCents } from './queries';
import { journalEntryOut } from './views';
import { nowIso } from '../../lib/clock';

export const OWING_THRESHOLD_CENTS = 100;

/**
 * Renters whose balance (non-deleted ledger entries that affect the balance) is at least one
 * dollar, counting the entries that occurred up to the end of `asOfDate` (UTC) or up to the given
 * instant; the largest balances first.
 */
export async function owingRenters(ctx: Ctx, q: { asOfDate?: string; customerId?: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  let bound: SQL;
  let asOf: string;
  if (!q.asOfDate) {
    asOf = nowIso(ctx);
    bound = lte(ledgerEntries.occurredAt, asOf);
  } else if (isoDate.test(q.asOfDate)) {
    asOf = q.asOfDate;
    bound = lt(ledgerEntries.occurredAt, `${addDays(q.asOfDate, 1)}T00:00:00.000Z`);
  } else {
    asOf = new Date(q.asOfDate).toISOString();
    bound = lte(ledgerEntries.occurredAt, asOf);
  }
  const owed = ctx.db
    .select({ renterId: ledgerEntries.renterId, balance: sql<number>`sum(${ledgerEntries.amount})`.as('balance') })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, customerId),
        eq(ledgerEntries.affectsBalance, true),
        isNull(ledgerEntries.deletedAt),
        sql`${ledgerEntries.renterId} IS NOT NULL`,
        bound,
      ),
    )
    .groupBy(ledgerEntries.renterId)
    .having(sql`sum(${ledgerEntries.amount}) >= ${OWING_THRESHOLD_CENTS}`)
    .as('owed');
  const rows = await ctx.db
    .select({ r: renters, balance: owed.balance })
    .from(renters)
    .innerJoin(owed, eq(owed.renterId, renters.id))
    .where(eq(renters.customerId, customerId))
    .orderBy(desc(owed.balance), asc(renters.id))
    .all();
  const data = rows.map((x) => ({
    renterId: x.r.id,
    firstName: x.r.firstName,
    lastName: x.r.lastName,
    email: x.r.email,
    phone: x.r.phone,
    status: x.r.status,
    deleted: x.r.deletedAt != null,
    balanceCents: Number(x.balance),
    balance: toDollars(Number(x.balance)),
  }));
  const totalCents = data.reduce((s, d) => s + d.balanceCents, 0);
  return { asOfDate: asOf, thresholdCents: OWING_THRESHOLD_CENTS, total: data.length, totalOwedCents: totalCents, totalOwed: toDollars(totalCents), data };
}

export async function journalEntries(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id, { includeDeleted: true });
  const rows = await ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, r.customerId), eq(ledgerEntries.renterId, r.id), isNull(ledgerEntries.deletedAt)))
    .orderBy(asc(ledgerEntries.occurredAt), asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
    .limit(10_000)
    .all();
  const balanceCents = await renterBalanceCents(ctx, r.id);
  return {
    renterId: r.id,
    balanceCents,
    balance: toDollars(balanceCents),
    data: rows.map(journalEntryOut),
  };
}
