import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// Static paths before /meter-readings/{id}.
mount(router, r.list, async (c, { query }) => c.json(await svc.listReadings(ctxOf(c), query)));
mount(router, r.record, async (c, { body }) => c.json(await svc.recordReading(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await svc.meterStats(ctxOf(c), query)));
mount(router, r.unbilled, async (c, { query }) => c.json(await svc.unbilledReadings(ctxOf(c), query)));
mount(router, r.latest, async (c, { params, query }) => c.json(await svc.latestOfUnit(ctxOf(c), params.unitId, query)));
mount(router, r.history, async (c, { params, query }) => c.json(await svc.historyOfUnit(ctxOf(c), params.unitId, query)));
mount(router, r.markBilled, async (c, { body }) => c.json(await svc.markBilled(ctxOf(c), body)));
mount(router, r.addToReservation, async (c, { body }) => c.json(await svc.addToReservation(ctxOf(c), body), 201));
mount(router, r.get, async (c, { params }) => c.json(await svc.getReading(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await svc.updateReading(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await svc.deleteReading(ctxOf(c), params.id)));

export default router;
