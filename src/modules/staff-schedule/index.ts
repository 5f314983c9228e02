import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listShifts } from './queries';
import { createShift, deleteShift, updateShift } from './service';
import { createTimeOff, deleteTimeOff, listTimeOff, updateTimeOff } from './time-off';

const router = createRouter();

mount(router, r.createShift, async (c, { body }) => c.json(await createShift(ctxOf(c), body), 201));
mount(router, r.listShifts, async (c, { query }) => c.json(await listShifts(ctxOf(c), query)));
mount(router, r.updateShift, async (c, { params, body }) => c.json(await updateShift(ctxOf(c), params.id, body)));
mount(router, r.deleteShift, async (c, { params }) => c.json(await deleteShift(ctxOf(c), params.id)));

mount(router, r.createTimeOff, async (c, { body }) => c.json(await createTimeOff(ctxOf(c), body), 201));
mount(router, r.listTimeOff, async (c, { query }) => c.json(await listTimeOff(ctxOf(c), query)));
mount(router, r.updateTimeOff, async (c, { params, body }) => c.json(await updateTimeOff(ctxOf(c), params.id, body)));
mount(router, r.deleteTimeOff, async (c, { params }) => c.json(await deleteTimeOff(ctxOf(c), params.id)));

export default router;
