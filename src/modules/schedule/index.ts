import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getSchedule, searchSchedule } from './by-item';
import { locationSchedule } from './by-location';
import { byCustomerStatus, byLocationStatus } from './by-status';
import { countSchedules, paginated } from './cursor';

const router = createRouter();

mount(router, r.schedule, async (c, { query }) => c.json(await getSchedule(ctxOf(c), query)));
mount(router, r.search, async (c, { query }) => c.json(await searchSchedule(ctxOf(c), query)));
mount(router, r.locationSchedule, async (c, { query }) => c.json(await locationSchedule(ctxOf(c), query)));
mount(router, r.byCustomerStatus, async (c, { query }) => c.json(await byCustomerStatus(ctxOf(c), query)));
mount(router, r.byLocationStatus, async (c, { query }) => c.json(await byLocationStatus(ctxOf(c), query)));
mount(router, r.paginated, async (c, { query }) => c.json(await paginated(ctxOf(c), query)));
mount(router, r.countSchedules, async (c, { query }) => c.json(await countSchedules(ctxOf(c), query)));

export default router;
