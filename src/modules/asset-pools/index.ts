import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.listPools, async (c, { query }) => c.json(await svc.listPools(ctxOf(c), query)));
mount(router, r.createPool, async (c, { body }) => c.json(await svc.createPool(ctxOf(c), body), 201));
mount(router, r.getPool, async (c, { params }) => c.json(await svc.getPool(ctxOf(c), params.poolId)));
mount(router, r.updatePool, async (c, { params, body }) => c.json(await svc.updatePool(ctxOf(c), params.poolId, body)));
mount(router, r.deletePool, async (c, { params }) => c.json(await svc.deletePool(ctxOf(c), params.poolId)));

export default router;
