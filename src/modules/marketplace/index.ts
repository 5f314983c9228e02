import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'MarketplaceKey', {
  type: 'apiKey',
  in: 'header',
  name: 'exp-api-key',
  description: "The tour marketplace's API key (`apiKey` of POST /ota/admin/configure); also accepted as `X-Marketplace-Key`, or `data.ApiKey` on /ota/api.",
});

mount(router, r.configure, async (c, { body }) => c.json(await svc.configure(ctxOf(c), body)));
mount(router, r.getConfiguration, async (c) => c.json(await svc.getConfiguration(ctxOf(c))));
mount(router, r.tourList, async (c) => {
  const ctx = ctxOf(c);
  return c.json(await svc.tourList(ctx, await svc.supplierConfig(ctx)));
});
mount(router, r.availabilityCalendar, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.availabilityCalendar(ctx, await svc.supplierConfig(ctx), body));
});
mount(router, r.availabilityCheck, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.availabilityCheck(ctx, await svc.supplierConfig(ctx), body));
});
mount(router, r.reserve, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.reserveHold(ctx, await svc.supplierConfig(ctx), body));
});
mount(router, r.booking, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.confirmReservation(ctx, await svc.supplierConfig(ctx), body));
});
mount(router, r.cancellation, async (c, { body }) => {
  const ctx = ctxOf(c);
  await svc.supplierConfig(ctx);
  return c.json(await svc.cancelReservation(ctx, body));
});
mount(router, r.amendment, async (c, { body }) => {
  const ctx = ctxOf(c);
  await svc.supplierConfig(ctx);
  return c.json(await svc.amendReservation(ctx, body));
});
mount(router, r.specialOffers, async (c) => {
  await svc.supplierConfig(ctxOf(c));
  return c.json({ offers: [] });
});
mount(router, r.api, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.dispatch(ctx, await svc.supplierConfig(ctx), body));
});

export default router;
