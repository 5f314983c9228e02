import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.checkAvailability, async (c, { query }) => c.json(await svc.checkAvailability(ctxOf(c), query)));
mount(router, r.createAffiliate, async (c, { body }) => c.json(await svc.createAffiliate(ctxOf(c), body), 201));
mount(router, r.listAffiliates, async (c, { query }) => c.json(await svc.listAffiliates(ctxOf(c), query)));
mount(router, r.deleteAffiliate, async (c, { query }) => c.json(await svc.deleteAffiliate(ctxOf(c), query)));
mount(router, r.updateAffiliate, async (c, { query, body }) => c.json(await svc.updateAffiliate(ctxOf(c), query.action, body)));
mount(router, r.recalculate, async (c, { body }) => c.json(await svc.recalculate(ctxOf(c), body)));

export default router;
