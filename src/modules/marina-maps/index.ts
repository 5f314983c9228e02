import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// Static paths before /slips/maps/{id}.
mount(router, r.createMap, async (c, { body }) => c.json(await svc.createMap(ctxOf(c), body), 201));
mount(router, r.reorderMaps, async (c, { body }) => c.json(await svc.reorderMaps(ctxOf(c), body)));
mount(router, r.batchPins, async (c, { body }) => c.json(await svc.batchPins(ctxOf(c), body)));
mount(router, r.mapsOrMap, async (c, { params, query }) => c.json(await svc.mapsOrMap(ctxOf(c), params.id, query)));
mount(router, r.updateMap, async (c, { params, body }) => c.json(await svc.updateMap(ctxOf(c), params.id, body)));
mount(router, r.deleteMap, async (c, { params }) => c.json(await svc.deleteMap(ctxOf(c), params.id)));
mount(router, r.toggleActive, async (c, { params }) => c.json(await svc.toggleMapActive(ctxOf(c), params.mapId)));
mount(router, r.mapPins, async (c, { params }) => c.json(await svc.mapPins(ctxOf(c), params.mapId)));
mount(router, r.unassigned, async (c, { params }) => c.json(await svc.unassignedSlips(ctxOf(c), params.locationId)));
mount(router, r.assignPin, async (c, { params, body }) => c.json(await svc.assignPin(ctxOf(c), params.slipId, body)));
mount(router, r.movePin, async (c, { params, body }) => c.json(await svc.movePin(ctxOf(c), params.slipId, body)));
mount(router, r.removePin, async (c, { params }) => c.json(await svc.removePin(ctxOf(c), params.slipId)));

export default router;
