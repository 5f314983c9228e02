import { and, asc, count, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { bookings, drydocks } from '../../db/schema/bookings';
import type { BookingStatus } from '../../lib/booking-status';
import { SORT_FIELDS } from './schemas';
import { drydockOut } from './views';
import {
  checkRange,
  countWhere,
  emailExpr,
  endInstant,
  itemInTenant,
  like,
  nameExpr,
  orderOf,
  pageOf,
  rentalIdExpr,
  selectEntries,
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
  return rows.map(drydockOut);
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
