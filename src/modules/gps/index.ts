import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { ingest } from './ingest';
import { alertSummary, deviceAlerts, listAlerts, listDevices, listHomeAreas } from './queries';
import { createDevice, deleteDevice, deleteHomeArea, getSettings, setHomeArea, updateSettings } from './setup';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'DeviceKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'A GPS tracker key (`gpd_...`, from POST /integrations/gps/devices); also accepted as `X-Device-Key`.',
});

mount(router, r.alerts, async (c, { query }) => c.json(await listAlerts(ctxOf(c), query)));
mount(router, r.deviceAlerts, async (c, { params, query }) => c.json(await deviceAlerts(ctxOf(c), params.deviceName, query)));
mount(router, r.alertSummary, async (c, { query }) => c.json(await alertSummary(ctxOf(c), query)));
mount(router, r.ingest, async (c, { body }) => c.json(await ingest(ctxOf(c), body)));
mount(router, r.createDevice, async (c, { body }) => c.json(await createDevice(ctxOf(c), body), 201));
mount(router, r.listDevices, async (c, { query }) => c.json(await listDevices(ctxOf(c), query)));
mount(router, r.deleteDevice, async (c, { params }) => c.json(await deleteDevice(ctxOf(c), params.deviceId)));
mount(router, r.listHomeAreas, async (c, { query }) => c.json(await listHomeAreas(ctxOf(c), query)));
mount(router, r.setHomeArea, async (c, { params, body }) => c.json(await setHomeArea(ctxOf(c), params.locationId, body)));
mount(router, r.deleteHomeArea, async (c, { params }) => c.json(await deleteHomeArea(ctxOf(c), params.locationId)));
mount(router, r.getSettings, async (c) => c.json(await getSettings(ctxOf(c))));
mount(router, r.updateSettings, async (c, { body }) => c.json(await updateSettings(ctxOf(c), body)));

export default router;
