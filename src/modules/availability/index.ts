import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
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
mount(router, r.window, async (c, { query }) => {
  const start = Date.parse(query.startTime);
  const end = Date.parse(query.endTime);
  if (!(end > start)) throw new ApiError('bad_request', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  return c.json(await svc.getItemAvailability(ctxOf(c), query.inventoryId, { start, end, quantity: query.quantity, seats: query.seats, excludeRentalId: query.excludeRentalId, source: query.source }));
});

export default router;
