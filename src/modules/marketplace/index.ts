import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { amendReservation } from './amend';
import { cancelReservation } from './cancel';
import { availabilityCalendar, availabilityCheck, tourList } from './catalog';
import { configure, getConfiguration } from './config';
import { confirmReservation } from './confirm';
import { dispatch } from './dispatcher';
import { reserveHold } from './reserve';
import { supplierConfig } from './service';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'MarketplaceKey', {
  type: 'apiKey',
  in: 'header',
  name: 'exp-api-key',
  description: "The tour marketplace's API key (`apiKey` of POST /ota/admin/configure); also accepted as `X-Marketplace-Key`, or `data.ApiKey` on /ota/api.",
});

mount(router, r.configure, async (c, { body }) => c.json(await configure(ctxOf(c), body)));
mount(router, r.getConfiguration, async (c) => c.json(await getConfiguration(ctxOf(c))));
mount(router, r.tourList, async (c) => {
  const ctx = ctxOf(c);
  return c.json(await tourList(ctx, await supplierConfig(ctx)));
});
mount(router, r.availabilityCalendar, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await availabilityCalendar(ctx, await supplierConfig(ctx), body));
});
mount(router, r.availabilityCheck, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await availabilityCheck(ctx, await supplierConfig(ctx), body));
});
mount(router, r.reserve, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await reserveHold(ctx, await supplierConfig(ctx), body));
});
mount(router, r.booking, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await confirmReservation(ctx, await supplierConfig(ctx), body));
});
mount(router, r.cancellation, async (c, { body }) => {
  const ctx = ctxOf(c);
  await supplierConfig(ctx);
  return c.json(await cancelReservation(ctx, body));
});
mount(router, r.amendment, async (c, { body }) => {
  const ctx = ctxOf(c);
  await supplierConfig(ctx);
  return c.json(await amendReservation(ctx, body));
});
mount(router, r.specialOffers, async (c) => {
  await supplierConfig(ctxOf(c));
  return c.json({ offers: [] });
});
mount(router, r.api, async (c, { body }) => {
  const ctx = ctxOf(c);
  return c.json(await dispatch(ctx, await supplierConfig(ctx), body));
});

export default router;
