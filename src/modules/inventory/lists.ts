import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, type ErrorDetail } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { bookings } from '../../db/schema/bookings';
import { ACTIVE_STATUSES } from '../../lib/booking-status';
import { detail, getOwnedItemOr403, invalid, itemOut, type AssetRow } from './reads';
import { inventoryErrors } from './errors';

// ---------------------------------------------------------------------------------------------
// Lists, order, deletion

export async function listInventory(ctx: Ctx, q: { customer_id: string; locationId?: string; kind?: 'rental' | 'tour' }) {
  const customerId = ownCustomer(ctx, q.customer_id);
  const conds = [eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt)];
  if (q.locationId) conds.push(eq(inventoryItems.locationId, q.locationId));
  if (q.kind) conds.push(eq(inventoryItems.kind, q.kind));
  const [rows, locs, assets] = await Promise.all([
    ctx.db
      .select()
      .from(inventoryItems)
      .where(and(...conds))
      .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
      .all(),
    ctx.db.select().from(locations).where(eq(locations.customerId, customerId)).all(),
    ctx.db
      .select()
      .from(inventoryAssets)
      .where(eq(inventoryAssets.customerId, customerId))
      .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.createdAt))
      .all(),
  ]);
  const locById = new Map(locs.map((l) => [l.id, l]));
  const assetsByItem = new Map<string, AssetRow[]>();
  for (const a of assets) {
    const list = assetsByItem.get(a.itemId) ?? [];
    list.push(a);
    assetsByItem.set(a.itemId, list);
  }
  const data = rows.map((r) => itemOut(r, locById.get(r.locationId), assetsByItem.get(r.id) ?? []));
  return { data, total: data.length };
}

export async function reorderInventory(ctx: Ctx, input: { orderedBoats: string[]; customerId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'inventory');
  const rows = await ctx.db
    .select({ id: inventoryItems.id, displayOrder: inventoryItems.displayOrder })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
    .all();
  const known = new Set(rows.map((r) => r.id));
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  input.orderedBoats.forEach((id, i) => {
    if (seen.has(id)) problems.push(detail(`orderedBoats.${i}`, `${id} is listed twice`, 'duplicate'));
    else if (!known.has(id)) problems.push(detail(`orderedBoats.${i}`, `${id} is not one of your inventory items`, 'unknown_item'));
    seen.add(id);
  });
  if (problems.length) throw invalid(problems);
  // Items not listed keep their relative order after the listed ones.
  const order = [...input.orderedBoats, ...rows.filter((r) => !seen.has(r.id)).map((r) => r.id)];
  const currentOrder = new Map(rows.map((r) => [r.id, r.displayOrder]));
  const now = new Date().toISOString();
  const stmts: Stmt[] = order
    .map((id, i) => ({ id, i }))
    .filter(({ id, i }) => currentOrder.get(id) !== i)
    .map(({ id, i }) =>
      ctx.db
        .update(inventoryItems)
        .set({ displayOrder: i, updatedAt: now })
        .where(and(eq(inventoryItems.id, id), eq(inventoryItems.customerId, customerId))),
    );
  await commit(ctx, stmts, { audit: { action: 'inventory.reorder', targetType: 'inventory_item', details: { order } } });
  return { success: true, orderedBoats: order };
}

export async function deleteInventory(ctx: Ctx, id: string) {
  requirePermission(ctx, 'inventory');
  const item = await getOwnedItemOr403(ctx, id);
  const now = new Date();
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
