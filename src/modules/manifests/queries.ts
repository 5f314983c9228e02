import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { bookings, renters } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';

/** The bookings of a location whose start falls on a local date (cancelled ones left out), in start order, with their item's name and renter. */
export async function bookingsOfDay(ctx: Ctx, q: { customerId: string; locationId: string; date: string }) {
  const rows = await ctx.db
    .select({ b: bookings, itemName: inventoryItems.name })
    .from(bookings)
    .leftJoin(inventoryItems, and(eq(inventoryItems.id, bookings.itemId), eq(inventoryItems.customerId, bookings.customerId)))
    .where(and(eq(bookings.customerId, q.customerId), eq(bookings.localDate, q.date), eq(bookings.locationId, q.locationId), ne(bookings.status, 'cancelled')))
    .orderBy(asc(bookings.start), asc(bookings.id))
    .all();
  const renterIds = [...new Set(rows.map((r) => r.b.renterId).filter((id): id is string => !!id))];
  const people = new Map<string, { firstName: string; lastName: string; email: string; phone: string | null }>();
  for (let i = 0; i < renterIds.length; i += 90) {
    const part = await ctx.db
      .select({ id: renters.id, firstName: renters.firstName, lastName: renters.lastName, email: renters.email, phone: renters.phone })
      .from(renters)
      .where(and(eq(renters.customerId, q.customerId), inArray(renters.id, renterIds.slice(i, i + 90))))
      .all();
    for (const r of part) people.set(r.id, r);
  }
  return rows.map((r) => ({ ...r.b, itemName: r.itemName ?? r.b.itemId, renter: r.b.renterId ? (people.get(r.b.renterId) ?? null) : null }));
}
