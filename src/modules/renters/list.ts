import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { toDollars } from '../../lib/money';
import { renters } from '../../db/schema/bookings';
import type { RenterRow } from './upsert';

export type Status = 'active' | 'inactive' | 'blocked';
type SortField = 'firstName' | 'lastName' | 'email' | 'createdAt' | 'updatedAt' | 'riskScore' | 'balance';

export interface Accounting {
  balanceCents: number;
  balance: number;
  chargesCents: number;
  creditsCents: number;
  entryCount: number;
  lastEntryAt: string | null;
}

export function renterOut(r: RenterRow, accounting?: Accounting) {
  return {
    id: r.id,
    customerId: r.customerId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    address: r.address ?? null,
    dob: r.dob,
    licenseNumber: r.licenseNumber,
    waivers_signed_urls: r.waiversSignedUrls ?? [],
    id_verifications: r.idVerifications ?? {},
    transactions: r.transactions ?? [],
    additional_info: r.additionalInfo ?? {},
    payment_customer_id: r.paymentCustomerId,
    status: r.status,
    riskScore: r.riskScore,
    notes: r.notes ?? [],
    loyaltyPoints: r.loyaltyPoints,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(accounting ? { accounting } : {}),
  };
}

/**
 * One correlated subquery per renter row: the ledger totals as a JSON object. (A list of ids in
 * `IN (...)` would hit D1's limit of 100 bound parameters on a page of 100 renters.)
 */
export const accountingSql = sql<string>`(SELECT json_object(
    'b', coalesce(sum(CASE WHEN l.affects_balance = 1 THEN l.amount END), 0),
    'c', coalesce(sum(CASE WHEN l.affects_balance = 1 AND l.amount > 0 THEN l.amount END), 0),
    'k', coalesce(-sum(CASE WHEN l.affects_balance = 1 AND l.amount < 0 THEN l.amount END), 0),
    'n', count(*),
    'l', max(l.occurred_at))
  FROM ledger_entries l WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL)`;

const balanceSql = sql<number>`(SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
  WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL AND l.affects_balance = 1)`;

export function parseAccounting(json: string | null | undefined): Accounting {
  const o = json ? (JSON.parse(json) as { b: number; c: number; k: number; n: number; l: string | null }) : { b: 0, c: 0, k: 0, n: 0, l: null };
  return { balanceCents: o.b, balance: toDollars(o.b), chargesCents: o.c, creditsCents: o.k, entryCount: o.n, lastEntryAt: o.l };
}

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
    data: rows.map((r) => ({
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      phone: r.phone,
      label: `${r.firstName} ${r.lastName} <${r.email}>`,
    })),
  };
}
