import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.placeCall, async (c, { body }) => c.json(await svc.placePartnerCall(ctxOf(c), body), 201));
mount(router, r.listCalls, async (c, { query }) => c.json(await svc.listPartnerCalls(ctxOf(c), query)));
mount(router, r.getCall, async (c, { params }) => c.json(await svc.getPartnerCall(ctxOf(c), params.callId)));
mount(router, r.hangup, async (c, { params }) => c.json(await svc.hangupPartnerCall(ctxOf(c), params.callId)));

export default router;
