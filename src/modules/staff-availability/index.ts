import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.availableStaff, async (c, { query }) => c.json(await svc.availableStaff(ctxOf(c), query)));
mount(router, r.availableStaffRange, async (c, { query }) => c.json(await svc.availableStaffRange(ctxOf(c), query)));

export default router;
