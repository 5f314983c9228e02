import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listShifts } from './queries';
import { createShift, deleteShift, updateShift } from './service';

const router = createRouter();

mount(router, r.createShift, async (c, { body }) => c.json(await createShift(ctxOf(c), body), 201));
mount(router, r.listShifts, async (c, { query }) => c.json(await listShifts(ctxOf(c), query)));
mount(router, r.updateShift, async (c, { params, body }) => c.json(await updateShift(ctxOf(c), params.id, body)));
mount(router, r.deleteShift, async (c, { params }) => c.json(await deleteShift(ctxOf(c), params.id)));

export default router;
