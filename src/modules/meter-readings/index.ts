import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { addToReservation, markBilled } from './billing';
import { getReading, historyOfUnit, latestOfUnit, listReadings, meterStats, unbilledReadings } from './queries';
import { deleteReading, recordReading, updateReading } from './readings';

const router = createRouter();

// Static paths before /meter-readings/{id}.
mount(router, r.list, async (c, { query }) => c.json(await listReadings(ctxOf(c), query)));
mount(router, r.record, async (c, { body }) => c.json(await recordReading(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await meterStats(ctxOf(c), query)));
mount(router, r.unbilled, async (c, { query }) => c.json(await unbilledReadings(ctxOf(c), query)));
mount(router, r.latest, async (c, { params, query }) => c.json(await latestOfUnit(ctxOf(c), params.unitId, query)));
mount(router, r.history, async (c, { params, query }) => c.json(await historyOfUnit(ctxOf(c), params.unitId, query)));
mount(router, r.markBilled, async (c, { body }) => c.json(await markBilled(ctxOf(c), body)));
mount(router, r.addToReservation, async (c, { body }) => c.json(await addToReservation(ctxOf(c), body), 201));
mount(router, r.get, async (c, { params }) => c.json(await getReading(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await updateReading(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await deleteReading(ctxOf(c), params.id)));

export default router;
