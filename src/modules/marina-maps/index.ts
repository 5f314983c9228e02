import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import {
  assignPin,
  batchPins,
  createMap,
  deleteMap,
  mapPins,
  mapsOrMap,
  movePin,
  removePin,
  reorderMaps,
  toggleMapActive,
  unassignedSlips,
  updateMap,
} from './service';

const router = createRouter();

// Static paths before /slips/maps/{id}.
mount(router, r.createMap, async (c, { body }) => c.json(await createMap(ctxOf(c), body), 201));
mount(router, r.reorderMaps, async (c, { body }) => c.json(await reorderMaps(ctxOf(c), body)));
mount(router, r.batchPins, async (c, { body }) => c.json(await batchPins(ctxOf(c), body)));
mount(router, r.mapsOrMap, async (c, { params, query }) => c.json(await mapsOrMap(ctxOf(c), params.id, query)));
mount(router, r.updateMap, async (c, { params, body }) => c.json(await updateMap(ctxOf(c), params.id, body)));
mount(router, r.deleteMap, async (c, { params }) => c.json(await deleteMap(ctxOf(c), params.id)));
mount(router, r.toggleActive, async (c, { params }) => c.json(await toggleMapActive(ctxOf(c), params.mapId)));
mount(router, r.mapPins, async (c, { params }) => c.json(await mapPins(ctxOf(c), params.mapId)));
mount(router, r.unassigned, async (c, { params }) => c.json(await unassignedSlips(ctxOf(c), params.locationId)));
mount(router, r.assignPin, async (c, { params, body }) => c.json(await assignPin(ctxOf(c), params.slipId, body)));
mount(router, r.movePin, async (c, { params, body }) => c.json(await movePin(ctxOf(c), params.slipId, body)));
mount(router, r.removePin, async (c, { params }) => c.json(await removePin(ctxOf(c), params.slipId)));

export default router;
