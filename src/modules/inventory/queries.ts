import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { forbidden, notFound } from '../../lib/errors';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { isRemoved, itemOut, readData, type AssetRow, type ItemRow, type LocationRow } from './views';

/** Any operator's item (for the endpoints whose spec answers 403 on another operator's item). */
export async function findItemAnyTenant(ctx: Ctx, id: string): Promise<ItemRow | undefined> {
  return ctx.db.select().from(inventoryItems).where(eq(inventoryItems.id, id)).get();
}

/** Tenant-scoped read; another operator's item, an unknown id and a deleted item answer 404. */
export async function getItemInTenant(ctx: Ctx, id: string, opts: { includeDeleted?: boolean } = {}): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, id), eq(inventoryItems.customerId, tenantOf(ctx))))
    .get();
  if (!row || (row.deletedAt && !opts.includeDeleted)) throw notFound('Inventory item');
  return row;
}

/** The caller's live item; another operator's item answers 403 (spec rule of setup, delete and asset map), unknown 404. */
export async function getOwnedItemOr403(ctx: Ctx, id: string): Promise<ItemRow> {
  const row = await findItemAnyTenant(ctx, id);
  if (row && row.customerId !== tenantOf(ctx)) throw forbidden('This inventory item belongs to another operator');
  if (!row || row.deletedAt) throw notFound('Inventory item');
  return row;
}

export async function locationOf(ctx: Ctx, item: ItemRow): Promise<LocationRow | undefined> {
  return ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, item.locationId), eq(locations.customerId, item.customerId)))
    .get();
}

export async function assetsOf(ctx: Ctx, item: Pick<ItemRow, 'id' | 'customerId'>): Promise<AssetRow[]> {
  return ctx.db
    .select()
    .from(inventoryAssets)
    .where(and(eq(inventoryAssets.itemId, item.id), eq(inventoryAssets.customerId, item.customerId)))
    .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.createdAt))
    .all();
}

export async function viewOf(ctx: Ctx, item: ItemRow) {
  const [loc, assets] = await Promise.all([locationOf(ctx, item), assetsOf(ctx, item)]);
  return itemOut(item, loc, assets);
}

/** An item with its parsed data, live assets and location, for other modules (availability, pricing, catalog). */
export async function getInventoryItem(ctx: Ctx, id: string) {
  const item = await getItemInTenant(ctx, id);
  const [loc, assets] = await Promise.all([locationOf(ctx, item), assetsOf(ctx, item)]);
  return { item, data: readData(item), assets: assets.filter((a) => !isRemoved(a)), location: loc ?? null, timezone: loc?.timezone ?? 'UTC' };
}

/** Assets of the caller's operator by id (live items only), with their item's name and location; unknown and foreign ids are left out. */
export async function getAssetsInTenant(ctx: Ctx, ids: string[]) {
  if (!ids.length) return [];
  return ctx.db
    .select({
      id: inventoryAssets.id,
      name: inventoryAssets.name,
      status: inventoryAssets.status,
      itemId: inventoryAssets.itemId,
      itemName: inventoryItems.name,
      locationId: inventoryItems.locationId,
    })
    .from(inventoryAssets)
    .innerJoin(inventoryItems, eq(inventoryItems.id, inventoryAssets.itemId))
    .where(and(eq(inventoryAssets.customerId, tenantOf(ctx)), inArray(inventoryAssets.id, ids), isNull(inventoryItems.deletedAt)))
    .all();
}

/** The assets of a location's live items (for the live map). */
export async function listAssetsOfLocation(ctx: Ctx, locationId: string) {
  return ctx.db
    .select({
      id: inventoryAssets.id,
      name: inventoryAssets.name,
      status: inventoryAssets.status,
      itemId: inventoryAssets.itemId,
      itemName: inventoryItems.name,
      locationId: inventoryItems.locationId,
    })
    .from(inventoryAssets)
    .innerJoin(inventoryItems, eq(inventoryItems.id, inventoryAssets.itemId))
    .where(and(eq(inventoryAssets.customerId, tenantOf(ctx)), eq(inventoryItems.locationId, locationId), isNull(inventoryItems.deletedAt)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryAssets.displayOrder))
    .all();
}

/** The operator's live items in display order, each with its location and assets. */
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

/** The public items of an operator (not deleted, `isPublic`), in display order: the booking widget's catalog and its concierge. */
export async function listPublicItems(ctx: Ctx, customerId: string): Promise<ItemRow[]> {
  return ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
    .all();
}
