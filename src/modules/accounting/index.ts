import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;

mount(router, r.connect, async (c, { query }) => c.json(await svc.connect(ctxOf(c), { businessId: query.businessId, origin: origin(c.req.url) })));
mount(router, r.callback, async (c, { query }) => c.redirect(await svc.callback(ctxOf(c), query), 302));
mount(router, r.status, async (c, { query }) => c.json(await svc.integrationStatus(ctxOf(c), query.businessId)));
mount(router, r.disconnect, async (c, { body }) => c.json(await svc.disconnect(ctxOf(c), body.businessId)));
mount(router, r.chart, async (c, { query }) => c.json(await svc.chartOfAccounts(ctxOf(c), query.businessId)));
mount(router, r.businesses, async (c, { query }) => c.json(await svc.businesses(ctxOf(c), query.businessId)));
mount(router, r.selectBusiness, async (c, { body }) => c.json(await svc.selectBusiness(ctxOf(c), body)));
mount(router, r.bankAccount, async (c, { body }) => c.json(await svc.setBankAccount(ctxOf(c), body)));
mount(router, r.getMappings, async (c, { query }) => c.json(await svc.getGlMappings(ctxOf(c), query.businessId)));
mount(router, r.setMappings, async (c, { body }) => c.json(await svc.setGlMappings(ctxOf(c), body)));
mount(router, r.createExport, async (c, { body }) => {
  const res = await svc.createExport(ctxOf(c), body);
  return c.json(res, res.created ? 201 : 200);
});
mount(router, r.listExports, async (c, { query }) => c.json(await svc.listExports(ctxOf(c), query)));

export default router;
