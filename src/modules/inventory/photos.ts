import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import { ulid } from '../../lib/ids';
import { checkUpload, mediaKey, mediaUrl, type MediaFolder, type MediaKind } from './media';
import { storePhoto, type StoredPhoto } from './photo-files';
import type { PhotoVariants } from '../../adapters/images';
import { getItemInTenant } from './queries';
import { dataUpdateStmt, withVersionRetry } from './version';
import { inventoryErrors } from './errors';

export const MAX_IMAGES = 50;
export const MAX_VIDEOS = 20;

// ---------------------------------------------------------------------------------------------
// Photos and videos

export interface UploadFile {
  bytes: Uint8Array;
  name?: string;
}

/**
 * Stores a photo or video in R2 under `<customerId>/inventory/<itemId>/` and appends its URL to
 * data.images / data.videos. `readFile` is called once the item is known to be the caller's, so an
 * unknown item answers 404 before the body is read. A photo is stored with its resized variants
 * (photo-files.ts) and the URL appended is its largest variant's; a video is stored as sent.
 */
export async function uploadMedia(
  ctx: Ctx,
  itemId: string,
  kind: MediaKind,
  readFile: () => Promise<UploadFile>,
  baseUrl: string,
  opts: { prepared?: PhotoVariants } = {},
) {
  requirePermission(ctx, 'inventory');
  const customerId = tenantOf(ctx);
  const field = kind === 'photo' ? 'images' : 'videos';
  const limit = kind === 'photo' ? MAX_IMAGES : MAX_VIDEOS;
  const item = await getItemInTenant(ctx, itemId);
  const full = () => inventoryErrors.fail('limit_reached', `An item holds at most ${limit} ${field}; remove one with POST /inventory/setup first`);
  const count = ((((item.data ?? {}) as Record<string, unknown>)[field] as unknown[] | undefined) ?? []).length;
  if (count >= limit) throw full();
  const file = await readFile();
  const found = checkUpload(kind, file.bytes);
  const uploadedBy = ctx.principal.userId ?? ctx.principal.credentialId;
  const originalName = (file.name ?? '').slice(0, 200);
  let key: string;
  let url: string;
  let keys: string[];
  let photo: StoredPhoto | null = null;
  if (kind === 'photo') {
    photo = await storePhoto(ctx, { customerId, itemId: item.id, bytes: file.bytes, found, baseUrl, uploadedBy, originalName, prepared: opts.prepared });
    ({ key, url, keys } = photo);
  } else {
    const fileName = `${ulid().toLowerCase()}.${found.ext}`;
    key = mediaKey(customerId, item.id, 'videos', fileName);
    url = mediaUrl(baseUrl, customerId, item.id, 'videos', fileName);
    keys = [key];
    await ctx.env.FILES.put(key, file.bytes, {
      httpMetadata: { contentType: found.mime, cacheControl: 'public, max-age=31536000, immutable' },
      customMetadata: { customerId, itemId: item.id, kind, originalName, uploadedBy },
    });
  }
  try {
    const result = await withVersionRetry(undefined, async () => {
      const fresh = await getItemInTenant(ctx, itemId);
      const data = { ...((fresh.data ?? {}) as Record<string, unknown>) };
      const list = [...((data[field] as string[] | undefined) ?? []), url];
      if (list.length > limit) throw full();
      data[field] = list;
      await commit(ctx, [dataUpdateStmt(ctx, fresh, data)], {
        audit: {
          action: `inventory.${kind}_upload`,
          targetType: 'inventory_item',
          targetId: fresh.id,
          details: { key, contentType: found.mime, size: file.bytes.length, ...(photo ? { variants: photo.variants.map((v) => v.width) } : {}) },
        },
      });
      return { list, version: fresh.version + 1 };
    });
    return {
      success: true,
      inventory_id: item.id,
      inventoryId: item.id,
      key,
      url,
      contentType: found.mime,
      size: file.bytes.length,
      width: photo ? photo.source.width : found.width,
      height: photo ? photo.source.height : found.height,
      ...(photo ? { photoId: photo.photoId, variantType: photo.variantType, variants: photo.variants } : {}),
      [field]: result.list,
      version: result.version,
    };
  } catch (err) {
    await ctx.env.FILES.delete(keys).catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Public media

/**
 * A stored inventory media file, public: photos and videos are shown by the booking widget and
 * resellers. Honours a single `Range: bytes=...` (206), as video players need.
 */
export async function openMedia(ctx: Ctx, p: { customerId: string; itemId: string; folder: MediaFolder; file: string }, rangeHeader?: string | null) {
  const key = mediaKey(p.customerId, p.itemId, p.folder, p.file);
  const head = await ctx.env.FILES.head(key);
  if (!head) throw notFound('File');
  const size = head.size;
  let range: { offset: number; length: number } | null = null;
  const m = rangeHeader ? /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim()) : null;
  if (m && (m[1] || m[2])) {
    const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
    const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      throw inventoryErrors.fail('range_not_satisfiable', `The file has ${size} bytes; the requested range is outside it`, {
        headers: { 'content-range': `bytes */${size}` },
      });
    }
    range = { offset: start, length: end - start + 1 };
  }
  const obj = await ctx.env.FILES.get(key, range ? { range } : undefined);
  if (!obj) throw notFound('File');
  const headers: Record<string, string> = {
    'content-type': head.httpMetadata?.contentType ?? 'application/octet-stream',
    'content-length': String(range ? range.length : size),
    'cache-control': head.httpMetadata?.cacheControl ?? 'public, max-age=3600',
    etag: head.httpEtag,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  if (range) headers['content-range'] = `bytes ${range.offset}-${range.offset + range.length - 1}/${size}`;
  return { body: obj.body, status: range ? 206 : 200, headers };
}
