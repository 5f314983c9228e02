/**
 * Photos of haul services (the boat's condition at haul-out, damage found, the work done): images
 * by content (JPEG, PNG, WebP, HEIC; the declared type is never trusted), at most 10 MB each, stored
 * in R2 under `haul-services/{customerId}/{serviceId}/`. They are appended with the service's
 * compare-and-swap (retried on a race), so parallel uploads never lose a photo; at most 50 are kept.
 */
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { EXTENSIONS, sniffFile } from '../../lib/sniff';
import type { HaulPhoto } from '../../db/schema/haul-services';
import { commitChange } from './change';
import { haulErrors } from './errors';
import { getHaulRow, haulView } from './queries';
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from './types';

export interface PhotoUpload {
  bytes: Uint8Array;
  name: string | null;
}

/** POST /haul-services/{id}/photos: stores the images and appends them to the service (all or none). */
export async function addPhotos(ctx: Ctx, id: string, read: () => Promise<{ files: PhotoUpload[]; caption: string | null }>) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  const { files, caption } = await read();
  const checked = files.map((f, i) => {
    const type = f.bytes.length && f.bytes.length <= MAX_PHOTO_BYTES ? sniffFile(f.bytes.subarray(0, 64)) : null;
    if (!type || type === 'application/pdf')
      throw haulErrors.fail(
        'haul_photo_not_accepted',
        `Photo ${i + 1}${f.name ? ` (${f.name})` : ''} is ${f.bytes.length > MAX_PHOTO_BYTES ? 'larger than 10 MB' : 'not a JPEG, PNG, WebP or HEIC image'}`,
      );
    return { f, type };
  });
  if (h.photos.length + checked.length > MAX_PHOTOS)
    throw haulErrors.fail('haul_photo_limit', `The service has ${h.photos.length} photos; at most ${MAX_PHOTOS} are kept`);
  const now = nowIso(ctx);
  const photos: HaulPhoto[] = [];
  for (const { f, type } of checked) {
    const pid = newId('hph');
    const key = `haul-services/${h.customerId}/${h.id}/${pid}.${EXTENSIONS[type]}`;
    await ctx.env.FILES.put(key, f.bytes, { httpMetadata: { contentType: type } });
    photos.push({ id: pid, key, contentType: type, sizeBytes: f.bytes.length, caption, uploadedAt: now });
  }
  // Appended with the service's compare-and-swap; a parallel upload makes this one re-read and append again.
  for (let attempt = 0, cur = h; ; attempt++) {
    if (cur.photos.length + photos.length > MAX_PHOTOS) {
      await ctx.env.FILES.delete(photos.map((p) => p.key));
      throw haulErrors.fail('haul_photo_limit', `The service has ${cur.photos.length} photos; at most ${MAX_PHOTOS} are kept`);
    }
    try {
      await commitChange(ctx, cur, { photos: [...cur.photos, ...photos] }, [], { action: 'haul_service.photos', details: { added: photos.map((p) => p.id) } });
      break;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'version_conflict') || attempt >= 4) {
        await ctx.env.FILES.delete(photos.map((p) => p.key));
        throw err;
      }
      cur = await getHaulRow(ctx, h.id);
    }
  }
  return haulView(ctx, await getHaulRow(ctx, h.id));
}

/** GET /haul-services/{id}/photos/{photoId}: the stored image. */
export async function photoFile(ctx: Ctx, id: string, photoId: string) {
  const h = await getHaulRow(ctx, id);
  const p = h.photos.find((x) => x.id === photoId);
  if (!p) throw notFound('Photo');
  const obj = await ctx.env.FILES.get(p.key);
  if (!obj) throw notFound('Photo');
  return { bytes: await obj.arrayBuffer(), contentType: p.contentType };
}
