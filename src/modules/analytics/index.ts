import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.getMetrics, async (c, { query }) => c.json(await svc.getMetrics(ctxOf(c), query)));
mount(router, r.getInventoryPerformance, async (c, { query }) => c.json(await svc.getInventoryPerformance(ctxOf(c), query)));
mount(router, r.getYearOverYear, async (c, { query }) => c.json(await svc.getYearOverYear(ctxOf(c), query)));
mount(router, r.setRevenueTarget, async (c, { body }) => c.json(await svc.setRevenueTarget(ctxOf(c), body)));
mount(router, r.realizeCompletedBookings, async (c, { body }) => c.json(await svc.realizeCompletedBookings(ctxOf(c), body)));
mount(router, r.getWidgetMetrics, async (c, { query }) => c.json(await svc.getWidgetMetrics(ctxOf(c), query)));
mount(router, r.getForecast, async (c, { query }) => c.json(await svc.getForecast(ctxOf(c), query)));

export default router;
