import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

/** The `file` part (or the only file part) of a multipart/form-data body. */
async function readFile(c: Context<AppEnv>) {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? ''))
    throw new ApiError('bad_request', 'Send the file as multipart/form-data in the field `file`');
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
    throw new ApiError('validation_failed', `Invalid request: ${message}`, { details: [{ field: 'file', location: 'body', code: 'required', message }] });
  }
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name || null };
}

const signer = (c: Context<AppEnv>) => ({
  ip: clientIp(c),
  userAgent: c.req.header('user-agent') ?? null,
});

mount(router, r.magicLink, async (c, { body }) => {
  await limitAbuse(c, 'slip-portal-link', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  return c.json(await svc.requestLink(c, ctxOf(c), body));
});
mount(router, r.invite, async (c, { body }) => c.json(await svc.inviteRenter(ctxOf(c), body)));
mount(router, r.openSession, async (c, { body }) => c.json(await svc.openSession(ctxOf(c), body), 201));
mount(router, r.session, async (c) => c.json(await svc.sessionInfo(ctxOf(c))));
mount(router, r.signOut, async (c) => c.json(await svc.closeSession(ctxOf(c))));
mount(router, r.reservations, async (c, { query }) => c.json(await svc.ownReservations(ctxOf(c), query)));
mount(router, r.upload, async (c) => c.json(await svc.uploadFile(ctxOf(c), () => readFile(c)), 201));
mount(router, r.paymentMethods, async (c) => c.json(await svc.savedCards(ctxOf(c))));
mount(router, r.setupIntent, async (c, { body }) => c.json(await svc.addCard(ctxOf(c), body), 201));
mount(router, r.reservation, async (c, { params }) => c.json(await svc.reservationDetail(ctxOf(c), params.id)));
mount(router, r.vessel, async (c, { params, body }) => c.json(await svc.updateVessel(ctxOf(c), params.id, body)));
mount(router, r.contract, async (c, { params, query }) => {
  const ctx = ctxOf(c);
  if (query.format === 'pdf') {
    const f = await svc.contractFile(ctx, params.id);
    return c.body(f.bytes, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${f.filename}"` });
  }
  return c.json(await svc.viewContract(ctx, params.id));
});
mount(router, r.sign, async (c, { params, body }) => c.json(await svc.signOwnContract(ctxOf(c), params.id, body, signer(c))));
mount(router, r.documents, async (c, { params }) => c.json(await svc.documentsOf(ctxOf(c), params.id)));
mount(router, r.submitDocument, async (c, { params, body }) => c.json(await svc.submitDocument(ctxOf(c), params.id, body), 201));
mount(router, r.messages, async (c, { params, query }) => c.json(await svc.messagesOf(ctxOf(c), params.id, query)));
mount(router, r.sendMessage, async (c, { params, body }) => c.json(await svc.sendMessage(ctxOf(c), params.id, body), 201));
mount(router, r.pay, async (c, { params, body }) => c.json(await svc.pay(ctxOf(c), params.id, body)));
mount(router, r.createIntent, async (c, { params, body }) => c.json(await svc.paymentIntent(ctxOf(c), params.id, body), 201));
mount(router, r.guestPasses, async (c, { params, query }) => c.json(await svc.guestPassesOf(ctxOf(c), params.id, query)));
mount(router, r.addGuestPass, async (c, { params, body }) => c.json(await svc.addGuestPass(ctxOf(c), params.id, body), 201));
mount(router, r.revokeGuestPass, async (c, { params }) => c.json(await svc.revokeGuestPass(ctxOf(c), params.id, params.guestId)));
mount(router, r.haulServices, async (c, { params, query }) => c.json(await svc.haulServicesOf(ctxOf(c), params.id, query)));
mount(router, r.requestHaul, async (c, { params, body }) => c.json(await svc.requestHaul(ctxOf(c), params.id, body), 201));
mount(router, r.cancelHaul, async (c, { params, body }) => c.json(await svc.cancelHaul(ctxOf(c), params.id, params.serviceId, body)));
mount(router, r.confirmHaul, async (c, { params, body }) => c.json(await svc.confirmHaul(ctxOf(c), params.id, params.serviceId, body)));

export default router;
