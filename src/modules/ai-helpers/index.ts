import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.assist, async (c, { body }) => c.json(await svc.assist(ctxOf(c), body)));
mount(router, r.businessAudit, async (c, { body }) => c.json(await svc.businessAudit(ctxOf(c), body), 200));
mount(router, r.auditBilling, async (c, { query }) => c.json(await svc.listAuditCharges(ctxOf(c), query)));
mount(router, r.validateReceipt, async (c, { body }) => c.json(await svc.validateReceipt(ctxOf(c), body)));
mount(router, r.extractReceiptData, async (c, { body }) => c.json(await svc.extractReceiptData(ctxOf(c), body)));
mount(router, r.proxyPage, async (c, { query }) => {
  const page = await svc.proxyPage(ctxOf(c), query);
  return c.body(page.html, 200, page.headers);
});
mount(router, r.scrapeInventory, async (c, { body }) => c.json(await svc.scrapeInventory(ctxOf(c), body)));
mount(router, r.extractLicense, async (c, { body }) => c.json(await svc.extractLicense(ctxOf(c), body)));

export default router;
