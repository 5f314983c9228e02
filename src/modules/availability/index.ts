import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv, type Ctx } from '../../lib/context';
import * as r from './routes';
import { dayAvailabilityTagged, monthAvailabilityTagged, type TaggedView } from './cached-views';
import { checkAsset, publicItem, windowAvailability } from './checks';
import { timeSlotPopularity } from './popularity';
import { sessionCtx } from '../../lib/d1-session';
import { conditional } from '../../lib/http-cache';

const router = createRouter();

// A request with `Cache-Control: no-cache` always checks D1 (one round trip) instead of a view cached moments ago.
const revalidate = (c: { req: { header(name: string): string | undefined } }) => /no-cache|no-store|max-age=0/i.test(c.req.header('cache-control') ?? '');

/**
 * The widget's public availability reads run in a D1 session (read replicas in production;
 * `X-D1-Bookmark` keeps a renter's own booking visible to them) and answer 304 when the client's
 * ETag (built from the item's version and allocation sequence, see viewTag) is current.
 */
async function tagged<T>(c: Context<AppEnv>, read: (ctx: Ctx) => Promise<TaggedView<T>>) {
  const { ctx, stamp } = sessionCtx(c);
  const { body, etag } = await read(ctx);
  stamp();
  return conditional(c, etag) ?? c.json(body);
}

mount(router, r.preload, (c, { query }) =>
  tagged(c, (ctx) =>
    monthAvailabilityTagged(ctx, {
      inventoryId: query.inventoryId,
      month: query.month,
      displayTz: query.timezone,
      withSlots: true,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.month, (c, { query }) =>
  tagged(c, (ctx) =>
    monthAvailabilityTagged(ctx, {
      inventoryId: query.inventoryId,
      locationId: query.locationId,
      month: query.month,
      displayTz: query.timezone,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.day, (c, { query }) =>
  tagged(c, (ctx) =>
    dayAvailabilityTagged(ctx, {
      inventoryId: query.inventoryId,
      locationId: query.locationId,
      date: query.date,
      displayTz: query.timezone,
      revalidate: revalidate(c),
    }),
  ),
);
mount(router, r.check, async (c, { query }) => c.json(await checkAsset(ctxOf(c), query)));
mount(router, r.popularity, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await timeSlotPopularity(ctx, await publicItem(ctx, query.inventoryId, query.locationId), query));
});
mount(router, r.window, async (c, { query }) => c.json(await windowAvailability(ctxOf(c), query)));

export default router;
