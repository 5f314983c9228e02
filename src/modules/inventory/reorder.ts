import { nowIso } from '../../lib/clock';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { ErrorDetail } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { inventoryItems } from '../../db/schema/inventory';
import { detail, invalid } from './errors';

/** POST /inventory/reorder: the listed items first in that order, the others after them in their current order. */
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
  const now = nowIso(ctx);
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
