import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listLocations } from './queries';
import { createLocation, restoreLocation, scheduleDeletion, updateIvr, updateLocation } from './service';

const router = createRouter();

mount(router, r.listLocations, async (c, { query }) => c.json(await listLocations(ctxOf(c), query)));
mount(router, r.createLocation, async (c, { body }) => c.json(await createLocation(ctxOf(c), body)));
mount(router, r.updateLocation, async (c, { body }) => c.json(await updateLocation(ctxOf(c), body)));
mount(router, r.deleteLocation, async (c, { body }) => c.json(await scheduleDeletion(ctxOf(c), body)));
mount(router, r.updateIvr, async (c, { body }) => c.json(await updateIvr(ctxOf(c), body)));
mount(router, r.restoreLocation, async (c, { body }) => c.json(await restoreLocation(ctxOf(c), body)));

export default router;
