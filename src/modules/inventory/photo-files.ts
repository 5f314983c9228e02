/**
 * Item photos in R2 and their public URLs.
 *
 * An uploaded photo is stored once as sent (private: no route serves it) and as fixed-width
 * variants (adapters/images.ts), each under the photo's own folder:
 *
 *   `<customerId>/inventory/<itemId>/photos/<photoId>/original.<ext>`   the upload, kept for reprocessing
 *   `<customerId>/inventory/<itemId>/photos/<photoId>/w<width>.<ext>`   the variants, public
 *
 * `photoId` is `<ulid>-<width>x<height>` (the largest variant's size), so a URL never changes
 * meaning (a new upload is a new id: the URLs are immutable and cached for a year) and a page can
 * derive every variant, with its size, from the one URL kept in `data.images`.
 */
import type { Ctx } from '../../lib/context';
import { ulid } from '../../lib/ids';
import { notFound } from '../../lib/errors';
import { photoVariants, ImageError, type PhotoVariants } from '../../adapters/images';
import { variantSizes, type Size, type VariantType } from '../../lib/image/variants';
import { mediaKey, type Sniffed } from './media';
import { inventoryErrors } from './errors';

const EXT_OF: Record<VariantType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };
const TYPE_OF: Record<string, VariantType> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
export const PHOTO_ID = /^[0-9a-z]{26}-([1-9]\d{0,4})x([1-9]\d{0,4})$/;
export const VARIANT_FILE = /^w([1-9]\d{0,4})\.(jpg|png|webp)$/;
const PHOTO_PATH = /\/inventory\/photos\/([^/]+)\/([^/]+)\/([0-9a-z]{26}-[1-9]\d{0,4}x[1-9]\d{0,4})\/w[1-9]\d{0,4}\.(jpg|png|webp)$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const folderOf = (customerId: string, itemId: string, photoId: string) => `${mediaKey(customerId, itemId, 'photos', photoId)}/`;
const fileOf = (width: number, ext: string) => `w${width}.${ext}`;
const urlOf = (baseUrl: string, customerId: string, itemId: string, photoId: string, file: string) =>
  `${baseUrl.replace(/\/$/, '')}/inventory/photos/${encodeURIComponent(customerId)}/${encodeURIComponent(itemId)}/${photoId}/${file}`;

export interface PhotoRef {
  customerId: string;
  itemId: string;
  photoId: string;
  largest: Size;
  ext: string;
  /** The URL without its last segment (`.../<photoId>/`). */
  prefix: string;
  /** The same from `/inventory/photos/` on (no origin). */
  pathPrefix: string;
}

/** A photo URL of this API (any of its variants), or null for any other URL (an external image, an older upload). */
export function parsePhotoUrl(url: string): PhotoRef | null {
  const path = url.split(/[?#]/)[0];
  const m = PHOTO_PATH.exec(path);
  if (!m) return null;
  const size = PHOTO_ID.exec(m[3])!;
  return {
    customerId: decodeURIComponent(m[1]),
    itemId: decodeURIComponent(m[2]),
    photoId: m[3],
    largest: { width: Number(size[1]), height: Number(size[2]) },
    ext: m[4],
    prefix: path.slice(0, path.lastIndexOf('/') + 1),
    pathPrefix: path.slice(m.index, path.lastIndexOf('/') + 1),
  };
}

export interface PhotoSources {
  /** The URL for `src`: the 640 variant when there is one, else the largest. */
  src: string;
  /** `url 320w, url 640w, ...` for `srcset`; null for an image Berth did not resize. */
  srcset: string | null;
  /** Intrinsic size of the largest variant (the aspect ratio of every variant); null when unknown. */
  width: number | null;
  height: number | null;
  variants: (Size & { url: string })[];
  alt: string;
}

/**
 * What a page needs to show an item image: variants for Berth's photos, the URL as it is for others.
 * With `origin`, Berth's photo URLs are given on it (the URL kept names the origin of its upload,
 * which a sandbox seeded on another port, or a new domain, does not serve).
 */
export function photoSources(url: string, alt: string, origin?: string): PhotoSources {
  const ref = parsePhotoUrl(url);
  if (!ref) return { src: url, srcset: null, width: null, height: null, variants: [], alt };
  const base = origin ? `${origin.replace(/\/$/, '')}${ref.pathPrefix}` : ref.prefix;
  const variants = variantSizes(ref.largest).map((s) => ({ ...s, url: `${base}${fileOf(s.width, ref.ext)}` }));
  const src = (variants.find((v) => v.width === 640) ?? variants[variants.length - 1]).url;
  return { src, srcset: variants.map((v) => `${v.url} ${v.width}w`).join(', '), width: ref.largest.width, height: ref.largest.height, variants, alt };
}

// ---------------------------------------------------------------------------------------------
// Storing

export interface StoredPhoto {
  photoId: string;
  /** R2 key of the original. */
  key: string;
  /** Every key written (original and variants), for a rollback. */
  keys: string[];
  /** URL of the largest variant (the one kept in data.images). */
  url: string;
  variantType: VariantType;
  source: Size;
  variants: (Size & { url: string })[];
}

export interface PhotoUpload {
  customerId: string;
  itemId: string;
  bytes: Uint8Array;
  found: Sniffed;
  baseUrl: string;
  uploadedBy: string;
  originalName: string;
  /** Variants already made from these same bytes (the sandbox seed makes each demo photo's once per isolate). */
  prepared?: PhotoVariants;
}

/** Makes the variants of an uploaded photo and stores them with the original; 400 when the photo cannot be processed. */
export async function storePhoto(ctx: Ctx, up: PhotoUpload): Promise<StoredPhoto> {
  const { customerId, itemId, bytes, found, baseUrl } = up;
  let made: PhotoVariants;
  try {
    made = up.prepared ?? (await photoVariants(ctx.env, bytes, found.mime));
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    const details = [{ field: 'file', location: 'body', code: err.reason, message: err.message }];
    if (err.reason === 'too_large') throw inventoryErrors.fail('image_too_large', err.message, { details });
    if (err.reason === 'unsupported') throw inventoryErrors.fail('unsupported_file_type', err.message, { details });
    throw inventoryErrors.fail('image_unreadable', err.message, { details });
  }
  const largest = made.variants[made.variants.length - 1];
  const photoId = `${ulid().toLowerCase()}-${largest.width}x${largest.height}`;
  const folder = folderOf(customerId, itemId, photoId);
  const ext = EXT_OF[made.contentType];
  const key = `${folder}original.${found.ext}`;
  const common = { customerId, itemId, photoId, engine: made.engine, uploadedBy: up.uploadedBy };
  const writes: Promise<unknown>[] = [
    ctx.env.FILES.put(key, bytes, {
      httpMetadata: { contentType: found.mime },
      customMetadata: { ...common, kind: 'photo_original', originalName: up.originalName },
    }),
  ];
  const variants = made.variants.map((v) => {
    const file = fileOf(v.width, ext);
    writes.push(
      ctx.env.FILES.put(`${folder}${file}`, v.bytes, {
        httpMetadata: { contentType: made.contentType, cacheControl: IMMUTABLE },
        customMetadata: { ...common, kind: 'photo_variant', width: String(v.width), height: String(v.height) },
      }),
    );
    return { width: v.width, height: v.height, url: urlOf(baseUrl, customerId, itemId, photoId, file) };
  });
  const keys = [key, ...made.variants.map((v) => `${folder}${fileOf(v.width, ext)}`)];
  try {
    await Promise.all(writes);
  } catch (err) {
    await ctx.env.FILES.delete(keys).catch(() => undefined);
    throw err;
  }
  return { photoId, key, keys, url: variants[variants.length - 1].url, variantType: made.contentType, source: made.source, variants };
}

/**
 * Deletes the files (original and variants) of the photos behind `urls` that belong to this item,
 * and drops their variants from this location's cache. Other URLs are ignored.
 */
export async function deletePhotoFiles(ctx: Ctx, customerId: string, itemId: string, urls: string[]): Promise<number> {
  let deleted = 0;
  for (const url of urls) {
    const ref = parsePhotoUrl(url);
    if (!ref || ref.customerId !== customerId || ref.itemId !== itemId) continue;
    const listed = await ctx.env.FILES.list({ prefix: folderOf(customerId, itemId, ref.photoId) });
    const keys = listed.objects.map((o) => o.key);
    if (keys.length) await ctx.env.FILES.delete(keys);
    deleted += keys.length;
    const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
    if (cache) {
      await Promise.all(variantSizes(ref.largest).map((s) => cache.delete(new Request(`${ref.prefix}${fileOf(s.width, ref.ext)}`)).catch(() => false)));
    }
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// Serving

export interface PhotoParams {
  customerId: string;
  itemId: string;
  photoId: string;
  variant: string;
}

const etagMatches = (header: string | null, etag: string) =>
  !!header && header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));

/**
 * A photo variant, public. The Workers cache of the location sits in front of R2 (a second request
 * is answered from it); answers carry a year-long immutable Cache-Control and an ETag, and a
 * matching If-None-Match answers 304. Only variant files are served: the original, and any other
 * file of the operator, is not reachable through this route.
 */
export async function openPhotoVariant(ctx: Ctx, p: PhotoParams, requestUrl: string, ifNoneMatch: string | null): Promise<Response> {
  const id = PHOTO_ID.exec(p.photoId);
  const file = VARIANT_FILE.exec(p.variant);
  if (!id || !file) throw notFound('Photo');
  const largest = { width: Number(id[1]), height: Number(id[2]) };
  const width = Number(file[1]);
  const size = variantSizes(largest).find((s) => s.width === width);
  if (!size) {
    throw inventoryErrors.fail(
      'no_such_variant',
      `This photo is served at widths ${variantSizes(largest)
        .map((s) => s.width)
        .join(', ')}`,
      {
        extra: { widths: variantSizes(largest).map((s) => s.width) },
      },
    );
  }
  return serveVariant(ctx, p, size, TYPE_OF[file[2]], requestUrl, ifNoneMatch);
}

async function serveVariant(
  ctx: Ctx,
  p: PhotoParams,
  size: Size,
  fallbackType: VariantType,
  requestUrl: string,
  ifNoneMatch: string | null,
): Promise<Response> {
  const u = new URL(requestUrl);
  const cacheKey = new Request(`${u.origin}${u.pathname}`);
  const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  let body: ArrayBuffer;
  let etag: string;
  let type: string;
  let status: 'HIT' | 'MISS' = 'MISS';
  const hit = cache ? await cache.match(cacheKey) : undefined;
  if (hit && hit.status === 200) {
    body = await hit.arrayBuffer();
    etag = hit.headers.get('etag') ?? '';
    type = hit.headers.get('content-type') ?? fallbackType;
    status = 'HIT';
  } else {
    const obj = await ctx.env.FILES.get(`${folderOf(p.customerId, p.itemId, p.photoId)}${p.variant}`);
    if (!obj || obj.customMetadata?.kind !== 'photo_variant') {
      await obj?.body.cancel();
      throw notFound('Photo');
    }
    body = await obj.arrayBuffer();
    etag = obj.httpEtag;
    type = obj.httpMetadata?.contentType ?? fallbackType;
  }
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': IMMUTABLE,
    etag,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
    'x-photo-width': String(size.width),
    'x-photo-height': String(size.height),
    'x-cache': status,
  };
  if (status === 'MISS' && cache) {
    ctx.waitUntil(
      cache.put(cacheKey, new Response(body.slice(0), { headers: { ...headers, 'content-length': String(body.byteLength) } })).catch(() => undefined),
    );
  }
  if (etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, 'content-length': String(body.byteLength) } });
}
