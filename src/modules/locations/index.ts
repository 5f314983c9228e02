import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.listLocations, async (c, { query }) => c.json(await svc.listLocations(ctxOf(c), query)));
mount(router, r.createLocation, async (c, { body }) => c.json(await svc.createLocation(ctxOf(c), body)));
mount(router, r.updateLocation, async (c, { body }) => c.json(await svc.updateLocation(ctxOf(c), body)));
mount(router, r.deleteLocation, async (c, { body }) => c.json(await svc.scheduleDeletion(ctxOf(c), body)));
mount(router, r.updateIvr, async (c, { body }) => c.json(await svc.updateIvr(ctxOf(c), body)));
mount(router, r.restoreLocation, async (c, { body }) => c.json(await svc.restoreLocation(ctxOf(c), body)));

export default router;
