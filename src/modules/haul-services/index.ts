import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import { cancelHaulService, completeHaulService, confirmHaulService, scheduleHaulService, startHaulService } from './lifecycle';
import { addPhotos, photoFile, type PhotoUpload } from './photos';
import { getHaulService, haulServicesOfRenter, haulServicesOfReservation, haulStats, listHaulServices, scheduledOn } from './queries';
import { createHaulService, deleteHaulService, updateHaulService } from './requests';
import { PHOTOS_PER_REQUEST } from './types';

const router = createRouter();

/** The image parts (`file`, repeated) and the optional `caption` of a multipart body. */
async function readPhotos(c: Context<AppEnv>): Promise<{ files: PhotoUpload[]; caption: string | null }> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? ''))
    throw new ApiError('bad_request', 'Send the photos as multipart/form-data in `file` parts');
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ApiError('bad_request', 'Malformed multipart/form-data body');
  }
  const parts = [...form.values()].filter((v): v is File => v instanceof File);
  if (!parts.length)
    throw new ApiError('validation_failed', 'Invalid request: file is required (one or more file parts)', {
      details: [{ field: 'file', location: 'body', code: 'required', message: 'file is required' }],
    });
  if (parts.length > PHOTOS_PER_REQUEST)
    throw new ApiError('validation_failed', `At most ${PHOTOS_PER_REQUEST} photos per request`, {
      details: [{ field: 'file', message: `at most ${PHOTOS_PER_REQUEST}` }],
    });
  const caption = form.get('caption');
  if (typeof caption === 'string' && caption.length > 300)
    throw new ApiError('validation_failed', 'caption is at most 300 characters', { details: [{ field: 'caption', message: 'at most 300 characters' }] });
  return {
    files: await Promise.all(parts.map(async (f) => ({ bytes: new Uint8Array(await f.arrayBuffer()), name: f.name || null }))),
    caption: typeof caption === 'string' && caption.trim() ? caption.trim() : null,
  };
}

// Static paths before /haul-services/{id}.
mount(router, r.list, async (c, { query }) => c.json(await listHaulServices(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => c.json(await createHaulService(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await haulStats(ctxOf(c), query)));
mount(router, r.scheduled, async (c, { params, query }) => c.json(await scheduledOn(ctxOf(c), params.date, query)));
mount(router, r.byRenter, async (c, { params, query }) => c.json(await haulServicesOfRenter(ctxOf(c), params.renterId, query)));
mount(router, r.byReservation, async (c, { params, query }) => c.json(await haulServicesOfReservation(ctxOf(c), params.reservationId, query)));
mount(router, r.get, async (c, { params }) => c.json(await getHaulService(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await updateHaulService(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await deleteHaulService(ctxOf(c), params.id)));
mount(router, r.schedule, async (c, { params, body }) => c.json(await scheduleHaulService(ctxOf(c), params.id, body)));
mount(router, r.confirm, async (c, { params, body }) => c.json(await confirmHaulService(ctxOf(c), params.id, body)));
mount(router, r.start, async (c, { params, body }) => c.json(await startHaulService(ctxOf(c), params.id, body)));
mount(router, r.complete, async (c, { params, body }) => c.json(await completeHaulService(ctxOf(c), params.id, body)));
mount(router, r.cancel, async (c, { params, body }) => c.json(await cancelHaulService(ctxOf(c), params.id, body)));
mount(router, r.photos, async (c, { params }) => c.json(await addPhotos(ctxOf(c), params.id, () => readPhotos(c)), 201));
mount(router, r.photo, async (c, { params }) => {
  const f = await photoFile(ctxOf(c), params.id, params.photoId);
  return c.body(f.bytes, 200, { 'content-type': f.contentType, 'x-content-type-options': 'nosniff' });
});

export default router;
