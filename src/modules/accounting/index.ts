import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import {
  businesses,
  callback,
  chartOfAccounts,
  connect,
  disconnect,
  getGlMappings,
  integrationStatus,
  selectBusiness,
  setBankAccount,
  setGlMappings,
} from './connection';
import { createExport } from './exports';
import { listExports } from './queries';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;

mount(router, r.connect, async (c, { query }) => c.json(await connect(ctxOf(c), { businessId: query.businessId, origin: origin(c.req.url) })));
mount(router, r.callback, async (c, { query }) => c.redirect(await callback(ctxOf(c), query), 302));
mount(router, r.status, async (c, { query }) => c.json(await integrationStatus(ctxOf(c), query.businessId)));
mount(router, r.disconnect, async (c, { body }) => c.json(await disconnect(ctxOf(c), body.businessId)));
mount(router, r.chart, async (c, { query }) => c.json(await chartOfAccounts(ctxOf(c), query.businessId)));
mount(router, r.businesses, async (c, { query }) => c.json(await businesses(ctxOf(c), query.businessId)));
mount(router, r.selectBusiness, async (c, { body }) => c.json(await selectBusiness(ctxOf(c), body)));
mount(router, r.bankAccount, async (c, { body }) => c.json(await setBankAccount(ctxOf(c), body)));
mount(router, r.getMappings, async (c, { query }) => c.json(await getGlMappings(ctxOf(c), query.businessId)));
mount(router, r.setMappings, async (c, { body }) => c.json(await setGlMappings(ctxOf(c), body)));
mount(router, r.createExport, async (c, { body }) => {
  const res = await createExport(ctxOf(c), body);
  return c.json(res, res.created ? 201 : 200);
});
mount(router, r.listExports, async (c, { query }) => c.json(await listExports(ctxOf(c), query)));

export default router;
