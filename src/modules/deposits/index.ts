import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.authorize, async (c, { body }) => c.json(await svc.authorizeDeposit(ctxOf(c), body)));
mount(router, r.postDeposit, async (c, { body }) => c.json(await svc.postDeposit(ctxOf(c), body)));
mount(router, r.capture, async (c, { body }) => c.json(await svc.captureDeposit(ctxOf(c), body)));
mount(router, r.release, async (c, { body }) => c.json(await svc.releaseDeposit(ctxOf(c), body)));
mount(router, r.sync, async (c, { params, body }) => c.json(await svc.syncMissingPreauth(ctxOf(c), params.paymentIntentId, body)));
mount(router, r.audit, async (c, { params, query }) => c.json(await svc.auditPreauths(ctxOf(c), params.rentalId, query)));
mount(router, r.connectionToken, async (c, { body }) => c.json(await svc.connectionToken(ctxOf(c), body)));

export default router;
