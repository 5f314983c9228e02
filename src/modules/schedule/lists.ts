import { and, asc, count, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { bookings, drydocks } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import type { BookingStatus } from '../../lib/booking-status';
import { SORT_FIELDS } from './schemas';
import { iso } from './entries';
import {
  checkRange,
  countWhere,
  emailExpr,
  endInstant,
  itemInTenant,
  like,
  multiZoneDateConds,
  nameExpr,
  orderOf,
  pageOf,
  rentalIdExpr,
  selectEntries,
  selectLight,
  startInstant,
  statusCounts,
} from './queries';

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
  const [total, data] = await Promise.all([
    countWhere(ctx, where),
    selectEntries(ctx, where, orderOf(q.sort_by, q.sort_order), q.limit, (q.page - 1) * q.limit),
  ]);
  return { inventoryId: item.id, timezone: item.timezone, data, statusCounts: counts, ...(drydock ? { drydock } : {}), ...pageOf(q.page, q.limit, total) };
}

async function drydockOf(ctx: Ctx, itemId: string, from?: number, to?: number) {
  const conds: SQL[] = [eq(drydocks.customerId, tenantOf(ctx)), eq(drydocks.itemId, itemId)];
  if (from !== undefined) conds.push(gt(drydocks.end, from));
  if (to !== undefined) conds.push(lt(drydocks.start, to));
  const rows = await ctx.db
    .select()
    .from(drydocks)
    .where(and(...conds))
    .orderBy(asc(drydocks.start))
    .limit(1000)
    .all();
  return rows.map((d) => ({
    rentalId: d.id,
    assetIds: d.assetIds ?? [],
    startTime: iso(d.start),
    endTime: iso(d.end),
    startDate: d.startDate,
    endDate: d.endDate,
    notes: d.notes ?? null,
  }));
}

/** GET /schedule/schedule/search: partial search by rental id, renter name or e-mail within one item. */
export async function searchSchedule(ctx: Ctx, q: { inventory_id: string; rental_id?: string; customer_name?: string; email?: string; limit: number }) {
  const customerId = tenantOf(ctx);
  if (!q.rental_id && !q.customer_name && !q.email) {
    throw new ApiError('validation_failed', 'Give at least one of rental_id, customer_name or email', {
      details: ['rental_id', 'customer_name', 'email'].map((field) => ({
        field,
        location: 'query',
        code: 'required',
        message: 'one of rental_id, customer_name, email is required',
      })),
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
  const loc = await ctx.db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.id, q.location_id), eq(locations.customerId, customerId)))
    .get();
  if (!loc) throw notFound('Location');
  return statusList(ctx, [eq(bookings.customerId, customerId), eq(bookings.locationId, loc.id)], q);
}
