import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';
import { findRentalAnyOperator } from '../bookings/service';

const router = createRouter();

mount(router, r.listPlans, async (c, { query }) => c.json(await svc.listPlans(ctxOf(c), query)));
mount(router, r.listBundles, async (c, { query }) => c.json(await svc.listBundles(ctxOf(c), query)));
mount(router, r.getPlan, async (c, { params }) => c.json(await svc.getPlan(ctxOf(c), params.planCode)));
mount(router, r.getBundle, async (c, { params }) => c.json(await svc.getBundle(ctxOf(c), params.bundleCode)));
mount(router, r.getSettings, async (c, { params }) => c.json(await svc.getSettings(ctxOf(c), params.locationId)));
mount(router, r.putSettings, async (c, { params, body }) => c.json(await svc.putSettings(ctxOf(c), params.locationId, body)));
mount(router, r.enablePlan, async (c, { params }) => c.json(await svc.togglePlan(ctxOf(c), params.locationId, 'plan', params.planCode, true)));
mount(router, r.disablePlan, async (c, { params }) => c.json(await svc.togglePlan(ctxOf(c), params.locationId, 'plan', params.planCode, false)));
mount(router, r.enableBundle, async (c, { params }) => c.json(await svc.togglePlan(ctxOf(c), params.locationId, 'bundle', params.bundleCode, true)));
mount(router, r.disableBundle, async (c, { params }) => c.json(await svc.togglePlan(ctxOf(c), params.locationId, 'bundle', params.bundleCode, false)));
mount(router, r.setOverride, async (c, { params, body }) => c.json(await svc.setOverride(ctxOf(c), params.locationId, params.planCode, body)));
mount(router, r.removeOverride, async (c, { params }) => c.json(await svc.setOverride(ctxOf(c), params.locationId, params.planCode, null)));
mount(router, r.purchase, async (c, { params, body }) => {
  await limitAbuse(c, 'protection-plan', {
    operator: async () => (await findRentalAnyOperator(ctxOf(c), params.rentalId)).customerId,
    target: params.rentalId,
  });
  return c.json(await svc.purchasePlan(ctxOf(c), params.rentalId, body));
});

export default router;
