import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import { cancelByRenter } from './cancel';
import { changeAsRenter, quoteChangeAsRenter } from './change';
import { DOCUMENT_KINDS, type DocumentKind, MAX_DOCUMENT_BYTES, documentFile, listDocuments, uploadDocument } from './documents';
import { cancellationEligibility } from './eligibility';
import { addParticipant, linkParticipantWaiver, listParticipants, operatorParticipants, removeParticipant, updateParticipant } from './participants';
import { maskedPaymentMethods } from './payment-methods';
import { rentalById } from './queries';
import { requestReviews } from './reviews';
import { RENTER_TOKEN_HEADER, requestCode, verifyCode } from './sessions';
import { tipBooking } from './tips';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const renterToken = (c: Context<AppEnv>) => c.req.header(RENTER_TOKEN_HEADER) ?? null;

/** The document of a multipart body: the `file` part (or the only file part) and the optional `kind` field. */
async function readDocument(c: Context<AppEnv>): Promise<{ bytes: Uint8Array; name: string; kind: DocumentKind }> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? ''))
    throw new ApiError('bad_request', 'Send the document as multipart/form-data in the field `file`');
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ApiError('bad_request', 'Malformed multipart/form-data body');
  }
  let file: unknown = form.get('file');
  if (file == null) {
    const files = [...form.values()].filter((v) => v instanceof File);
    if (files.length === 1) file = files[0];
  }
  if (!(file instanceof File)) {
    const message = file == null ? 'file is required (a file part named `file`)' : 'file must be a file part, not a text field';
    throw new ApiError('validation_failed', `Invalid request: ${message}`, {
      details: [{ field: 'file', location: 'body', code: file == null ? 'required' : 'invalid_type', message }],
    });
  }
  const kind = form.get('kind') ?? 'insurance';
  if (typeof kind !== 'string' || !(DOCUMENT_KINDS as readonly string[]).includes(kind)) {
    const message = `kind must be one of ${DOCUMENT_KINDS.join(', ')}`;
    throw new ApiError('validation_failed', `Invalid request: ${message}`, { details: [{ field: 'kind', location: 'body', code: 'invalid_value', message }] });
  }
  if (file.size > MAX_DOCUMENT_BYTES + 1) return { bytes: new Uint8Array(MAX_DOCUMENT_BYTES + 1), name: file.name, kind: kind as DocumentKind };
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name, kind: kind as DocumentKind };
}

mount(router, r.requestCode, async (c, { params }) => {
  await limitAbuse(c, 'renter-code', { operator: async () => (await rentalById(ctxOf(c), params.rentalId)).customerId, target: params.rentalId });
  return c.json(await requestCode(ctxOf(c), params.rentalId, clientIp(c)));
});
mount(router, r.verifyCode, async (c, { params, body }) => c.json(await verifyCode(ctxOf(c), params.rentalId, body)));
mount(router, r.eligibility, async (c, { params }) => c.json(await cancellationEligibility(ctxOf(c), params.rentalId)));
mount(router, r.cancel, async (c, { params, body }) =>
  c.json(await cancelByRenter(ctxOf(c), params.rentalId, { token: renterToken(c) ?? body.token, reason: body.reason })),
);
mount(router, r.changeQuote, async (c, { params, body }) => c.json(await quoteChangeAsRenter(ctxOf(c), params.rentalId, renterToken(c), body)));
mount(router, r.change, async (c, { params, body }) => c.json(await changeAsRenter(ctxOf(c), params.rentalId, renterToken(c), body)));
mount(router, r.tip, async (c, { params, body }) => {
  await limitAbuse(c, 'booking-tip', { operator: async () => (await rentalById(ctxOf(c), params.rentalId)).customerId, target: params.rentalId });
  return c.json(await tipBooking(ctxOf(c), params.rentalId, body));
});
mount(router, r.uploadDocument, async (c, { params }) => c.json(await uploadDocument(ctxOf(c), params.rentalId, clientIp(c), () => readDocument(c))));
mount(router, r.listDocuments, async (c, { params }) => c.json(await listDocuments(ctxOf(c), params.rentalId)));
mount(router, r.downloadDocument, async (c, { params }) => {
  const f = await documentFile(ctxOf(c), params.rentalId, params.documentId);
  return c.body(f.body, 200, {
    'Content-Type': f.contentType,
    'Content-Length': String(f.size),
    'Content-Disposition': `attachment; filename="${f.fileName.replace(/"/g, '')}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  });
});
mount(router, r.paymentMethods, async (c, { query }) => c.json(await maskedPaymentMethods(ctxOf(c), query.stripeCustomerId, clientIp(c))));
mount(router, r.reviews, async (c, { params, body }) => {
  await limitAbuse(c, 'review-request', {
    operator: async () => (await locationRowAnyOperator(ctxOf(c), params.locationId))?.customerId,
    target: body.rentalId,
  });
  return c.json(await requestReviews(ctxOf(c), params.locationId, body));
});
mount(router, r.listParticipants, async (c, { params }) => c.json(await listParticipants(ctxOf(c), params.rentalId, renterToken(c))));
mount(router, r.addParticipant, async (c, { params, body }) => c.json(await addParticipant(ctxOf(c), params.rentalId, renterToken(c), body), 201));
mount(router, r.updateParticipant, async (c, { params, body }) =>
  c.json(await updateParticipant(ctxOf(c), params.rentalId, params.participantId, renterToken(c), body)),
);
mount(router, r.removeParticipant, async (c, { params }) => c.json(await removeParticipant(ctxOf(c), params.rentalId, params.participantId, renterToken(c))));
mount(router, r.linkWaiver, async (c, { params, body }) =>
  c.json(await linkParticipantWaiver(ctxOf(c), params.rentalId, params.participantId, renterToken(c), body)),
);
mount(router, r.operatorParticipants, async (c, { params }) => c.json(await operatorParticipants(ctxOf(c), params.rentalId)));

export default router;
