import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getBundle, getPlan, listBundles, listPlans } from './plans';
import { getSettings, putSettings, setOverride, togglePlan } from './settings';
import { purchasePlan } from './purchase';
import { limitAbuse } from '../../lib/abuse';
import { findRentalAnyOperator } from '../bookings/service';

const router = createRouter();

mount(router, r.listPlans, async (c, { query }) => c.json(await listPlans(ctxOf(c), query)));
mount(router, r.listBundles, async (c, { query }) => c.json(await listBundles(ctxOf(c), query)));
mount(router, r.getPlan, async (c, { params }) => c.json(await getPlan(ctxOf(c), params.planCode)));
mount(router, r.getBundle, async (c, { params }) => c.json(await getBundle(ctxOf(c), params.bundleCode)));
mount(router, r.getSettings, async (c, { params }) => c.json(await getSettings(ctxOf(c), params.locationId)));
mount(router, r.putSettings, async (c, { params, body }) => c.json(await putSettings(ctxOf(c), params.locationId, body)));
mount(router, r.enablePlan, async (c, { params }) => c.json(await togglePlan(ctxOf(c), params.locationId, 'plan', params.planCode, true)));
mount(router, r.disablePlan, async (c, { params }) => c.json(await togglePlan(ctxOf(c), params.locationId, 'plan', params.planCode, false)));
mount(router, r.enableBundle, async (c, { params }) => c.json(await togglePlan(ctxOf(c), params.locationId, 'bundle', params.bundleCode, true)));
mount(router, r.disableBundle, async (c, { params }) => c.json(await togglePlan(ctxOf(c), params.locationId, 'bundle', params.bundleCode, false)));
mount(router, r.setOverride, async (c, { params, body }) => c.json(await setOverride(ctxOf(c), params.locationId, params.planCode, body)));
mount(router, r.removeOverride, async (c, { params }) => c.json(await setOverride(ctxOf(c), params.locationId, params.planCode, null)));
mount(router, r.purchase, async (c, { params, body }) => {
  await limitAbuse(c, 'protection-plan', {
    operator: async () => (await findRentalAnyOperator(ctxOf(c), params.rentalId)).customerId,
    target: params.rentalId,
  });
  return c.json(await purchasePlan(ctxOf(c), params.rentalId, body));
});

export default router;
