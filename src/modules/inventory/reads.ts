import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, forbidden, notFound, type ErrorDetail } from '../../lib/errors';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { InventoryData, type InventoryModel } from './model';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type AssetRow = typeof inventoryAssets.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Reads

export const invalid = (details: ErrorDetail[]) =>
  new ApiError(
    'validation_failed',
    `Invalid request: ${details
      .map((d) => `${d.field}: ${d.message}`)
      .slice(0, 3)
      .join('; ')}`,
    { details },
  );

export const detail = (field: string, message: string, code = 'invalid'): ErrorDetail => ({ field, location: 'body', code, message });

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

export const isRemoved = (a: AssetRow) => Boolean(a.details && (a.details as Record<string, unknown>).removedAt);

export async function assetsOf(ctx: Ctx, item: Pick<ItemRow, 'id' | 'customerId'>): Promise<AssetRow[]> {
  return ctx.db
    .select()
    .from(inventoryAssets)
    .where(and(eq(inventoryAssets.itemId, item.id), eq(inventoryAssets.customerId, item.customerId)))
    .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.createdAt))
    .all();
}

/**
 * The stored `data` read through the model (defaults filled in). Rows written before a model
 * change still read: when they no longer parse, the raw object is returned as is.
 */
export function readData(item: Pick<ItemRow, 'data' | 'name' | 'kind' | 'locationId'>): InventoryModel {
  const raw = { name: item.name, type: item.kind, locationId: item.locationId, ...(item.data ?? {}) };
  const parsed = InventoryData.safeParse(raw);
  return parsed.success ? parsed.data : (raw as unknown as InventoryModel);
}

export function pinOut(pin: Record<string, unknown> | null) {
  if (!pin || typeof pin.x !== 'number' || typeof pin.y !== 'number') return null;
  return { x: pin.x, y: pin.y, ...(typeof pin.label === 'string' ? { label: pin.label } : {}) };
}

function assetOut(a: AssetRow) {
  return { assetId: a.id, id: a.id, name: a.name, status: a.status, displayOrder: a.displayOrder, mapPin: pinOut(a.mapPin ?? null) };
}

export function itemOut(item: ItemRow, loc: LocationRow | undefined, assets: AssetRow[]) {
  return {
    inventory_id: item.id,
    inventoryId: item.id,
    customerId: item.customerId,
    locationId: item.locationId,
    location: loc ? { locationId: loc.id, name: loc.name, timezone: loc.timezone, currency: loc.currency } : null,
    timezone: loc?.timezone ?? 'UTC',
    name: item.name,
    kind: item.kind,
    isPublic: item.isPublic,
    displayOrder: item.displayOrder,
    version: item.version,
    data: readData(item),
    assets: assets.filter((a) => a.itemId === item.id && !isRemoved(a)).map(assetOut),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
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
