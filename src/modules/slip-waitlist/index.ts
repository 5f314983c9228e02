import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// Static paths before /slips/waitlist/{id}; the module is mounted before slips (GET /slips/{id}).
mount(router, r.list, async (c, { query }) => c.json(await svc.listEntries(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => c.json(await svc.createEntry(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await svc.waitlistStats(ctxOf(c), query)));
mount(router, r.byRenter, async (c, { params, query }) => c.json(await svc.entriesOfRenter(ctxOf(c), params.renterId, query)));
mount(router, r.match, async (c, { params, query }) => c.json(await svc.matchUnit(ctxOf(c), params.unitId, query)));
mount(router, r.get, async (c, { params }) => c.json(await svc.getEntry(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await svc.updateEntry(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await svc.deleteEntry(ctxOf(c), params.id)));
mount(router, r.offer, async (c, { params, body }) => c.json(await svc.makeOffer(ctxOf(c), params.id, body), 201));
mount(router, r.accept, async (c, { params, body }) => c.json(await svc.acceptOffer(ctxOf(c), params.id, body)));
mount(router, r.decline, async (c, { params, body }) => c.json(await svc.declineOffer(ctxOf(c), params.id, body)));
mount(router, r.cancel, async (c, { params, body }) => c.json(await svc.cancelEntry(ctxOf(c), params.id, body)));

export default router;
