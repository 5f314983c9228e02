import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.getSettings, async (c, { params }) => c.json(await svc.getSlipSettings(ctxOf(c), params.locationId)));
mount(router, r.updateSettings, async (c, { params, body }) => c.json(await svc.updateSlipSettings(ctxOf(c), params.locationId, body)));
mount(router, r.resetSettings, async (c, { params }) => c.json(await svc.resetSlipSettings(ctxOf(c), params.locationId)));

export default router;
