/** Tenant-scoped reads of calendar sync: users, their locations, and the bookings of a schedule. */
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { isAdmin, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { bookings } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { calendarConnections } from '../../db/schema/calendar-sync';

export type UserRow = typeof users.$inferSelect;
export type ConnectionRow = typeof calendarConnections.$inferSelect;

/** A user of the caller's operator (404 otherwise). Only the user or an admin may act on a user's calendar (403). */
export async function calendarUser(ctx: Ctx, userId: string): Promise<UserRow> {
  const customerId = tenantOf(ctx);
  const user = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.customerId, customerId)))
    .get();
  if (!user) throw notFound('User');
  if (ctx.principal.userId !== user.id && !isAdmin(ctx.principal)) throw new ApiError('forbidden', "Only the user or an admin may manage this user's calendar");
  return user;
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
