import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// A request with `Cache-Control: no-cache` always checks D1 (one round trip) instead of a view cached moments ago.
const revalidate = (c: { req: { header(name: string): string | undefined } }) => /no-cache|no-store|max-age=0/i.test(c.req.header('cache-control') ?? '');

mount(router, r.preload, async (c, { query }) =>
  c.json(
    await svc.monthAvailabilityView(ctxOf(c), {
      inventoryId: query.inventoryId,
      month: query.month,
      displayTz: query.timezone,
      withSlots: true,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.month, async (c, { query }) =>
  c.json(
    await svc.monthAvailabilityView(ctxOf(c), {
      inventoryId: query.inventoryId,
      locationId: query.locationId,
      month: query.month,
      displayTz: query.timezone,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.day, async (c, { query }) =>
  c.json(
    await svc.dayAvailabilityView(ctxOf(c), {
      inventoryId: query.inventoryId,
      locationId: query.locationId,
      date: query.date,
      displayTz: query.timezone,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.check, async (c, { query }) => c.json(await svc.checkAsset(ctxOf(c), query)));
mount(router, r.popularity, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.timeSlotPopularity(ctx, await svc.publicItem(ctx, query.inventoryId, query.locationId), query));
});
mount(router, r.window, async (c, { query }) => c.json(await svc.windowAvailability(ctxOf(c), query)));

export default router;
