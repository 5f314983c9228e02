// Inventory service: the entry point other code imports. The logic lives in the files next to it:
// reads.ts (reads and views), version.ts (optimistic concurrency), rules.ts (business rules of the
// model), setup.ts (POST /inventory/setup and the asset pool sync), lists.ts (lists, order,
// deletion), pricing-data.ts (/inventory-pricing), photos.ts (photos, videos, public media) and
// asset-map.ts (asset map).
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { inventoryItems } from '../../db/schema/inventory';

export { getInventoryItem, getItemInTenant, itemOut, readData, type AssetRow, type ItemRow } from './reads';
export { checkRules } from './rules';
export { setupInventory, type SetupInput, type SetupOptions } from './setup';
export { deleteInventory, listInventory, reorderInventory } from './lists';
export { getPricing, pricingView, updatePricing, type PricingInput } from './pricing-data';
export { MAX_IMAGES, MAX_VIDEOS, openMedia, uploadMedia, type UploadFile } from './photos';
export { setAssetMap, type AssetMapInput } from './asset-map';
export { startingPrice, type PriceUnit } from './summary';

/** The public items of an operator (not deleted, `isPublic`), in display order: the booking widget's catalog and its concierge. */
export async function listPublicItems(ctx: Ctx, customerId: string) {
  return ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
    .all();
}
