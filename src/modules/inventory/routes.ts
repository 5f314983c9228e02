import { z } from '@hono/zod-openapi';
import { route, UPLOAD_BODY_LIMIT } from '../../lib/openapi';
import * as s from './schemas';
import { PHOTO_TYPES, VIDEO_TYPES } from './media';

const tags = ['Inventory'];

const UPLOAD_NOTE = `Send \`multipart/form-data\` with the file in the field \`file\` (when there is no \`file\` field, a single file part under any
name is taken). The type is read from the file content (magic bytes), not from the declared type or the file name; anything else answers 400
\`unsupported_file_type\`, a file over the limit 400 \`file_too_large\`, a body that is not multipart 400 \`bad_request\`. The file is stored as sent
under \`<customerId>/inventory/<inventory_id>/\` and served publicly at the returned \`url\`. Needs the \`inventory\` permission (admins and
managers have it); another operator's item answers 404.`;

export const uploadPhoto = route({
  method: 'post',
  path: '/inventory/photo/{inventory_id}',
  operationId: 'uploadInventoryPhoto',
  tags,
  summary: 'Upload a photo of an item (appended to data.images)',
  params: s.ItemParam,
  multipart: s.UploadForm,
  ok: s.UploadResult,
  errors: [403, 404],
  description: `Photos: JPEG, PNG, WebP or GIF, at most 10 MB, at most 50 per item. The photo is optimized when it is uploaded: it is resized to
fixed widths (320, 640 and 1280 pixels, never enlarged: a narrower photo also gets a copy of its own width; at most 2560 pixels tall), turned
upright by its EXIF orientation and re-encoded without metadata (opaque photos as JPEG, transparent ones as PNG; with the Cloudflare Images
binding, PNG, WebP and GIF become WebP). \`variants\` lists every size with its URL (\`GET /inventory/photos/...\`); \`url\`, appended to
\`data.images\`, is the largest. The original is kept privately. Without the Images binding, WebP and GIF answer 400 \`unsupported_file_type\`;
a photo too large to decode here (about 16 megapixels for an ordinary JPEG) answers 400 \`image_too_large\`, an undecodable one 400
\`image_unreadable\`. Removing the URL from \`data.images\` with \`POST /inventory/setup\` deletes the photo's files. ${UPLOAD_NOTE}`,
});

export const uploadVideo = route({
  method: 'post',
  path: '/inventory/video/{inventory_id}',
  operationId: 'uploadInventoryVideo',
  tags,
  summary: 'Upload a video of an item (appended to data.videos)',
  params: s.ItemParam,
  multipart: s.UploadForm,
  ok: s.UploadResult,
  errors: [403, 404],
  description: `Videos: MP4, QuickTime (.mov) or WebM, at most 50 MB, at most 20 per item. The file is stored as sent (no re-encoding) and served at
\`GET /inventory/media/...\`. ${UPLOAD_NOTE}`,
});

export const setAssetMap = route({
  method: 'post',
  path: '/inventory/asset-map/{inventory_id}',
  operationId: 'setInventoryAssetMap',
  tags,
  summary: 'Set the asset map: pins of the assets and an optional map image',
  params: s.ItemParam,
  body: s.AssetMapBody,
  // The map image travels base64 in the JSON body (up to 10 MB decoded).
  bodyLimit: UPLOAD_BODY_LIMIT,
  ok: s.AssetMapResult,
  errors: [403, 404],
  description: `JSON body. \`pins\` replaces the whole pin configuration: each pin places one asset of the item at \`x\`/\`y\` percent (0-100) of the
map image; assets not listed lose their pin. Unknown or duplicate asset ids answer 400 with each bad pin in \`details\`. \`mapImage.data\` (base64 or
a data URL; PNG, JPEG, WebP or GIF up to 10 MB, type read from the content) replaces the map image, \`removeMapImage: true\` removes it. Pins are
returned on the assets (\`mapPin\`), the image in \`data.assetMap\`. Another operator's item answers 403, an unknown item 404.`,
});

export const setupInventory = route({
  method: 'post',
  path: '/inventory/setup',
  operationId: 'setupInventoryItem',
  tags,
  summary: 'Create or update an inventory item (settings, pricing, capacity, asset pool)',
  body: s.SetupBody,
  ok: s.SetupResult,
  status: 200,
  errors: [403, 404, 409],
  description: `Without \`inventory_id\` (or \`inventoryId\`) creates an item and answers 200 with \`created: true\`; with it, replaces the item's
\`data\` and answers \`created: false\`. \`data\` is validated with the InventoryData model; rentals need at least one asset, tours a capacity of at
least 1 and at least one time slot. The location must be one of the caller's (404 otherwise). An \`inventory_id\` of another operator answers 403
(this endpoint's rule), an unknown one 404. Assets keep their ids across updates: a listed asset is matched by \`assetId\`, then by name; new ones get
ids; stored assets no longer listed are deactivated (kept for the bookings that reference them). \`data.currency\` defaults to the location currency.
\`images\`, \`videos\` and \`assetMap\` are kept when the update omits them. Every write bumps \`version\`; send \`expectedVersion\` to get 409
\`version_conflict\` instead of overwriting a newer change.`,
});

export const listInventory = route({
  method: 'get',
  path: '/inventory/customer',
  operationId: 'listInventory',
  tags,
  summary: "The caller's inventory items in display order",
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.InventoryItem), total: z.number().int() }),
  errors: [403],
  description: `\`customer_id\` must be the caller's own (403 otherwise). Deleted items are not listed. Each item carries its location and time zone,
its data and its live assets.`,
});

export const deleteInventory = route({
  method: 'delete',
  path: '/inventory/delete/{inventory_id}',
  operationId: 'deleteInventoryItem',
  tags,
  summary: 'Delete an inventory item (soft delete)',
  params: s.ItemParam,
  ok: s.DeleteResult,
  errors: [403, 404],
  description: `The item disappears from lists and can no longer be booked; its bookings and records stay as history. Another operator's item answers
403, an unknown or already deleted one 404. An item with upcoming bookings (pending, confirmed or checked in, ending in the future) answers 400
\`has_upcoming_bookings\`.`,
});

export const reorderInventory = route({
  method: 'post',
  path: '/inventory/reorder',
  operationId: 'reorderInventory',
  tags,
  summary: 'Set the display order of the items',
  body: s.ReorderBody,
  ok: s.ReorderResult,
  errors: [403],
  description: `\`orderedBoats\` lists item ids in the wanted order; items not listed follow in their current order. Ids that are not the caller's
live items, or listed twice, answer 400.`,
});

export const getPricing = route({
  method: 'get',
  path: '/inventory-pricing',
  operationId: 'getInventoryPricing',
  tags,
  summary: 'Pricing of an item: seasons, hourly rates, tour fares, add-ons, taxes, schedule exceptions',
  query: s.PricingQuery,
  ok: s.PricingView,
  errors: [404],
  description: `\`hourlyPrices\` and \`dailyPrices\` at the top of \`data\` are those of the all-year season (the season without dates), or \`{}\`.
Prices are pre-tax decimal amounts in \`currency\`.`,
});

export const updatePricing = route({
  method: 'post',
  path: '/inventory-pricing',
  operationId: 'updateInventoryPricing',
  tags,
  summary: 'Update the pricing fields of an item',
  body: s.PricingBody,
  ok: s.PricingResult,
  errors: [403, 404, 409],
  description: `\`data.inventory_id\` (or \`inventoryId\`) names the item. Each pricing field given replaces the stored one (\`tourPricing: null\` and
\`deposit: null\` remove them); \`hourlyPrices\` and \`dailyPrices\` are merged by weekday into the all-year season, which is created when missing.
Other fields are refused. The result is validated with the whole model (400 with each bad field in \`details\`) and bumps \`version\`.`,
});

export const getMedia = route({
  method: 'get',
  path: '/inventory/media/{customerId}/{itemId}/{folder}/{file}',
  operationId: 'getInventoryMedia',
  tags,
  access: 'public',
  summary: 'A stored photo, video or asset map image (public)',
  params: s.MediaParams,
  produces: [...PHOTO_TYPES, ...VIDEO_TYPES],
  errors: [404],
  description: `Serves the files uploaded through the photo, video and asset map endpoints with their content type; the URL is the one those endpoints
return. Supports \`Range\` requests (206) for video players.`,
});

export const getPhoto = route({
  method: 'get',
  path: '/inventory/photos/{customerId}/{itemId}/{photoId}/{variant}',
  operationId: 'getInventoryPhoto',
  tags,
  access: 'public',
  summary: 'A photo of an item at one of its widths (public, cached)',
  params: s.PhotoParams,
  produces: ['image/jpeg', 'image/png', 'image/webp'],
  errors: [404],
  description: `Serves the variants made when the photo was uploaded (\`variants\` of \`POST /inventory/photo/{inventory_id}\`, and the public
catalog's \`photos\`): \`w<width>.<ext>\` for each width the photo has; another width answers 404 \`no_such_variant\` with the widths it has.
The URL names one upload and never changes, so answers are \`Cache-Control: public, max-age=31536000, immutable\` with an \`ETag\`
(\`If-None-Match\` answers 304); the Workers cache sits in front of storage (\`X-Cache: HIT\` or \`MISS\`). \`X-Photo-Width\` and
\`X-Photo-Height\` give the size. Only photo variants are served: originals and other files are not reachable here.`,
});
