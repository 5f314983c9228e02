import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.schedule, async (c, { query }) => c.json(await svc.getSchedule(ctxOf(c), query)));
mount(router, r.search, async (c, { query }) => c.json(await svc.searchSchedule(ctxOf(c), query)));
mount(router, r.locationSchedule, async (c, { query }) => c.json(await svc.locationSchedule(ctxOf(c), query)));
mount(router, r.byCustomerStatus, async (c, { query }) => c.json(await svc.byCustomerStatus(ctxOf(c), query)));
mount(router, r.byLocationStatus, async (c, { query }) => c.json(await svc.byLocationStatus(ctxOf(c), query)));
mount(router, r.paginated, async (c, { query }) => c.json(await svc.paginated(ctxOf(c), query)));
mount(router, r.countSchedules, async (c, { query }) => c.json(await svc.countSchedules(ctxOf(c), query)));

export default router;
