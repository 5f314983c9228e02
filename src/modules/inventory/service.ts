// The inventory module's face. Other code uses it for:
// - reading items and assets in the tenant (communications, boat records, GPS, geofences, asset pools, fleet system, cart recovery):
//   getItemInTenant, getAssetsInTenant, listAssetsOfLocation;
// - the public catalog (widget, public booking, assistants, channel, structured data): listPublicItems, readData, startingPrice, PriceUnit,
//   photoSources (an item image's resized variants, srcset and size);
// - building inventory (the seed): setupInventory, reorderInventory, uploadMedia (the demo photos).

export { getAssetsInTenant, getItemInTenant, listAssetsOfLocation, listPublicItems } from './queries';
export { readData } from './views';
export { setupInventory } from './setup';
export { reorderInventory } from './reorder';
export { startingPrice, type PriceUnit } from './starting-price';
export { photoSources, type PhotoSources } from './photo-files';
export { uploadMedia } from './photos';
