import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import type { BookingStatus } from '../../lib/booking-status';
import { checkRange, countWhere, multiZoneDateConds, pageOf, selectEntries, selectLight } from './queries';

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
