import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getSlip, listSections, listSlips, searchSlips, sectionCounts, slipStats } from './queries';
import { addSubscribedSlips, billingPortal, cancelSubscriptionAtPeriodEnd, createCheckout, subscriptionStatus } from './subscription';
import { bulkCreateSlips, bulkUpdateSlips, clearSection, createSlip, deleteSlip, renameSection, setSlipStatus, updateSlip } from './write';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;

// Static paths before /slips/{id} (Hono matches in registration order).
mount(router, r.listSlips, async (c, { query }) => c.json(await listSlips(ctxOf(c), query)));
mount(router, r.createSlip, async (c, { body }) => c.json(await createSlip(ctxOf(c), body), 201));
mount(router, r.listSections, async (c, { query }) => c.json(await listSections(ctxOf(c), query.locationId)));
mount(router, r.sectionCounts, async (c, { query }) => c.json(await sectionCounts(ctxOf(c), query.locationId)));
mount(router, r.renameSection, async (c, { body }) => c.json(await renameSection(ctxOf(c), body)));
mount(router, r.clearSection, async (c, { params, query }) => c.json(await clearSection(ctxOf(c), query.locationId, params.name)));
mount(router, r.slipStats, async (c, { query }) => c.json(await slipStats(ctxOf(c), query.locationId)));
mount(router, r.searchSlips, async (c, { query }) => c.json(await searchSlips(ctxOf(c), query)));
mount(router, r.bulkCreate, async (c, { body }) => c.json(await bulkCreateSlips(ctxOf(c), body), 201));
mount(router, r.bulkUpdate, async (c, { body }) => c.json(await bulkUpdateSlips(ctxOf(c), body)));
mount(router, r.getSlip, async (c, { params }) => c.json(await getSlip(ctxOf(c), params.id)));
mount(router, r.updateSlip, async (c, { params, body }) => c.json(await updateSlip(ctxOf(c), params.id, body)));
mount(router, r.deleteSlip, async (c, { params }) => c.json(await deleteSlip(ctxOf(c), params.id)));
mount(router, r.setStatus, async (c, { params, body }) => c.json(await setSlipStatus(ctxOf(c), params.id, body)));

mount(router, r.subscriptionStatus, async (c) => c.json(await subscriptionStatus(ctxOf(c))));
mount(router, r.createCheckout, async (c, { body }) => c.json(await createCheckout(ctxOf(c), body, origin(c.req.url)), 201));
mount(router, r.addSlips, async (c, { body }) => c.json(await addSubscribedSlips(ctxOf(c), body)));
mount(router, r.portal, async (c, { body }) => c.json(await billingPortal(ctxOf(c), body, origin(c.req.url))));
mount(router, r.cancel, async (c) => c.json(await cancelSubscriptionAtPeriodEnd(ctxOf(c))));

export default router;
