import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getMetrics } from './metrics';
import { getInventoryPerformance } from './performance';
import { getYearOverYear } from './year-over-year';
import { setRevenueTarget } from './targets';
import { realizeCompletedBookings } from './realize';
import { getWidgetMetrics } from './widget-metrics';
import { getForecast } from './forecast';

const router = createRouter();

mount(router, r.getMetrics, async (c, { query }) => c.json(await getMetrics(ctxOf(c), query)));
mount(router, r.getInventoryPerformance, async (c, { query }) => c.json(await getInventoryPerformance(ctxOf(c), query)));
mount(router, r.getYearOverYear, async (c, { query }) => c.json(await getYearOverYear(ctxOf(c), query)));
mount(router, r.setRevenueTarget, async (c, { body }) => c.json(await setRevenueTarget(ctxOf(c), body)));
mount(router, r.realizeCompletedBookings, async (c, { body }) => c.json(await realizeCompletedBookings(ctxOf(c), body)));
mount(router, r.getWidgetMetrics, async (c, { query }) => c.json(await getWidgetMetrics(ctxOf(c), query)));
mount(router, r.getForecast, async (c, { query }) => c.json(await getForecast(ctxOf(c), query)));

export default router;
