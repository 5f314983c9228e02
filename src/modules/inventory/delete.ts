import { nowDate } from '../../lib/clock';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { inventoryItems } from '../../db/schema/inventory';
import { bookings } from '../../db/schema/bookings';
import { ACTIVE_STATUSES } from '../../lib/booking-status';
import { inventoryErrors } from './errors';
import { getOwnedItemOr403 } from './queries';

/** Soft-deletes an item (403 another operator's); refused while it has upcoming bookings. */
export async function deleteInventory(ctx: Ctx, id: string) {
  requirePermission(ctx, 'inventory');
  const item = await getOwnedItemOr403(ctx, id);
  const now = nowDate(ctx);
  const upcoming = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(bookings)
    .where(
      and(eq(bookings.customerId, item.customerId), eq(bookings.itemId, item.id), inArray(bookings.status, ACTIVE_STATUSES), gt(bookings.end, now.getTime())),
    )
    .get();
  if (upcoming && upcoming.n > 0) {
    throw inventoryErrors.fail('has_upcoming_bookings', `The item has ${upcoming.n} upcoming booking(s); cancel or move them before deleting it`, {
      extra: { upcomingBookings: upcoming.n },
    });
  }
  const deletedAt = now.toISOString();
  await commit(
    ctx,
    [
      ctx.db
        .update(inventoryItems)
        .set({ deletedAt, updatedAt: deletedAt })
        .where(and(eq(inventoryItems.id, item.id), eq(inventoryItems.customerId, item.customerId), isNull(inventoryItems.deletedAt))),
    ],
    {
      audit: { action: 'inventory.delete', targetType: 'inventory_item', targetId: item.id, details: { name: item.name } },
    },
  );
  return { success: true, inventory_id: item.id, inventoryId: item.id, deletedAt };
}
