import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { checkInGuest, createPass, deletePass, expireLocationPasses, getPass, revokePass, updatePass, verifyCode, verifyGuestId } from './passes';
import { listPasses, passStats } from './queries';

const router = createRouter();

// Static paths before /slips/guest-access/{id}; the module is mounted before slips (GET /slips/{id}).
mount(router, r.list, async (c, { query }) => c.json(await listPasses(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => c.json(await createPass(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await passStats(ctxOf(c), query)));
mount(router, r.verify, async (c, { params }) => c.json(await verifyCode(ctxOf(c), params.accessCode)));
mount(router, r.expire, async (c, { body }) => c.json(await expireLocationPasses(ctxOf(c), body)));
mount(router, r.get, async (c, { params }) => c.json(await getPass(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await updatePass(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await deletePass(ctxOf(c), params.id)));
mount(router, r.checkIn, async (c, { params, body }) => c.json(await checkInGuest(ctxOf(c), params.id, body)));
mount(router, r.verifyId, async (c, { params, body }) => c.json(await verifyGuestId(ctxOf(c), params.id, body)));
mount(router, r.revoke, async (c, { params, body }) => c.json(await revokePass(ctxOf(c), params.id, body)));

export default router;
