import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.create, async (c, { body }) => c.json(await svc.createDrydock(ctxOf(c), body)));
mount(router, r.list, async (c, { query }) => c.json(await svc.listDrydocks(ctxOf(c), query)));
mount(router, r.update, async (c, { body }) => c.json(await svc.updateDrydock(ctxOf(c), body)));
mount(router, r.remove, async (c, { body }) => c.json(await svc.deleteDrydock(ctxOf(c), body)));

export default router;
