import { and, asc, count, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { dayBounds } from '../../lib/time';
import { bookings, renters } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { SORT_FIELDS } from './schemas';
import { entryOut, lightOut, type ScheduleEntryOut } from './views';

const lightCols = { id: bookings.id, status: bookings.status, start: bookings.start, end: bookings.end, itemId: bookings.itemId, assetIds: bookings.assetIds };
const renterJoin = and(eq(renters.id, bookings.renterId), eq(renters.customerId, bookings.customerId));
const itemJoin = and(eq(inventoryItems.id, bookings.itemId), eq(inventoryItems.customerId, bookings.customerId));

/** Full entries for a WHERE clause (always including the tenant filter), ordered and paged. */
export async function selectEntries(ctx: Ctx, where: SQL | undefined, orderBy: SQL[], limit: number, offset = 0): Promise<ScheduleEntryOut[]> {
  const rows = await ctx.db
    .select({ b: bookings, itemName: inventoryItems.name, rFirst: renters.firstName, rLast: renters.lastName, rEmail: renters.email, rPhone: renters.phone })
    .from(bookings)
    .leftJoin(inventoryItems, itemJoin)
    .leftJoin(renters, renterJoin)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)
    .all();
  return rows.map((r) =>
    entryOut(r.b, r.itemName, r.rFirst == null && r.rEmail == null ? null : { firstName: r.rFirst, lastName: r.rLast, email: r.rEmail, phone: r.rPhone }),
  );
}

export async function selectLight(ctx: Ctx, where: SQL | undefined, orderBy: SQL[], limit: number, offset = 0) {
  const rows = await ctx.db
    .select(lightCols)
    .from(bookings)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)
    .all();
  return rows.map(lightOut);
}

export async function countWhere(ctx: Ctx, where: SQL | undefined, withRenterJoin = false): Promise<number> {
  const q = ctx.db.select({ n: count() }).from(bookings);
  const row = await (withRenterJoin ? q.leftJoin(renters, renterJoin).where(where) : q.where(where)).get();
  return row?.n ?? 0;
}

export async function statusCounts(ctx: Ctx, where: SQL | undefined, withRenterJoin = false): Promise<Record<string, number>> {
  const q = ctx.db.select({ status: bookings.status, n: count() }).from(bookings);
  const rows = await (withRenterJoin ? q.leftJoin(renters, renterJoin).where(where) : q.where(where)).groupBy(bookings.status).all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export const pageOf = (page: number, limit: number, total: number) => ({
  page,
  limit,
  total,
  totalPages: Math.max(1, Math.ceil(total / limit)),
  hasMore: page * limit < total,
});

/** `%term%` for LIKE with `\` as the escape character. */
const likeTerm = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const like = (expr: SQL, term: string) => sql`${expr} LIKE ${likeTerm(term)} ESCAPE '\\'`;

const ci = (key: string) => sql`coalesce(json_extract(${bookings.customerInfo}, ${`$.${key}`}), '')`;
/** Lower-cased name haystack: the booking's customer_info names and the renter's (needs the renters join). */
export const nameExpr = sql`lower(${ci('firstName')} || ' ' || ${ci('lastName')} || ' ' || ${ci('name')} || ' ' || ${ci('fullName')} || ' ' || coalesce(${renters.firstName}, '') || ' ' || coalesce(${renters.lastName}, ''))`;
export const emailExpr = sql`lower(${ci('email')} || ' ' || coalesce(${renters.email}, ''))`;
export const rentalIdExpr = sql`lower(${bookings.id})`;

/** Start bound of a window: a local day starts at its midnight in `tz`; an instant is itself. */
export function startInstant(v: string, tz: string): number {
  return v.length === 10 ? dayBounds(v, tz).start : Date.parse(v);
}
/** End bound (exclusive): a local day ends at the next midnight in `tz`; an instant is itself. */
export function endInstant(v: string, tz: string): number {
  return v.length === 10 ? dayBounds(v, tz).end : Date.parse(v);
}

/** Conditions for bookings across locations: local days compare with `local_date`, instants with the start. */
export function multiZoneDateConds(start?: string, end?: string): SQL[] {
  const out: SQL[] = [];
  if (start) out.push(start.length === 10 ? gte(bookings.localDate, start) : gte(bookings.start, Date.parse(start)));
  if (end) out.push(end.length === 10 ? lte(bookings.localDate, end) : lt(bookings.start, Date.parse(end)));
  return out;
}

export function checkRange(start?: string, end?: string) {
  if (start && end) {
    const a = Date.parse(start.length === 10 ? `${start}T00:00:00Z` : start);
    const b = Date.parse(end.length === 10 ? `${end}T23:59:59Z` : end);
    if (b < a)
      throw new ApiError('bad_request', 'end_date is before start_date', { details: [{ field: 'end_date', message: 'must not be before start_date' }] });
  }
}

export async function itemInTenant(ctx: Ctx, inventoryId: string) {
  const row = await ctx.db
    .select({ id: inventoryItems.id, name: inventoryItems.name, locationId: inventoryItems.locationId, timezone: locations.timezone })
    .from(inventoryItems)
    .leftJoin(locations, eq(locations.id, inventoryItems.locationId))
    .where(and(eq(inventoryItems.id, inventoryId), eq(inventoryItems.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Inventory item');
  return { ...row, timezone: row.timezone ?? 'UTC' };
}

const SORT_COLUMNS = {
  start: bookings.start,
  end: bookings.end,
  createdAt: bookings.createdAt,
  updatedAt: bookings.updatedAt,
  status: bookings.status,
  total: bookings.total,
  rentalId: bookings.id,
} satisfies Record<(typeof SORT_FIELDS)[number], unknown>;

export function orderOf(sortBy: keyof typeof SORT_COLUMNS, order: 'asc' | 'desc'): SQL[] {
  const dir = order === 'desc' ? desc : asc;
  return sortBy === 'rentalId' ? [dir(bookings.id)] : [dir(SORT_COLUMNS[sortBy]), dir(bookings.id)];
}
