import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;

// Static paths before /slips/{id} (Hono matches in registration order).
mount(router, r.listSlips, async (c, { query }) => c.json(await svc.listSlips(ctxOf(c), query)));
mount(router, r.createSlip, async (c, { body }) => c.json(await svc.createSlip(ctxOf(c), body), 201));
mount(router, r.listSections, async (c, { query }) => c.json(await svc.listSections(ctxOf(c), query.locationId)));
mount(router, r.sectionCounts, async (c, { query }) => c.json(await svc.sectionCounts(ctxOf(c), query.locationId)));
mount(router, r.renameSection, async (c, { body }) => c.json(await svc.renameSection(ctxOf(c), body)));
mount(router, r.clearSection, async (c, { params, query }) => c.json(await svc.clearSection(ctxOf(c), query.locationId, params.name)));
mount(router, r.slipStats, async (c, { query }) => c.json(await svc.slipStats(ctxOf(c), query.locationId)));
mount(router, r.searchSlips, async (c, { query }) => c.json(await svc.searchSlips(ctxOf(c), query)));
mount(router, r.bulkCreate, async (c, { body }) => c.json(await svc.bulkCreateSlips(ctxOf(c), body), 201));
mount(router, r.bulkUpdate, async (c, { body }) => c.json(await svc.bulkUpdateSlips(ctxOf(c), body)));
mount(router, r.getSlip, async (c, { params }) => c.json(await svc.getSlip(ctxOf(c), params.id)));
mount(router, r.updateSlip, async (c, { params, body }) => c.json(await svc.updateSlip(ctxOf(c), params.id, body)));
mount(router, r.deleteSlip, async (c, { params }) => c.json(await svc.deleteSlip(ctxOf(c), params.id)));
mount(router, r.setStatus, async (c, { params, body }) => c.json(await svc.setSlipStatus(ctxOf(c), params.id, body)));

mount(router, r.subscriptionStatus, async (c) => c.json(await svc.subscriptionStatus(ctxOf(c))));
mount(router, r.createCheckout, async (c, { body }) => c.json(await svc.createCheckout(ctxOf(c), body, origin(c.req.url)), 201));
mount(router, r.addSlips, async (c, { body }) => c.json(await svc.addSubscribedSlips(ctxOf(c), body)));
mount(router, r.portal, async (c, { body }) => c.json(await svc.billingPortal(ctxOf(c), body, origin(c.req.url))));
mount(router, r.cancel, async (c) => c.json(await svc.cancelSubscriptionAtPeriodEnd(ctxOf(c))));

export default router;
