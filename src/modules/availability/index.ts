import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { sessionCtx } from '../../lib/d1-session';
import { conditional, etagOf } from '../../lib/http-cache';

const router = createRouter();

/**
 * Public availability reads run in a D1 session (read replicas; `X-D1-Bookmark` keeps a renter's own
 * booking visible) and answer 304 when the client's ETag is current: the ETag is built from the
 * item's version and allocation sequence (bumped by every allocation write), the query, and the
 * 30-second clock window (minimum notice and hold expiries move with the clock).
 */
const AVAILABILITY_CLOCK_MS = 30_000;
const availabilityTag = (item: svc.ItemContext, parts: (string | undefined)[]) =>
  etagOf([item.row.id, item.row.version, item.row.allocSeq, item.row.updatedAt, item.location.updatedAt, ...parts, Math.floor(Date.now() / AVAILABILITY_CLOCK_MS)]);

mount(router, r.preload, async (c, { query }) => {
  const { ctx, stamp } = sessionCtx(c);
  const item = await svc.publicItem(ctx, query.inventoryId);
  stamp();
  const fresh = conditional(c, availabilityTag(item, ['preload', query.month, query.timezone]));
  if (fresh) return fresh;
  const body = await svc.monthView(ctx, item, query.month, { displayTz: query.timezone, withSlots: true });
  stamp();
  return c.json(body);
});
mount(router, r.month, async (c, { query }) => {
  const { ctx, stamp } = sessionCtx(c);
  const item = await svc.publicItem(ctx, query.inventoryId, query.locationId);
  stamp();
  const fresh = conditional(c, availabilityTag(item, ['month', query.month, query.timezone]));
  if (fresh) return fresh;
  const body = await svc.monthView(ctx, item, query.month, { displayTz: query.timezone });
  stamp();
  return c.json(body);
});
mount(router, r.day, async (c, { query }) => {
  const { ctx, stamp } = sessionCtx(c);
  const item = await svc.publicItem(ctx, query.inventoryId, query.locationId);
  stamp();
  const fresh = conditional(c, availabilityTag(item, ['day', query.date, query.timezone]));
  if (fresh) return fresh;
  const body = await svc.dayView(ctx, item, query.date, { displayTz: query.timezone });
  stamp();
  return c.json(body);
});
mount(router, r.check, async (c, { query }) => c.json(await svc.checkAsset(ctxOf(c), query)));
mount(router, r.popularity, async (c, { query }) => {
  const ctx = ctxOf(c);
  return c.json(await svc.timeSlotPopularity(ctx, await svc.publicItem(ctx, query.inventoryId, query.locationId), query));
});
mount(router, r.window, async (c, { query }) => c.json(await svc.windowAvailability(ctxOf(c), query)));

export default router;
