import { and, asc, desc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { reusable, type DB } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { accountCreditEntrySql } from '../../lib/money-view';
import { ledgerEntries, renters } from '../../db/schema/bookings';
import { parseAccounting, renterOut, suggestionOut, type Accounting, type RenterRow, type Status } from './views';

type SortField = 'firstName' | 'lastName' | 'email' | 'createdAt' | 'updatedAt' | 'riskScore' | 'balance';

/**
 * One correlated subquery per renter row: the ledger totals as a JSON object. (A list of ids in
 * `IN (...)` would hit D1's limit of 100 bound parameters on a page of 100 renters.)
 */
export const accountingSql = sql<string>`(SELECT json_object(
    'b', coalesce(sum(CASE WHEN l.affects_balance = 1 THEN l.amount END), 0),
    'c', coalesce(sum(CASE WHEN l.affects_balance = 1 AND l.amount > 0 THEN l.amount END), 0),
    'k', coalesce(-sum(CASE WHEN l.affects_balance = 1 AND l.amount < 0 THEN l.amount END), 0),
    'n', count(*),
    'l', max(l.occurred_at),
    'a', coalesce(sum(CASE WHEN l.affects_balance = 1 AND ${accountCreditEntrySql('l')} THEN l.amount END), 0))
  FROM ledger_entries l WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL)`;

const balanceSql = sql<number>`(SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
  WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL AND l.affects_balance = 1)`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function searchCondition(search: string): SQL {
  const like = `%${escapeLike(search.toLowerCase())}%`;
  const parts: SQL[] = [
    sql`lower(${renters.firstName}) LIKE ${like} ESCAPE '\\'`,
    sql`lower(${renters.lastName}) LIKE ${like} ESCAPE '\\'`,
    sql`lower(${renters.firstName} || ' ' || ${renters.lastName}) LIKE ${like} ESCAPE '\\'`,
    sql`${renters.email} LIKE ${like} ESCAPE '\\'`,
    sql`lower(coalesce(${renters.licenseNumber}, '')) LIKE ${like} ESCAPE '\\'`,
    sql`coalesce(${renters.phone}, '') LIKE ${like} ESCAPE '\\'`,
  ];
  const digits = search.replace(/\D/g, '');
  if (digits.length >= 3) {
    parts.push(
      sql`replace(replace(replace(replace(replace(replace(coalesce(${renters.phone}, ''), ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', '') LIKE ${`%${digits}%`}`,
    );
  }
  return sql`(${sql.join(parts, sql` OR `)})`;
}

export interface ListFilters {
  customerId: string;
  includeAccounting?: boolean;
  search?: string;
  status?: Status;
  sortField: SortField;
  sortDirection: 'asc' | 'desc';
}

export function listWhere(ctx: Ctx, f: ListFilters): SQL {
  const customerId = ownCustomer(ctx, f.customerId);
  const conds: SQL[] = [eq(renters.customerId, customerId), isNull(renters.deletedAt)];
  if (f.status) conds.push(eq(renters.status, f.status));
  if (f.search) conds.push(searchCondition(f.search));
  return and(...conds)!;
}

function listOrder(f: ListFilters): SQL[] {
  const dir = f.sortDirection === 'asc' ? asc : desc;
  const col =
    f.sortField === 'balance'
      ? balanceSql
      : f.sortField === 'email'
        ? renters.email
        : f.sortField === 'firstName'
          ? sql`lower(${renters.firstName})`
          : f.sortField === 'lastName'
            ? sql`lower(${renters.lastName})`
            : f.sortField === 'riskScore'
              ? renters.riskScore
              : f.sortField === 'updatedAt'
                ? renters.updatedAt
                : renters.createdAt;
  return [dir(col), dir(renters.id)];
}

export async function selectPage(ctx: Ctx, f: ListFilters, limit: number, offset: number) {
  const rows = await ctx.db
    .select({ r: renters, acct: f.includeAccounting ? accountingSql : sql<null>`NULL` })
    .from(renters)
    .where(listWhere(ctx, f))
    .orderBy(...listOrder(f))
    .limit(limit)
    .offset(offset)
    .all();
  return rows.map((x) => renterOut(x.r, f.includeAccounting ? parseAccounting(x.acct) : undefined));
}

export async function listRenters(ctx: Ctx, q: ListFilters & { page: number; limit: number }) {
  const where = listWhere(ctx, q);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(renters)
    .where(where)
    .all();
  const data = await selectPage(ctx, q, q.limit, (q.page - 1) * q.limit);
  return { data, pagination: { page: q.page, limit: q.limit, total: Number(n), totalPages: Math.ceil(Number(n) / q.limit) } };
}

export async function searchSuggestions(ctx: Ctx, q: { customerId: string; query: string; limit: number }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const rows = await ctx.db
    .select()
    .from(renters)
    .where(and(eq(renters.customerId, customerId), isNull(renters.deletedAt), searchCondition(q.query)))
    .orderBy(asc(sql`lower(${renters.lastName})`), asc(sql`lower(${renters.firstName})`), asc(renters.id))
    .limit(q.limit)
    .all();
  return {
    query: q.query,
    data: rows.map(suggestionOut),
  };
}

/** Tenant-scoped read of a renter; deleted renters and other operators' renters answer 404. */
export async function getRenterInTenant(ctx: Ctx, id: string, opts: { includeDeleted?: boolean } = {}): Promise<RenterRow> {
  const conds = [eq(renters.id, id), eq(renters.customerId, tenantOf(ctx))];
  if (!opts.includeDeleted) conds.push(isNull(renters.deletedAt));
  const row = await ctx.db
    .select()
    .from(renters)
    .where(and(...conds))
    .get();
  if (!row) throw notFound('Renter');
  return row;
}

/** The renter's ledger totals. */
export async function accountingOf(ctx: Ctx, r: RenterRow): Promise<Accounting> {
  const row = await ctx.db
    .select({ acct: accountingSql })
    .from(renters)
    .where(and(eq(renters.id, r.id), eq(renters.customerId, r.customerId)))
    .get();
  return parseAccounting(row?.acct);
}

export async function getRenter(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id);
  return renterOut(r, await accountingOf(ctx, r));
}

/** Renters are unique per operator by lowercased, trimmed e-mail. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The renter of an operator with this e-mail (lowercased), deleted or not. */
export async function findRenterByEmail(ctx: Ctx, customerId: string, email: string): Promise<RenterRow | undefined> {
  return renterByEmailStatement(ctx.db, customerId, email).get();
}

/**
 * The statement of `findRenterByEmail`, for a caller's batch (rows: zero or one renter). Built once
 * per isolate (`reusable`): every sale looks its renter up.
 */
export function renterByEmailStatement(db: DB, customerId: string, email: string) {
  return reusable(
    db,
    'renters|byEmail',
    () =>
      db
        .select()
        .from(renters)
        .where(and(eq(renters.customerId, sql.placeholder('customerId')), eq(renters.email, sql.placeholder('email')))),
    { customerId, email: normalizeEmail(email) },
  );
}

/**
 * Balance of a renter in cents: the sum of the non-deleted ledger entries that affect the
 * balance (positive: the renter owes). With `asOf` (ISO instant) only entries that occurred up to
 * then count. Scoped to the caller's operator.
 */
export async function renterBalanceCents(ctx: Ctx, renterId: string, opts: { asOf?: string } = {}): Promise<number> {
  const customerId = tenantOf(ctx);
  const conds = [
    eq(ledgerEntries.customerId, customerId),
    eq(ledgerEntries.renterId, renterId),
    eq(ledgerEntries.affectsBalance, true),
    isNull(ledgerEntries.deletedAt),
  ];
  if (opts.asOf) conds.push(lte(ledgerEntries.occurredAt, opts.asOf));
  const row = await ctx.db
    .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(and(...conds))
    .get();
  return Number(row?.total ?? 0);
}

/**
 * The renter's credits (a negative balance: money the operator owes the renter, such as a refund to
 * the account), one per currency. A credit pays only in its own currency (see POS account sales).
 */
export async function renterCreditsByCurrency(ctx: Ctx, renterId: string): Promise<{ currency: string; balanceCents: number }[]> {
  const customerId = tenantOf(ctx);
  const rows = await ctx.db
    .select({ currency: sql<string>`lower(${ledgerEntries.currency})`, total: sql<number>`sum(${ledgerEntries.amount})` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, customerId),
        eq(ledgerEntries.renterId, renterId),
        eq(ledgerEntries.affectsBalance, true),
        isNull(ledgerEntries.deletedAt),
      ),
    )
    .groupBy(sql`lower(${ledgerEntries.currency})`)
    .all();
  return rows.map((r) => ({ currency: r.currency, balanceCents: Number(r.total) })).filter((r) => r.balanceCents < 0);
}
