/** Tenant-scoped reads of calendar sync: users, their locations, the bookings of a schedule, connections and feeds. */
import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { isAdmin, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import type { users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { bookings } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { calendarConnections, calendarEventLinks, calendarFeeds } from '../../db/schema/calendar-sync';
import { getUserInTenant } from '../users/service';

export type UserRow = typeof users.$inferSelect;
export type ConnectionRow = typeof calendarConnections.$inferSelect;
export type FeedRow = typeof calendarFeeds.$inferSelect;

/** A user of the caller's operator (404 otherwise). Only the user or an admin may act on a user's calendar (403). */
export async function calendarUser(ctx: Ctx, userId: string): Promise<UserRow> {
  const user = await getUserInTenant(ctx, userId);
  if (ctx.principal.userId !== user.id && !isAdmin(ctx.principal)) throw new ApiError('forbidden', "Only the user or an admin may manage this user's calendar");
  return user;
}

/** The user whose schedule a connection or a feed shows, read for its operator (null when the user was removed). */
export async function scheduleUser(ctx: Ctx, customerId: string, userId: string): Promise<UserRow | null> {
  const tctx: Ctx = { ...ctx, principal: { ...ctx.principal, customerId } };
  try {
    return await getUserInTenant(tctx, userId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') return null;
    throw err;
  }
}

/** Events of a connection written to the provider's calendar. */
export async function eventLinkCount(ctx: Ctx, conn: ConnectionRow): Promise<number> {
  const r = await ctx.db
    .select({ n: count() })
    .from(calendarEventLinks)
    .where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id)))
    .get();
  return r?.n ?? 0;
}

/** A feed by its secret token (any operator: the token is the credential), or undefined. */
export async function feedByToken(ctx: Ctx, token: string): Promise<FeedRow | undefined> {
  return ctx.db
    .select()
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, await sha256Hex(token)))
    .get();
}

/** A feed of the caller's operator (404 otherwise). */
export async function feedInTenant(ctx: Ctx, feedId: string): Promise<FeedRow> {
  const feed = await ctx.db
    .select()
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.id, feedId), eq(calendarFeeds.customerId, tenantOf(ctx))))
    .get();
  if (!feed) throw notFound('Calendar feed');
  return feed;
}

export async function connectionOf(ctx: Ctx, customerId: string, userId: string): Promise<ConnectionRow | undefined> {
  return ctx.db
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.customerId, customerId), eq(calendarConnections.userId, userId)))
    .get();
}

/** The locations whose bookings make a schedule: the user's locations (all of the operator's when the user has none listed, or for the operator feed). */
export async function scheduleLocations(ctx: Ctx, customerId: string, user: Pick<UserRow, 'locations'> | null) {
  const all = await ctx.db.select().from(locations).where(eq(locations.customerId, customerId)).all();
  if (!user || !user.locations?.length) return all;
  return all.filter((l) => user.locations.includes(l.id));
}

export type LocationRow = Awaited<ReturnType<typeof scheduleLocations>>[number];

export interface ScheduleBooking {
  booking: typeof bookings.$inferSelect;
  itemName: string;
  location: LocationRow;
}

/** Bookings (any status) at these locations overlapping [from, to), oldest first, at most `max`. */
export async function scheduleBookings(ctx: Ctx, customerId: string, locs: LocationRow[], from: number, to: number, max = 2000): Promise<ScheduleBooking[]> {
  if (!locs.length) return [];
  const rows = await ctx.db
    .select({ booking: bookings, itemName: inventoryItems.name })
    .from(bookings)
    .leftJoin(inventoryItems, eq(inventoryItems.id, bookings.itemId))
    .where(
      and(
        eq(bookings.customerId, customerId),
        inArray(
          bookings.locationId,
          locs.map((l) => l.id),
        ),
        gte(bookings.end, from),
        lt(bookings.start, to),
      ),
    )
    .orderBy(bookings.start)
    .limit(max)
    .all();
  const byId = new Map(locs.map((l) => [l.id, l]));
  return rows.map((r) => ({ booking: r.booking, itemName: r.itemName ?? 'Rental', location: byId.get(r.booking.locationId)! }));
}
