import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import { closeSession, inviteRenter, openSession, requestLink, sessionInfo } from './auth';
import { addGuestPass, cancelHaul, confirmHaul, guestPassesOf, haulServicesOf, requestHaul, revokeGuestPass } from './passes';
import { addCard, pay, paymentIntent, savedCards } from './payments';
import { ownReservations } from './queries';
import {
  contractFile,
  documentsOf,
  messagesOf,
  reservationDetail,
  sendMessage,
  signOwnContract,
  submitDocument,
  updateVessel,
  uploadFile,
  viewContract,
} from './reservation';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';
import { clientIp } from '../../lib/ip-limit';
import { portalPageHtml, renterPageHeaders } from '../../lib/renter-page';

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

mount(router, r.page, (c) =>
  c.html(
    portalPageHtml({ app: 'tenant', title: 'Tenant portal', noscript: 'The tenant portal needs JavaScript. Please call the marina office.' }),
    200,
    renterPageHeaders(c.env, { framed: false }),
  ),
);
mount(router, r.magicLink, async (c, { body }) => {
  await limitAbuse(c, 'slip-portal-link', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  return c.json(await requestLink(c, ctxOf(c), body));
});
mount(router, r.invite, async (c, { body }) => c.json(await inviteRenter(ctxOf(c), body)));
mount(router, r.openSession, async (c, { body }) => c.json(await openSession(ctxOf(c), body), 201));
mount(router, r.session, async (c) => c.json(await sessionInfo(ctxOf(c))));
mount(router, r.signOut, async (c) => c.json(await closeSession(ctxOf(c))));
mount(router, r.reservations, async (c, { query }) => c.json(await ownReservations(ctxOf(c), query)));
mount(router, r.upload, async (c) => c.json(await uploadFile(ctxOf(c), () => readFile(c)), 201));
mount(router, r.paymentMethods, async (c) => c.json(await savedCards(ctxOf(c))));
mount(router, r.setupIntent, async (c, { body }) => c.json(await addCard(ctxOf(c), body), 201));
mount(router, r.reservation, async (c, { params }) => c.json(await reservationDetail(ctxOf(c), params.id)));
mount(router, r.vessel, async (c, { params, body }) => c.json(await updateVessel(ctxOf(c), params.id, body)));
mount(router, r.contract, async (c, { params, query }) => {
  const ctx = ctxOf(c);
  if (query.format === 'pdf') {
    const f = await contractFile(ctx, params.id);
    return c.body(f.bytes, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${f.filename}"` });
  }
  return c.json(await viewContract(ctx, params.id));
});
mount(router, r.sign, async (c, { params, body }) => c.json(await signOwnContract(ctxOf(c), params.id, body, signer(c))));
mount(router, r.documents, async (c, { params }) => c.json(await documentsOf(ctxOf(c), params.id)));
mount(router, r.submitDocument, async (c, { params, body }) => c.json(await submitDocument(ctxOf(c), params.id, body), 201));
mount(router, r.messages, async (c, { params, query }) => c.json(await messagesOf(ctxOf(c), params.id, query)));
mount(router, r.sendMessage, async (c, { params, body }) => c.json(await sendMessage(ctxOf(c), params.id, body), 201));
mount(router, r.pay, async (c, { params, body }) => c.json(await pay(ctxOf(c), params.id, body)));
mount(router, r.createIntent, async (c, { params, body }) => c.json(await paymentIntent(ctxOf(c), params.id, body), 201));
mount(router, r.guestPasses, async (c, { params, query }) => c.json(await guestPassesOf(ctxOf(c), params.id, query)));
mount(router, r.addGuestPass, async (c, { params, body }) => c.json(await addGuestPass(ctxOf(c), params.id, body), 201));
mount(router, r.revokeGuestPass, async (c, { params }) => c.json(await revokeGuestPass(ctxOf(c), params.id, params.guestId)));
mount(router, r.haulServices, async (c, { params, query }) => c.json(await haulServicesOf(ctxOf(c), params.id, query)));
mount(router, r.requestHaul, async (c, { params, body }) => c.json(await requestHaul(ctxOf(c), params.id, body), 201));
mount(router, r.cancelHaul, async (c, { params, body }) => c.json(await cancelHaul(ctxOf(c), params.id, params.serviceId, body)));
mount(router, r.confirmHaul, async (c, { params, body }) => c.json(await confirmHaul(ctxOf(c), params.id, params.serviceId, body)));

export default router;
