import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import { setAssetMap } from './asset-map';
import { deleteInventory } from './delete';
import { type UploadFile, openMedia, uploadMedia } from './photos';
import { openPhotoVariant } from './photo-files';
import { getPricing, updatePricing } from './pricing-data';
import { listInventory } from './queries';
import { reorderInventory } from './reorder';
import { setupInventory } from './setup';

const router = createRouter();

const baseUrl = (c: Context<AppEnv>) => c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin;

/** The uploaded file of a multipart/form-data body: the `file` field, or the only file part. */
async function readUpload(c: Context<AppEnv>): Promise<UploadFile> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw new ApiError('bad_request', 'Send the file as multipart/form-data in the field `file`');
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ApiError('bad_request', 'Malformed multipart/form-data body');
  }
  let file: unknown = form.get('file');
  if (!(file instanceof File)) {
    const files = [...form.values()].filter((v) => v instanceof File);
    if (file == null && files.length === 1) file = files[0];
  }
  if (!(file instanceof File)) {
    const message = file == null ? 'file is required (a file part named `file`)' : 'file must be a file part, not a text field';
    throw new ApiError('validation_failed', `Invalid request: ${message}`, {
      details: [{ field: 'file', location: 'body', code: file == null ? 'required' : 'invalid_type', message }],
    });
  }
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

mount(router, r.uploadPhoto, async (c, { params }) => c.json(await uploadMedia(ctxOf(c), params.inventory_id, 'photo', () => readUpload(c), baseUrl(c))));
mount(router, r.uploadVideo, async (c, { params }) => c.json(await uploadMedia(ctxOf(c), params.inventory_id, 'video', () => readUpload(c), baseUrl(c))));
mount(router, r.setAssetMap, async (c, { params, body }) => c.json(await setAssetMap(ctxOf(c), params.inventory_id, body, baseUrl(c))));
mount(router, r.setupInventory, async (c, { body }) => c.json(await setupInventory(ctxOf(c), body), 200));
mount(router, r.listInventory, async (c, { query }) => c.json(await listInventory(ctxOf(c), query)));
mount(router, r.deleteInventory, async (c, { params }) => c.json(await deleteInventory(ctxOf(c), params.inventory_id)));
mount(router, r.reorderInventory, async (c, { body }) => c.json(await reorderInventory(ctxOf(c), body)));
mount(router, r.getPricing, async (c, { query }) => c.json(await getPricing(ctxOf(c), query)));
mount(router, r.updatePricing, async (c, { body }) => c.json(await updatePricing(ctxOf(c), body.data)));
mount(router, r.getMedia, async (c, { params }) => {
  const file = await openMedia(ctxOf(c), params, c.req.header('range'));
  return new Response(file.body, { status: file.status, headers: file.headers });
});

// Awaited here (not returned as is): a refusal rejects before the router holds the promise.
mount(router, r.getPhoto, async (c, { params }) => await openPhotoVariant(ctxOf(c), params, c.req.url, c.req.header('if-none-match') ?? null));

export default router;
