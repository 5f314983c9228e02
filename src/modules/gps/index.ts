import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'DeviceKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'A GPS tracker key (`gpd_...`, from POST /integrations/gps/devices); also accepted as `X-Device-Key`.',
});

mount(router, r.alerts, async (c, { query }) => c.json(await svc.listAlerts(ctxOf(c), query)));
mount(router, r.deviceAlerts, async (c, { params, query }) => c.json(await svc.deviceAlerts(ctxOf(c), params.deviceName, query)));
mount(router, r.alertSummary, async (c, { query }) => c.json(await svc.alertSummary(ctxOf(c), query)));
mount(router, r.ingest, async (c, { body }) => c.json(await svc.ingest(ctxOf(c), body)));
mount(router, r.createDevice, async (c, { body }) => c.json(await svc.createDevice(ctxOf(c), body), 201));
mount(router, r.listDevices, async (c, { query }) => c.json(await svc.listDevices(ctxOf(c), query)));
mount(router, r.deleteDevice, async (c, { params }) => c.json(await svc.deleteDevice(ctxOf(c), params.deviceId)));
mount(router, r.listHomeAreas, async (c, { query }) => c.json(await svc.listHomeAreas(ctxOf(c), query)));
mount(router, r.setHomeArea, async (c, { params, body }) => c.json(await svc.setHomeArea(ctxOf(c), params.locationId, body)));
mount(router, r.deleteHomeArea, async (c, { params }) => c.json(await svc.deleteHomeArea(ctxOf(c), params.locationId)));
mount(router, r.getSettings, async (c) => c.json(await svc.getSettings(ctxOf(c))));
mount(router, r.updateSettings, async (c, { body }) => c.json(await svc.updateSettings(ctxOf(c), body)));

export default router;
