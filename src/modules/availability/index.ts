import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.preload, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.monthView(ctx, await svc.publicItem(ctx, query.inventoryId), query.month, { displayTz: query.timezone, withSlots: true }));
});
mount(router, r.month, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.monthView(ctx, await svc.publicItem(ctx, query.inventoryId, query.locationId), query.month, { displayTz: query.timezone }));
});
mount(router, r.day, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.dayView(ctx, await svc.publicItem(ctx, query.inventoryId, query.locationId), query.date, { displayTz: query.timezone }));
});
mount(router, r.check, async (c, { query }) => c.json(await svc.checkAsset(ctxOf(c), query)));
mount(router, r.popularity, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.timeSlotPopularity(ctx, await svc.publicItem(ctx, query.inventoryId, query.locationId), query));
});
mount(router, r.window, async (c, { query }) => c.json(await svc.windowAvailability(ctxOf(c), query)));

export default router;
