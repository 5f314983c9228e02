/** Reads of structured data: public items and locations by id (any operator: the data is public), operator names. */
import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { customers } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { inventoryItems } from '../../db/schema/inventory';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;

/** Items listed per location or operator (the JSON-LD stays a reasonable size). */
const MAX_ITEMS = 100;

/** Public: listed on the booking widget (the row's flag and the model's). */
export const isVisible = (row: ItemRow) => row.isPublic && (row.data as { isPublic?: boolean } | null)?.isPublic !== false;

/** The operator's public name (business name, else name); 404 for an unknown operator. */
export async function operatorName(ctx: Ctx, customerId: string) {
  const c = await ctx.db.select({ name: customers.name, businessName: customers.businessName }).from(customers).where(eq(customers.id, customerId)).get();
  if (!c) throw notFound('Operator');
  return c.businessName ?? c.name;
}

/** A live (not deleted) item by id, visible or not (the caller answers 403 for a hidden one); 404 unknown. */
export async function itemById(ctx: Ctx, inventoryId: string): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, inventoryId), isNull(inventoryItems.deletedAt)))
    .get();
  if (!row) throw notFound('Inventory item');
  return row;
}

export async function locationById(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const loc = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!loc) throw notFound('Location');
  return loc;
}

/** Public items of an operator (of one location when given), in display order, at most MAX_ITEMS. */
export async function publicItems(ctx: Ctx, customerId: string, locationId?: string) {
  const where: SQL | undefined = and(eq(inventoryItems.customerId, customerId), locationId ? eq(inventoryItems.locationId, locationId) : undefined);
  const rows = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(where, isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.id))
    .limit(MAX_ITEMS)
    .all();
  return rows.filter(isVisible);
}
