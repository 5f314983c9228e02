import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { bookings } from '../../db/schema/bookings';
import { getLocationInTenant } from '../locations/service';
import type { BookingStatus } from '../../lib/booking-status';
import { checkRange, countWhere, multiZoneDateConds, orderOf, pageOf, selectEntries, selectLight, statusCounts } from './queries';

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
  const loc = await getLocationInTenant(ctx, q.location_id);
  return statusList(ctx, [eq(bookings.customerId, loc.customerId), eq(bookings.locationId, loc.id)], q);
}
