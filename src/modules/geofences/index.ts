import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import {
  createGeofence,
  deleteGeofence,
  getGeofence,
  listAssetPositions,
  listGeofences,
  listStaffLocations,
  liveMap,
  reportAssetPosition,
  reportStaffLocation,
  updateGeofence,
} from './service';

const router = createRouter();

mount(router, r.listGeofences, async (c, { query }) => c.json(await listGeofences(ctxOf(c), query)));
mount(router, r.createGeofence, async (c, { body }) => c.json(await createGeofence(ctxOf(c), body), 201));
mount(router, r.getGeofence, async (c, { params }) => c.json(await getGeofence(ctxOf(c), params.geofenceId)));
mount(router, r.updateGeofence, async (c, { params, body }) => c.json(await updateGeofence(ctxOf(c), params.geofenceId, body)));
mount(router, r.deleteGeofence, async (c, { params }) => c.json(await deleteGeofence(ctxOf(c), params.geofenceId)));
mount(router, r.listStaffLocations, async (c, { query }) => c.json(await listStaffLocations(ctxOf(c), query)));
mount(router, r.reportStaffLocation, async (c, { body }) => c.json(await reportStaffLocation(ctxOf(c), body)));
mount(router, r.listAssetPositions, async (c, { query }) => c.json(await listAssetPositions(ctxOf(c), query)));
mount(router, r.reportAssetPosition, async (c, { body }) => c.json(await reportAssetPosition(ctxOf(c), body)));
mount(router, r.liveMap, async (c, { query }) => c.json(await liveMap(ctxOf(c), query.locationId)));

export default router;
