import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { checkAvailability, createAffiliate, deleteAffiliate, listAffiliates, updateAffiliate } from './records';
import { recalculate } from './earnings';

const router = createRouter();

mount(router, r.checkAvailability, async (c, { query }) => c.json(await checkAvailability(ctxOf(c), query)));
mount(router, r.createAffiliate, async (c, { body }) => c.json(await createAffiliate(ctxOf(c), body), 201));
mount(router, r.listAffiliates, async (c, { query }) => c.json(await listAffiliates(ctxOf(c), query)));
mount(router, r.deleteAffiliate, async (c, { query }) => c.json(await deleteAffiliate(ctxOf(c), query)));
mount(router, r.updateAffiliate, async (c, { query, body }) => c.json(await updateAffiliate(ctxOf(c), query.action, body)));
mount(router, r.recalculate, async (c, { body }) => c.json(await recalculate(ctxOf(c), body)));

export default router;
