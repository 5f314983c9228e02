import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { base64Decode, base64Encode } from '../../lib/crypto';
import { toDollars } from '../../lib/money';
import { dayBounds } from '../../lib/time';
import { bookings, drydocks, renters } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import type { BookingStatus } from '../bookings/status';
import { Filters, type FiltersT, SORT_FIELDS } from './schemas';

export type BookingRow = typeof bookings.$inferSelect;
type RenterBits = { firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const iso = (ms: number) => new Date(ms).toISOString();

/** Renter name and contact: the booking's own `customer_info` first, then the renters record. */
export function renterOf(b: Pick<BookingRow, 'renterId' | 'customerInfo'>, r: RenterBits) {
  const ci = (b.customerInfo ?? {}) as Record<string, unknown>;
  const firstName = str(ci.firstName) ?? str(ci.first_name) ?? r?.firstName ?? null;
  const lastName = str(ci.lastName) ?? str(ci.last_name) ?? r?.lastName ?? null;
  const name = str(ci.name) ?? str(ci.fullName) ?? ([firstName, lastName].filter(Boolean).join(' ') || null);
  return {
    renterId: b.renterId ?? null,
    firstName,
    lastName,
    name,
    email: str(ci.email) ?? r?.email ?? null,
    phone: str(ci.phone) ?? str(ci.phoneNumber) ?? r?.phone ?? null,
  };
}

export function entryOut(b: BookingRow, itemName: string | null, r: RenterBits) {
  return {
    rentalId: b.id,
    transactionId: b.transactionId,
    bundleGroupId: b.bundleGroupId ?? null,
    status: b.status,
    source: b.source,
    inventoryId: b.itemId,
    inventoryName: itemName,
    locationId: b.locationId,
    assetIds: b.assetIds ?? [],
    startTime: iso(b.start),
    endTime: iso(b.end),
    localDate: b.localDate,
    quantity: b.quantity,
    participants: b.participants ?? null,
    renter: renterOf(b, r),
    currency: b.currency,
    total: toDollars(b.total),
    amountPaid: toDollars(b.amountPaid),
    balanceDue: toDollars(Math.max(0, b.total - b.amountPaid)),
    depositInformation: b.depositInformation ?? null,
    testMode: b.testMode,
    checkedInAt: b.checkedInAt ?? null,
    checkedOutAt: b.checkedOutAt ?? null,
    cancelledAt: b.cancelledAt ?? null,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}
export type ScheduleEntryOut = ReturnType<typeof entryOut>;

const lightCols = { id: bookings.id, status: bookings.status, start: bookings.start, end: bookings.end, itemId: bookings.itemId, assetIds: bookings.assetIds };
type LightRow = { id: string; status: string; start: number; end: number; itemId: string; assetIds: string[] | null };
const lightOut = (b: LightRow) => ({ rentalId: b.id, status: b.status, startTime: iso(b.start), endTime: iso(b.end), inventoryId: b.itemId, assetIds: b.assetIds ?? [] });

const renterJoin = and(eq(renters.id, bookings.renterId), eq(renters.customerId, bookings.customerId));
const itemJoin = and(eq(inventoryItems.id, bookings.itemId), eq(inventoryItems.customerId, bookings.customerId));

/** Full entries for a WHERE clause (always including the tenant filter), ordered and paged. */
async function selectEntries(ctx: Ctx, where: SQL | undefined, orderBy: SQL[], limit: number, offset = 0): Promise<ScheduleEntryOut[]> {
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
  return rows.map((r) => entryOut(r.b, r.itemName, r.rFirst == null && r.rEmail == null ? null : { firstName: r.rFirst, lastName: r.rLast, email: r.rEmail, phone: r.rPhone }));
}

async function selectLight(ctx: Ctx, where: SQL | undefined, orderBy: SQL[], limit: number, offset = 0) {
  const rows = await ctx.db.select(lightCols).from(bookings).where(where).orderBy(...orderBy).limit(limit).offset(offset).all();
  return rows.map(lightOut);
}

async function countWhere(ctx: Ctx, where: SQL | undefined, withRenterJoin = false): Promise<number> {
  const q = ctx.db.select({ n: count() }).from(bookings);
  const row = await (withRenterJoin ? q.leftJoin(renters, renterJoin).where(where) : q.where(where)).get();
  return row?.n ?? 0;
}

async function statusCounts(ctx: Ctx, where: SQL | undefined, withRenterJoin = false): Promise<Record<string, number>> {
  const q = ctx.db.select({ status: bookings.status, n: count() }).from(bookings);
  const rows = await (withRenterJoin ? q.leftJoin(renters, renterJoin).where(where) : q.where(where)).groupBy(bookings.status).all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

const pageOf = (page: number, limit: number, total: number) => ({ page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)), hasMore: page * limit < total });

/** `%term%` for LIKE with `\` as the escape character. */
const likeTerm = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const like = (expr: SQL, term: string) => sql`${expr} LIKE ${likeTerm(term)} ESCAPE '\\'`;

const ci = (key: string) => sql`coalesce(json_extract(${bookings.customerInfo}, ${`$.${key}`}), '')`;
/** Lower-cased name haystack: the booking's customer_info names and the renter's (needs the renters join). */
const nameExpr = sql`lower(${ci('firstName')} || ' ' || ${ci('lastName')} || ' ' || ${ci('name')} || ' ' || ${ci('fullName')} || ' ' || coalesce(${renters.firstName}, '') || ' ' || coalesce(${renters.lastName}, ''))`;
const emailExpr = sql`lower(${ci('email')} || ' ' || coalesce(${renters.email}, ''))`;
const rentalIdExpr = sql`lower(${bookings.id})`;

/** Start bound of a window: a local day starts at its midnight in `tz`; an instant is itself. */
function startInstant(v: string, tz: string): number {
  return v.length === 10 ? dayBounds(v, tz).start : Date.parse(v);
}
/** End bound (exclusive): a local day ends at the next midnight in `tz`; an instant is itself. */
function endInstant(v: string, tz: string): number {
  return v.length === 10 ? dayBounds(v, tz).end : Date.parse(v);
}

/** Conditions for bookings across locations: local days compare with `local_date`, instants with the start. */
function multiZoneDateConds(start?: string, end?: string): SQL[] {
  const out: SQL[] = [];
  if (start) out.push(start.length === 10 ? gte(bookings.localDate, start) : gte(bookings.start, Date.parse(start)));
  if (end) out.push(end.length === 10 ? lte(bookings.localDate, end) : lt(bookings.start, Date.parse(end)));
  return out;
}

function checkRange(start?: string, end?: string) {
  if (start && end) {
    const a = Date.parse(start.length === 10 ? `${start}T00:00:00Z` : start);
    const b = Date.parse(end.length === 10 ? `${end}T23:59:59Z` : end);
    if (b < a) throw new ApiError('bad_request', 'end_date is before start_date', { details: [{ field: 'end_date', message: 'must not be before start_date' }] });
  }
}

async function itemInTenant(ctx: Ctx, inventoryId: string) {
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

function orderOf(sortBy: keyof typeof SORT_COLUMNS, order: 'asc' | 'desc'): SQL[] {
  const dir = order === 'desc' ? desc : asc;
  return sortBy === 'rentalId' ? [dir(bookings.id)] : [dir(SORT_COLUMNS[sortBy]), dir(bookings.id)];
}

export interface ScheduleInput {
  inventory_id: string;
  start_date?: string;
  end_date?: string;
  extend?: boolean;
  dates_only?: boolean;
  page: number;
  limit: number;
  include_drydock?: boolean;
  use_parallel?: boolean;
  use_scan?: boolean;
  search_rental_id?: string;
  sort_by: (typeof SORT_FIELDS)[number];
  sort_order: 'asc' | 'desc';
  status_filter?: BookingStatus[];
}

/** GET /schedule/schedule: the bookings of one item, filtered, sorted and paged. */
export async function getSchedule(ctx: Ctx, q: ScheduleInput) {
  const customerId = tenantOf(ctx);
  checkRange(q.start_date, q.end_date);
  const item = await itemInTenant(ctx, q.inventory_id);
  const from = q.start_date ? startInstant(q.start_date, item.timezone) : undefined;
  const to = q.end_date ? endInstant(q.end_date, item.timezone) : undefined;
  const base: SQL[] = [eq(bookings.customerId, customerId), eq(bookings.itemId, item.id)];
  if (from !== undefined) base.push(q.extend ? gt(bookings.end, from) : gte(bookings.start, from));
  if (to !== undefined) base.push(lt(bookings.start, to));
  if (q.search_rental_id) base.push(like(rentalIdExpr, q.search_rental_id));
  const baseWhere = and(...base);
  const where = q.status_filter?.length ? and(baseWhere, inArray(bookings.status, q.status_filter)) : baseWhere;

  const drydock = q.include_drydock ? await drydockOf(ctx, item.id, from, to) : undefined;
  const counts = await statusCounts(ctx, baseWhere);
  if (q.dates_only) {
    const rows = await ctx.db
      .select({ date: bookings.localDate, n: count() })
      .from(bookings)
      .where(where)
      .groupBy(bookings.localDate)
      .orderBy(q.sort_order === 'desc' ? desc(bookings.localDate) : asc(bookings.localDate))
      .all();
    return {
      inventoryId: item.id,
      timezone: item.timezone,
      dates: rows.map((r) => ({ date: r.date, count: r.n })),
      total: rows.reduce((s, r) => s + r.n, 0),
      statusCounts: counts,
      ...(drydock ? { drydock } : {}),
    };
  }
  const [total, data] = await Promise.all([countWhere(ctx, where), selectEntries(ctx, where, orderOf(q.sort_by, q.sort_order), q.limit, (q.page - 1) * q.limit)]);
  return { inventoryId: item.id, timezone: item.timezone, data, statusCounts: counts, ...(drydock ? { drydock } : {}), ...pageOf(q.page, q.limit, total) };
}

async function drydockOf(ctx: Ctx, itemId: string, from?: number, to?: number) {
  const conds: SQL[] = [eq(drydocks.customerId, tenantOf(ctx)), eq(drydocks.itemId, itemId)];
  if (from !== undefined) conds.push(gt(drydocks.end, from));
  if (to !== undefined) conds.push(lt(drydocks.start, to));
  const rows = await ctx.db.select().from(drydocks).where(and(...conds)).orderBy(asc(drydocks.start)).limit(1000).all();
  return rows.map((d) => ({ rentalId: d.id, assetIds: d.assetIds ?? [], startTime: iso(d.start), endTime: iso(d.end), startDate: d.startDate, endDate: d.endDate, notes: d.notes ?? null }));
}

/** GET /schedule/schedule/search: partial search by rental id, renter name or e-mail within one item. */
export async function searchSchedule(ctx: Ctx, q: { inventory_id: string; rental_id?: string; customer_name?: string; email?: string; limit: number }) {
  const customerId = tenantOf(ctx);
  if (!q.rental_id && !q.customer_name && !q.email) {
    throw new ApiError('validation_failed', 'Give at least one of rental_id, customer_name or email', {
      details: ['rental_id', 'customer_name', 'email'].map((field) => ({ field, location: 'query', code: 'required', message: 'one of rental_id, customer_name, email is required' })),
    });
  }
  const item = await itemInTenant(ctx, q.inventory_id);
  const conds: SQL[] = [eq(bookings.customerId, customerId), eq(bookings.itemId, item.id)];
  if (q.rental_id) conds.push(like(rentalIdExpr, q.rental_id));
  if (q.customer_name) conds.push(like(nameExpr, q.customer_name.replace(/\s+/g, ' ')));
  if (q.email) conds.push(like(emailExpr, q.email));
  const where = and(...conds);
  const [total, data] = await Promise.all([countWhere(ctx, where, true), selectEntries(ctx, where, [desc(bookings.start), asc(bookings.id)], q.limit)]);
  return { data, total, limit: q.limit };
}

/** Parses `location_ids` (a JSON array of strings) or answers 400. */
export function parseLocationIds(raw: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('validation_failed', 'location_ids must be a JSON array of location id strings, e.g. ["loc_1","loc_2"]', {
      details: [{ field: 'location_ids', location: 'query', code: 'invalid_json', message: 'not valid JSON' }],
    });
  }
  if (!Array.isArray(parsed) || !parsed.length || parsed.length > 50 || !parsed.every((x) => typeof x === 'string' && x.trim().length > 0 && x.length <= 128)) {
    throw new ApiError('validation_failed', 'location_ids must be a JSON array of 1 to 50 non-empty location id strings', {
      details: [{ field: 'location_ids', location: 'query', code: 'invalid_type', message: 'must be a JSON array of 1 to 50 strings' }],
    });
  }
  return [...new Set(parsed.map((x: string) => x.trim()))];
}

/** GET /schedule/location: bookings of several of the caller's locations. */
export async function locationSchedule(
  ctx: Ctx,
  q: { location_ids: string; start_date?: string; end_date?: string; status_filter?: BookingStatus[]; page: number; limit: number; lightweight?: boolean },
) {
  const customerId = tenantOf(ctx);
  const ids = parseLocationIds(q.location_ids);
  checkRange(q.start_date, q.end_date);
  const locs = await ctx.db
    .select({ id: locations.id, name: locations.name, timezone: locations.timezone })
    .from(locations)
    .where(and(eq(locations.customerId, customerId), inArray(locations.id, ids)))
    .all();
  const known = new Set(locs.map((l) => l.id));
  const missing = ids.filter((i) => !known.has(i));
  if (missing.length) throw new ApiError('not_found', `Location not found: ${missing.join(', ')}`);
  const base = and(eq(bookings.customerId, customerId), inArray(bookings.locationId, ids), ...multiZoneDateConds(q.start_date, q.end_date));
  const where = q.status_filter?.length ? and(base, inArray(bookings.status, q.status_filter)) : base;
  const order = [asc(bookings.start), asc(bookings.id)];
  const offset = (q.page - 1) * q.limit;
  const [total, perLocation, data] = await Promise.all([
    countWhere(ctx, where),
    ctx.db.select({ locationId: bookings.locationId, n: count() }).from(bookings).where(where).groupBy(bookings.locationId).all(),
    q.lightweight ? selectLight(ctx, where, order, q.limit, offset) : selectEntries(ctx, where, order, q.limit, offset),
  ]);
  const per = new Map(perLocation.map((p) => [p.locationId, p.n]));
  return {
    data,
    locations: ids.map((id) => {
      const l = locs.find((x) => x.id === id)!;
      return { locationId: l.id, name: l.name, timezone: l.timezone, count: per.get(l.id) ?? 0 };
    }),
    ...pageOf(q.page, q.limit, total),
  };
}

interface StatusListInput {
  status?: BookingStatus[];
  start_date?: string;
  end_date?: string;
  page: number;
  limit: number;
  sort_order: 'asc' | 'desc';
  lightweight?: boolean;
}

async function statusList(ctx: Ctx, scope: SQL[], q: StatusListInput) {
  checkRange(q.start_date, q.end_date);
  const base = and(...scope, ...multiZoneDateConds(q.start_date, q.end_date));
  const where = q.status?.length ? and(base, inArray(bookings.status, q.status)) : base;
  const order = orderOf('start', q.sort_order);
  const offset = (q.page - 1) * q.limit;
  const [total, counts, data] = await Promise.all([
    countWhere(ctx, where),
    statusCounts(ctx, base),
    q.lightweight ? selectLight(ctx, where, order, q.limit, offset) : selectEntries(ctx, where, order, q.limit, offset),
  ]);
  return { data, statusCounts: counts, ...pageOf(q.page, q.limit, total) };
}

/** GET /schedule/by-customer-status: every booking of the operator account, by status. */
export async function byCustomerStatus(ctx: Ctx, q: StatusListInput & { customer_id?: string }) {
  const customerId = ownCustomer(ctx, q.customer_id);
  return statusList(ctx, [eq(bookings.customerId, customerId)], q);
}

/** GET /schedule/by-location-status: the bookings of one location, by status. */
export async function byLocationStatus(ctx: Ctx, q: StatusListInput & { location_id: string }) {
  const customerId = tenantOf(ctx);
  const loc = await ctx.db.select({ id: locations.id }).from(locations).where(and(eq(locations.id, q.location_id), eq(locations.customerId, customerId))).get();
  if (!loc) throw notFound('Location');
  return statusList(ctx, [eq(bookings.customerId, customerId), eq(bookings.locationId, loc.id)], q);
}

// ---------------------------------------------------------------------------------------------
// Cursor pagination

const many = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

function filterError(message: string, issues: { path: PropertyKey[]; message: string; code: string }[], field = 'filters') {
  return new ApiError('validation_failed', message, {
    details: issues.length
      ? issues.map((i) => ({ field: [field, ...i.path.map(String)].join('.'), location: 'query', code: i.code, message: i.message }))
      : [{ field, location: 'query', code: 'invalid', message }],
  });
}

/** Parses the `filters` query parameter (a JSON object) or answers 400 naming the bad key. */
export function parseFilters(raw: string | undefined): FiltersT {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw filterError('filters must be a JSON object, e.g. {"status":["confirmed"]}', []);
  }
  const r = Filters.safeParse(parsed);
  if (!r.success) throw filterError(`Invalid filters: ${r.error.issues.map((i) => `${i.path.join('.') || 'filters'}: ${i.message}`).join('; ')}`, r.error.issues);
  return r.data;
}

function filterConds(customerId: string, f: FiltersT): SQL[] {
  const conds: SQL[] = [eq(bookings.customerId, customerId)];
  const inv = many(f.inventoryId);
  if (inv) conds.push(inArray(bookings.itemId, inv));
  const loc = many(f.locationId);
  if (loc) conds.push(inArray(bookings.locationId, loc));
  const st = many(f.status);
  if (st) conds.push(inArray(bookings.status, st));
  const src = many(f.source);
  if (src) conds.push(inArray(bookings.source, src));
  if (f.renterId) conds.push(eq(bookings.renterId, f.renterId));
  if (f.transactionId) conds.push(eq(bookings.transactionId, f.transactionId));
  conds.push(...multiZoneDateConds(f.startDate, f.endDate));
  if (f.search) {
    const t = f.search.replace(/\s+/g, ' ');
    conds.push(or(like(rentalIdExpr, t), like(nameExpr, t), like(emailExpr, t))!);
  }
  return conds;
}

interface Cursor {
  after: [number, string];
  filters: FiltersT;
}

export function encodeCursor(c: Cursor): string {
  return base64Encode(new TextEncoder().encode(JSON.stringify({ v: 1, after: c.after, filters: c.filters })));
}

const invalidCursor = (why: string) => new ApiError('invalid_cursor', `Invalid cursor: ${why}. Use the nextCursor of the previous page, or omit cursor to start over.`, { details: [{ field: 'cursor', code: 'invalid_cursor', message: why }] });

/** Decodes a cursor (standard or URL-safe base64 of JSON `{after: [start, rentalId], filters}`) or answers 400. */
export function decodeCursor(raw: string): Cursor {
  let json: unknown;
  try {
    const b64 = raw.replace(/-/g, '+').replace(/_/g, '/');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('not base64');
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(base64Decode(b64 + '==='.slice((b64.length + 3) % 4))));
  } catch {
    throw invalidCursor('not base64-encoded JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw invalidCursor('not an object');
  const o = json as Record<string, unknown>;
  const after = o.after;
  if (!Array.isArray(after) || after.length !== 2 || !Number.isSafeInteger(after[0]) || typeof after[1] !== 'string' || !after[1] || after[1].length > 128) {
    throw invalidCursor('`after` must be [start (epoch ms), rentalId]');
  }
  const f = Filters.safeParse(o.filters ?? {});
  if (!f.success) throw invalidCursor('its filters are not valid');
  return { after: [after[0] as number, after[1] as string], filters: f.data };
}

const sameFilters = (a: FiltersT, b: FiltersT) => {
  const norm = (f: FiltersT) => JSON.stringify(Object.entries(f).filter(([, v]) => v !== undefined).sort(([x], [y]) => x.localeCompare(y)));
  return norm(a) === norm(b);
};

/** GET /schedule/schedules/paginated: keyset pages ordered by (start, rentalId). */
export async function paginated(ctx: Ctx, q: { limit: number; cursor?: string; filters?: string }) {
  const customerId = tenantOf(ctx);
  const given = q.filters !== undefined ? parseFilters(q.filters) : undefined;
  const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
  if (cursor && given && !sameFilters(cursor.filters, given)) {
    throw new ApiError('invalid_cursor', 'The cursor was made for other filters; omit filters (the cursor carries them) or start over without cursor', { details: [{ field: 'filters', code: 'cursor_mismatch', message: 'differs from the cursor\'s filters' }] });
  }
  const filters = cursor?.filters ?? given ?? {};
  checkRange(filters.startDate, filters.endDate);
  const conds = filterConds(customerId, filters);
  if (cursor) {
    const [s, id] = cursor.after;
    conds.push(or(gt(bookings.start, s), and(eq(bookings.start, s), gt(bookings.id, id)))!);
  }
  const rows = await selectEntries(ctx, and(...conds), [asc(bookings.start), asc(bookings.id)], q.limit + 1);
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit);
  const last = data[data.length - 1];
  return {
    data,
    limit: q.limit,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ after: [Date.parse(last.startTime), last.rentalId], filters }) : null,
    filters: filters as Record<string, unknown>,
  };
}

/** GET /schedule/schedules/count: how many bookings match the filters, in total and per status. */
export async function countSchedules(ctx: Ctx, q: { filters?: string }) {
  const customerId = tenantOf(ctx);
  const filters = parseFilters(q.filters);
  checkRange(filters.startDate, filters.endDate);
  const byStatus = await statusCounts(ctx, and(...filterConds(customerId, filters)), Boolean(filters.search));
  return { total: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus, filters: filters as Record<string, unknown> };
}

