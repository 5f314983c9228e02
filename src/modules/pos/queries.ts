import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { posFolderItems, posItems, posStock, posTransactions, posVariants } from '../../db/schema/pos';
import { getLocationInTenant } from '../locations/service';
import type { ItemRow, TransactionRow } from './views';
import { itemOut } from './views';

export const locationOf = (ctx: Ctx, locationId: string) => getLocationInTenant(ctx, locationId);

/** A product of the location (deleted ones answer 404, as do another operator's). */
export async function itemInLocation(ctx: Ctx, customerId: string, locationId: string, itemId: string): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(posItems)
    .where(and(eq(posItems.id, itemId), eq(posItems.customerId, customerId), eq(posItems.locationId, locationId), isNull(posItems.deletedAt)))
    .get();
  if (!row) throw notFound('POS item');
  return row;
}

/** Products with their variants, stock and folders, as the API shows them. */
export async function itemsOut(ctx: Ctx, items: ItemRow[]) {
  if (!items.length) return [];
  const ids = items.map((i) => i.id);
  const [variants, stock, links] = await Promise.all([
    ctx.db
      .select()
      .from(posVariants)
      .where(and(inArray(posVariants.itemId, ids), isNull(posVariants.deletedAt)))
      .orderBy(asc(posVariants.position))
      .all(),
    ctx.db.select().from(posStock).where(inArray(posStock.itemId, ids)).all(),
    ctx.db.select().from(posFolderItems).where(inArray(posFolderItems.itemId, ids)).all(),
  ]);
  return items.map((i) =>
    itemOut(
      i,
      variants.filter((v) => v.itemId === i.id),
      stock.filter((s) => s.itemId === i.id),
      links.filter((l) => l.itemId === i.id).map((l) => l.folderId),
    ),
  );
}

export async function transactionInTenant(ctx: Ctx, customerId: string, transactionId: string): Promise<TransactionRow> {
  const row = await ctx.db
    .select()
    .from(posTransactions)
    .where(and(eq(posTransactions.id, transactionId), eq(posTransactions.customerId, customerId)))
    .get();
  if (!row) throw notFound('POS transaction');
  return row;
}
