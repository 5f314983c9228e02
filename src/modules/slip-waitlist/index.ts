import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { createEntry, deleteEntry, entriesOfRenter, getEntry, listEntries, matchUnit, updateEntry, waitlistStats } from './entries';
import { acceptOffer, cancelEntry, declineOffer, makeOffer } from './offers';

const router = createRouter();

// Static paths before /slips/waitlist/{id}; the module is mounted before slips (GET /slips/{id}).
mount(router, r.list, async (c, { query }) => c.json(await listEntries(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => {
  const out = await createEntry(ctxOf(c), body);
  return c.json(out.entry, out.created ? 201 : 200);
});
mount(router, r.stats, async (c, { query }) => c.json(await waitlistStats(ctxOf(c), query)));
mount(router, r.byRenter, async (c, { params, query }) => c.json(await entriesOfRenter(ctxOf(c), params.renterId, query)));
mount(router, r.match, async (c, { params, query }) => c.json(await matchUnit(ctxOf(c), params.unitId, query)));
mount(router, r.get, async (c, { params }) => c.json(await getEntry(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await updateEntry(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await deleteEntry(ctxOf(c), params.id)));
mount(router, r.offer, async (c, { params, body }) => c.json(await makeOffer(ctxOf(c), params.id, body), 201));
mount(router, r.accept, async (c, { params, body }) => c.json(await acceptOffer(ctxOf(c), params.id, body)));
mount(router, r.decline, async (c, { params, body }) => c.json(await declineOffer(ctxOf(c), params.id, body)));
mount(router, r.cancel, async (c, { params, body }) => c.json(await cancelEntry(ctxOf(c), params.id, body)));

export default router;
