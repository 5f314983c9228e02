// Inventory service: the entry point other code imports. The logic lives in the files next to it:
// reads.ts (reads and views), version.ts (optimistic concurrency), rules.ts (business rules of the
// model), setup.ts (POST /inventory/setup and the asset pool sync), lists.ts (lists, order,
// deletion), pricing-data.ts (/inventory-pricing), photos.ts (photos, videos, public media) and
// asset-map.ts (asset map).

export { getAssetsInTenant, getInventoryItem, getItemInTenant, itemOut, listAssetsOfLocation, readData, type AssetRow, type ItemRow } from './reads';
export { checkRules } from './rules';
export { setupInventory, type SetupInput, type SetupOptions } from './setup';
export { deleteInventory, listInventory, reorderInventory } from './lists';
export { getPricing, pricingView, updatePricing, type PricingInput } from './pricing-data';
export { MAX_IMAGES, MAX_VIDEOS, openMedia, uploadMedia, type UploadFile } from './photos';
export { setAssetMap, type AssetMapInput } from './asset-map';
export { startingPrice, type PriceUnit } from './summary';
