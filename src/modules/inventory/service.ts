// Inventory service: the entry point other code imports. The logic lives in the files next to it:
// views.ts (item, asset and pricing views), queries.ts (tenant-scoped reads and the item list),
// errors.ts (error codes and validation errors), version.ts (optimistic concurrency), rules.ts
// (business rules of the model), setup.ts (POST /inventory/setup and the asset pool sync),
// reorder.ts and delete.ts, pricing-data.ts (/inventory-pricing), photos.ts and media.ts (photos,
// videos, public media) and asset-map.ts (asset map).

export { getAssetsInTenant, getInventoryItem, getItemInTenant, listAssetsOfLocation, listInventory, listPublicItems } from './queries';
export { itemOut, pricingView, readData, type AssetRow, type ItemRow } from './views';
export { checkRules } from './rules';
export { setupInventory, type SetupInput, type SetupOptions } from './setup';
export { reorderInventory } from './reorder';
export { deleteInventory } from './delete';
export { getPricing, updatePricing, type PricingInput } from './pricing-data';
export { MAX_IMAGES, MAX_VIDEOS, openMedia, uploadMedia, type UploadFile } from './photos';
export { setAssetMap, type AssetMapInput } from './asset-map';
export { startingPrice, type PriceUnit } from './starting-price';
