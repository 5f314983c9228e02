import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.createShift, async (c, { body }) => c.json(await svc.createShift(ctxOf(c), body), 201));
mount(router, r.listShifts, async (c, { query }) => c.json(await svc.listShifts(ctxOf(c), query)));
mount(router, r.updateShift, async (c, { params, body }) => c.json(await svc.updateShift(ctxOf(c), params.id, body)));
mount(router, r.deleteShift, async (c, { params }) => c.json(await svc.deleteShift(ctxOf(c), params.id)));

export default router;
