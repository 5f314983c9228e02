import type { z } from '@hono/zod-openapi';
import type { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import type { locations } from '../../db/schema/locations';
import { InventoryData, type InventoryModel } from './model';
import type { InventoryAsset, InventoryItem, MapPin, PricingView } from './schemas';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type AssetRow = typeof inventoryAssets.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;

/** An asset taken out of the pool (kept for history, no longer listed or sold). */
export const isRemoved = (a: AssetRow) => Boolean(a.details && (a.details as Record<string, unknown>).removedAt);

/**
 * The stored `data` read through the model (defaults filled in). Rows written before a model
 * change still read: when they no longer parse, the raw object is returned as is.
 */
export function readData(item: Pick<ItemRow, 'data' | 'name' | 'kind' | 'locationId'>): InventoryModel {
  const raw = { name: item.name, type: item.kind, locationId: item.locationId, ...(item.data ?? {}) };
  const parsed = InventoryData.safeParse(raw);
  return parsed.success ? parsed.data : (raw as unknown as InventoryModel);
}

/** A map pin (`AssetMapPin`), or null when the stored one is incomplete. */
export function pinOut(pin: Record<string, unknown> | null): z.output<typeof MapPin> | null {
  if (!pin || typeof pin.x !== 'number' || typeof pin.y !== 'number') return null;
  return { x: pin.x, y: pin.y, ...(typeof pin.label === 'string' ? { label: pin.label } : {}) };
}

/** An asset of the pool (`InventoryAsset`). */
function assetOut(a: AssetRow): z.output<typeof InventoryAsset> {
  return { assetId: a.id, id: a.id, name: a.name, status: a.status, displayOrder: a.displayOrder, mapPin: pinOut(a.mapPin ?? null) };
}

/** An item as the API answers it (`InventoryItem`): its location, parsed data and live assets. */
export function itemOut(item: ItemRow, loc: LocationRow | undefined, assets: AssetRow[]): z.output<typeof InventoryItem> {
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

/** A season without dates: it applies all year. */
export const isAllYear = (s: { startDate?: string; endDate?: string }) => !s.startDate && !s.endDate;

/** An item's prices and rules as the API answers them (`InventoryPricing`). */
export function pricingView(item: ItemRow, loc: LocationRow | undefined): z.output<typeof PricingView> {
  const d = readData(item);
  const seasons = d.seasons ?? [];
  const allYear = seasons.find(isAllYear);
  return {
    inventory_id: item.id,
    inventoryId: item.id,
    name: item.name,
    kind: item.kind,
    currency: d.currency ?? loc?.currency ?? 'usd',
    timezone: loc?.timezone ?? 'UTC',
    version: item.version,
    data: {
      seasons,
      hourlyPrices: allYear?.hourlyPrices ?? {},
      dailyPrices: allYear?.dailyPrices ?? {},
      tourPricing: d.tourPricing ?? null,
      addons: d.addons ?? [],
      taxes: d.taxes ?? [],
      scheduleExceptions: d.scheduleExceptions ?? [],
      capacityOverrides: d.capacityOverrides ?? [],
      maintenanceBlocks: d.maintenanceBlocks ?? [],
      deposit: d.deposit ?? null,
      turnaroundBufferMinutes: d.turnaroundBufferMinutes ?? 0,
    },
  };
}
