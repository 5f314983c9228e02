import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { assist } from './assist';
import { businessAudit, listAuditCharges } from './audit';
import { extractReceiptData, validateReceipt } from './receipts';
import { extractLicense } from './license';
import { scrapeInventory } from './scrape';
import { proxyPage } from './proxy';

const router = createRouter();

mount(router, r.assist, async (c, { body }) => c.json(await assist(ctxOf(c), body)));
mount(router, r.businessAudit, async (c, { body }) => c.json(await businessAudit(ctxOf(c), body), 200));
mount(router, r.auditBilling, async (c, { query }) => c.json(await listAuditCharges(ctxOf(c), query)));
mount(router, r.validateReceipt, async (c, { body }) => c.json(await validateReceipt(ctxOf(c), body)));
mount(router, r.extractReceiptData, async (c, { body }) => c.json(await extractReceiptData(ctxOf(c), body)));
mount(router, r.proxyPage, async (c, { query }) => {
  const page = await proxyPage(ctxOf(c), query);
  return c.body(page.html, 200, page.headers);
});
mount(router, r.scrapeInventory, async (c, { body }) => c.json(await scrapeInventory(ctxOf(c), body)));
mount(router, r.extractLicense, async (c, { body }) => c.json(await extractLicense(ctxOf(c), body)));

export default router;
