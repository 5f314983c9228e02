import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { authorizeDeposit, postDeposit } from './authorize';
import { captureDeposit, releaseDeposit } from './capture-release';
import { auditPreauths, connectionToken, syncMissingPreauth } from './provider-sync';

const router = createRouter();

mount(router, r.authorize, async (c, { body }) => c.json(await authorizeDeposit(ctxOf(c), body)));
mount(router, r.postDeposit, async (c, { body }) => c.json(await postDeposit(ctxOf(c), body)));
mount(router, r.capture, async (c, { body }) => c.json(await captureDeposit(ctxOf(c), body)));
mount(router, r.release, async (c, { body }) => c.json(await releaseDeposit(ctxOf(c), body)));
mount(router, r.sync, async (c, { params, body }) => c.json(await syncMissingPreauth(ctxOf(c), params.paymentIntentId, body)));
mount(router, r.audit, async (c, { params, query }) => c.json(await auditPreauths(ctxOf(c), params.rentalId, query)));
mount(router, r.connectionToken, async (c, { body }) => c.json(await connectionToken(ctxOf(c), body)));

export default router;
