import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { MAX_DOCUMENT_BYTES } from '../slip-documents/service';
import * as r from './routes';
import { calculatePrice, joinWaitlist, locationInfo, publicAvailability, publicDetail, publicList, publicMaps } from './pages';
import { book, bookingDocuments, submitDocumentMetadata, uploadDocumentFile } from './booking';
import { READS_PER_IP, WRITES_PER_IP } from './types';
import { limitAbuse } from '../../lib/abuse';
import { slipRowAnyOperator } from '../slips/service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

const baseUrl = (c: Context<AppEnv>) => c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin;

/** Anonymous pages are limited per IP address: reads and writes in buckets of their own. */
async function limited(c: Context<AppEnv>, kind: 'read' | 'write', run: () => Promise<Response>): Promise<Response> {
  const headers = await enforceRateLimit(c, `public-slips-${kind}:${clientIp(c)}`, kind === 'read' ? READS_PER_IP : WRITES_PER_IP);
  const res = await run();
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

// Static paths before /public/slips/{slipId}.
mount(router, r.maps, (c, { params }) => limited(c, 'read', async () => c.json(await publicMaps(ctxOf(c), params.locationId))));
mount(router, r.list, (c, { params, query }) => limited(c, 'read', async () => c.json(await publicList(ctxOf(c), params.locationId, query))));
mount(router, r.location, (c, { params }) => limited(c, 'read', async () => c.json(await locationInfo(ctxOf(c), params.locationId))));
mount(router, r.calculatePrice, (c, { body }) => limited(c, 'read', async () => c.json(await calculatePrice(ctxOf(c), body))));
mount(router, r.book, (c, { body }) =>
  limited(c, 'write', async () => {
    await limitAbuse(c, 'slip-booking', {
      operator: async () => (await slipRowAnyOperator(ctxOf(c), body.slipId))?.customerId,
      target: body.paymentMethodId ?? body.renter.email,
    });
    return c.json(await book(ctxOf(c), body), 201);
  }),
);
mount(router, r.reservationDocuments, (c, { params }) =>
  limited(c, 'read', async () => c.json(await bookingDocuments(ctxOf(c), params.reservationId, c.req.header('x-booking-token')))),
);
mount(router, r.submitDocument, (c, { params, body }) =>
  limited(c, 'write', async () => c.json(await submitDocumentMetadata(ctxOf(c), params.reservationId, c.req.header('x-booking-token'), body, baseUrl(c)), 201)),
);
mount(router, r.uploadFile, (c, { params, query }) =>
  limited(c, 'write', async () => {
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > MAX_DOCUMENT_BYTES) throw new ApiError('payload_too_large', `A document is at most ${MAX_DOCUMENT_BYTES / 1048576} MB`);
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_DOCUMENT_BYTES) throw new ApiError('payload_too_large', `A document is at most ${MAX_DOCUMENT_BYTES / 1048576} MB`);
    return c.json(await uploadDocumentFile(ctxOf(c), params.documentId, query.token, bytes));
  }),
);
mount(router, r.detail, (c, { params }) => limited(c, 'read', async () => c.json(await publicDetail(ctxOf(c), params.slipId))));
mount(router, r.availability, (c, { params, query }) => limited(c, 'read', async () => c.json(await publicAvailability(ctxOf(c), params.slipId, query))));
mount(router, r.joinWaitlist, (c, { params, body }) =>
  limited(c, 'write', async () => {
    await limitAbuse(c, 'slip-waitlist-join', {
      operator: async () => (await slipRowAnyOperator(ctxOf(c), params.slipId))?.customerId,
      target: body.renter.email,
    });
    const out = await joinWaitlist(ctxOf(c), params.slipId, body);
    return c.json(out.result, out.created ? 201 : 200);
  }),
);

export default router;
