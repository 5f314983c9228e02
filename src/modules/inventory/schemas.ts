import { z } from '@hono/zod-openapi';
import { Addon, CapacityOverride, HourlyPrice, InventoryData, MaintenanceBlock, ScheduleException, Season, Tax, TourPricing, zWeekday } from './model';

const zId = () => z.string().trim().min(1).max(128);
const money = () => z.number().min(0).max(1_000_000);

export const MapPin = z
  .object({
    x: z.number().min(0).max(100).openapi({ description: 'Percent of the map image width, from the left' }),
    y: z.number().min(0).max(100).openapi({ description: 'Percent of the map image height, from the top' }),
    label: z.string().max(100).optional(),
  })
  .openapi('AssetMapPin');

export const InventoryAsset = z
  .object({
    assetId: z.string(),
    id: z.string().openapi({ description: 'Same as assetId' }),
    name: z.string(),
    status: z.enum(['active', 'inactive']),
    displayOrder: z.number().int(),
    mapPin: MapPin.nullable(),
  })
  .openapi('InventoryAsset');

export const InventoryLocation = z
  .object({ locationId: z.string(), name: z.string(), timezone: z.string(), currency: z.string() })
  .openapi('InventoryLocation');

/**
 * The item model as the endpoints take and answer it: InventoryData and its pricing switch. The
 * switch is stored in `data` with the rest of the model and read by the booking price.
 */
const ItemData = InventoryData.extend({
  dayRateCap: z
    .boolean()
    .optional()
    .openapi({
      description:
        'Rentals, the day-rate cap (default true): a rental shorter than the opening day never costs more than a longer rate that ' +
        'covers it (the half-day price up to half the day, the full-day price of that date); the cheapest covering rate is charged ' +
        'instead. false charges the hourly total as it is.',
    }),
}).openapi('InventoryItemData');

export const InventoryItem = z
  .object({
    inventory_id: z.string(),
    inventoryId: z.string().openapi({ description: 'Same as inventory_id' }),
    customerId: z.string(),
    locationId: z.string(),
    location: InventoryLocation.nullable(),
    timezone: z.string().openapi({ description: "IANA zone of the item's location; times of day in `data` are wall-clock times in it" }),
    name: z.string(),
    kind: z.enum(['rental', 'tour']),
    isPublic: z.boolean(),
    displayOrder: z.number().int(),
    version: z.number().int().openapi({ description: 'Incremented on every write of `data`; send it back as `expectedVersion` to refuse lost updates' }),
    data: ItemData,
    assets: z.array(InventoryAsset).openapi({ description: 'The asset pool (rentals), in display order; removed assets are not listed' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('InventoryItem');

export const SetupBody = z
  .object({
    data: ItemData,
    inventory_id: zId().optional().openapi({ description: 'Update this item; absent creates a new one' }),
    inventoryId: zId().optional().openapi({ description: 'Alias of inventory_id' }),
    customerId: z.string().max(128).optional().openapi({ description: "Must be the caller's own (403 otherwise)" }),
    expectedVersion: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'Refuse the update with 409 `version_conflict` unless the stored version is this one' }),
  })
  .refine((b) => !(b.inventory_id && b.inventoryId && b.inventory_id !== b.inventoryId), {
    message: 'inventory_id and inventoryId differ; give one',
    path: ['inventoryId'],
  })
  .openapi('InventorySetup');

export const SetupResult = InventoryItem.extend({ success: z.boolean(), created: z.boolean() }).openapi('InventorySetupResult');

export const ListQuery = z.object({
  customer_id: zId().openapi({ description: "The caller's customer id (403 for another operator's)" }),
  locationId: zId().optional().openapi({ description: 'Only the items of this location' }),
  kind: z.enum(['rental', 'tour']).optional(),
});

export const ItemParam = z.object({ inventory_id: zId().openapi({ param: { name: 'inventory_id', in: 'path' }, example: 'inv_demo_center_console' }) });

export const ReorderBody = z
  .object({
    orderedBoats: z.array(zId()).min(1).max(1000).openapi({ description: 'Item ids in the wanted display order' }),
    customerId: z.string().max(128).optional(),
  })
  .openapi('InventoryReorder');

export const ReorderResult = z
  .object({ success: z.boolean(), orderedBoats: z.array(z.string()).openapi({ description: 'The full display order after the change' }) })
  .openapi('InventoryReorderResult');

export const DeleteResult = z
  .object({ success: z.boolean(), inventory_id: z.string(), inventoryId: z.string(), deletedAt: z.string() })
  .openapi('InventoryDeleteResult');

export const PricingQuery = z
  .object({
    inventory_id: zId().optional().openapi({ description: 'The item (required unless inventoryId is given)' }),
    inventoryId: zId().optional().openapi({ description: 'Alias of inventory_id' }),
  })
  .refine((q) => q.inventory_id || q.inventoryId, { message: 'inventory_id is required', path: ['inventory_id'] });

const pricingFields = {
  seasons: z.array(Season).max(50).optional().openapi({ description: 'Replaces all seasons' }),
  hourlyPrices: z
    .partialRecord(zWeekday, HourlyPrice)
    .optional()
    .openapi({ description: 'Merged by weekday into the all-year season (the season without dates; created when missing)' }),
  dailyPrices: z.partialRecord(zWeekday, money()).optional().openapi({ description: 'Merged by weekday into the all-year season' }),
  tourPricing: TourPricing.nullable().optional().openapi({ description: 'Replaces the tour fares; null removes them' }),
  addons: z.array(Addon).max(100).optional(),
  taxes: z.array(Tax).max(20).optional(),
  scheduleExceptions: z.array(ScheduleException).max(1000).optional(),
  capacityOverrides: z.array(CapacityOverride).max(2000).optional(),
  maintenanceBlocks: z.array(MaintenanceBlock).max(1000).optional(),
  deposit: z
    .object({ amount: money(), required: z.boolean().default(false) })
    .nullable()
    .optional()
    .openapi({ description: 'Security deposit; null removes it' }),
  turnaroundBufferMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .optional(),
};

export const PricingUpdate = z
  .object({
    inventory_id: zId().optional(),
    inventoryId: zId().optional(),
    expectedVersion: z.number().int().min(1).optional(),
    ...pricingFields,
  })
  .strict()
  .refine((d) => d.inventory_id || d.inventoryId, { message: 'data.inventory_id is required', path: ['inventory_id'] })
  .openapi('InventoryPricingUpdate');

export const PricingBody = z.object({ data: PricingUpdate }).openapi('InventoryPricingBody');

export const PricingView = z
  .object({
    inventory_id: z.string(),
    inventoryId: z.string(),
    name: z.string(),
    kind: z.enum(['rental', 'tour']),
    currency: z.string(),
    timezone: z.string(),
    version: z.number().int(),
    data: z.object({
      seasons: z.array(Season),
      hourlyPrices: z.partialRecord(zWeekday, HourlyPrice).openapi({ description: 'Hourly rules of the all-year season ({} when there is none)' }),
      dailyPrices: z.partialRecord(zWeekday, money()).openapi({ description: 'Daily rates of the all-year season ({} when there is none)' }),
      tourPricing: TourPricing.nullable(),
      addons: z.array(Addon),
      taxes: z.array(Tax),
      scheduleExceptions: z.array(ScheduleException),
      capacityOverrides: z.array(CapacityOverride),
      maintenanceBlocks: z.array(MaintenanceBlock),
      deposit: z.object({ amount: z.number(), required: z.boolean() }).nullable(),
      turnaroundBufferMinutes: z.number().int(),
    }),
  })
  .openapi('InventoryPricing');

export const PricingResult = PricingView.extend({ success: z.boolean() }).openapi('InventoryPricingResult');

export const UploadForm = z.object({
  file: z.file().describe('The file (a single part). Photos: JPEG, PNG, WebP or GIF up to 10 MB. Videos: MP4, QuickTime (.mov) or WebM up to 50 MB.'),
});

export const UploadResult = z
  .object({
    success: z.boolean(),
    inventory_id: z.string(),
    inventoryId: z.string(),
    key: z.string().openapi({ description: 'Storage key of the file' }),
    url: z.string().openapi({ description: 'Public URL: photos GET /inventory/photos/... (the largest variant), videos GET /inventory/media/...' }),
    contentType: z.string().openapi({ description: 'Type read from the file content' }),
    size: z.number().int(),
    width: z.number().int().nullable().openapi({ description: 'Photos: as the photo is seen (EXIF orientation applied); videos: null' }),
    height: z.number().int().nullable(),
    photoId: z.string().optional().openapi({ description: 'Photos: the id in the variant URLs' }),
    variantType: z.enum(['image/jpeg', 'image/png', 'image/webp']).optional().openapi({ description: 'Photos: the type of the variants' }),
    variants: z
      .array(z.object({ width: z.number().int(), height: z.number().int(), url: z.string() }))
      .optional()
      .openapi({ description: 'Photos: every served size, smallest first; `url` (and data.images) is the largest' }),
    images: z.array(z.string()).optional(),
    videos: z.array(z.string()).optional(),
    version: z.number().int(),
  })
  .openapi('InventoryUploadResult');

export const AssetMapBody = z
  .object({
    pins: z
      .array(MapPin.extend({ assetId: zId() }))
      .max(500)
      .openapi({ description: 'Every pin of the map (replaces the previous configuration; an asset not listed has no pin)' }),
    mapImage: z
      .object({
        data: z.string().min(1).max(14_000_000).openapi({ description: 'Base64 of the image, or a data URL (`data:image/png;base64,...`)' }),
        fileName: z.string().max(200).optional(),
      })
      .optional()
      .openapi({ description: 'A new map image: PNG, JPEG, WebP or GIF up to 10 MB' }),
    removeMapImage: z.boolean().optional().openapi({ description: 'true removes the current map image' }),
  })
  .refine((b) => !(b.mapImage && b.removeMapImage), { message: 'give mapImage or removeMapImage, not both', path: ['removeMapImage'] })
  .openapi('AssetMapConfig');

export const AssetMapResult = z
  .object({
    success: z.boolean(),
    inventory_id: z.string(),
    inventoryId: z.string(),
    assetMap: z
      .object({
        imageUrl: z.string().nullable(),
        contentType: z.string().nullable().optional(),
        width: z.number().nullable().optional(),
        height: z.number().nullable().optional(),
        updatedAt: z.string().optional(),
      })
      .nullable(),
    pins: z.array(MapPin.extend({ assetId: z.string(), name: z.string() })),
    version: z.number().int(),
  })
  .openapi('AssetMapResult');

export const MediaParams = z.object({
  customerId: zId().openapi({ param: { name: 'customerId', in: 'path' } }),
  itemId: zId().openapi({ param: { name: 'itemId', in: 'path' } }),
  folder: z.enum(['photos', 'videos', 'asset-map']).openapi({ param: { name: 'folder', in: 'path' } }),
  file: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}\.[a-z0-9]{2,5}$/, 'not a media file name')
    .openapi({ param: { name: 'file', in: 'path' } }),
});

export const PhotoParams = z.object({
  customerId: zId().openapi({ param: { name: 'customerId', in: 'path' } }),
  itemId: zId().openapi({ param: { name: 'itemId', in: 'path' } }),
  photoId: z
    .string()
    .regex(/^[0-9a-z]{26}-[1-9]\d{0,4}x[1-9]\d{0,4}$/, 'not a photo id')
    .openapi({ param: { name: 'photoId', in: 'path' }, example: '01jd5x0k3v8r6m2n4p7q9s1t3w-1280x960' }),
  variant: z
    .string()
    .regex(/^w[1-9]\d{0,4}\.(jpg|png|webp)$/, 'a variant is w<width>.<jpg|png|webp>')
    .openapi({ param: { name: 'variant', in: 'path' }, example: 'w640.jpg' }),
});
