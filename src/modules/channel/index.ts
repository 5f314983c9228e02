import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import { getDb } from '../../db/client';
import * as r from './routes';
import * as svc from './service';
import * as portal from './portal';
import { channelAuth, channelOf, portalAuth, portalOf } from './middleware';

const router = createRouter();

// Credentials of their own: channel keys for the API, portal tokens for the portal (registration is open).
router.use('/channel/v1/*', async (c, next) => {
  const path = new URL(c.req.url).pathname;
  // `await`, not `return`: returning another async function's rejected promise leaves it unhandled for a tick.
  if (path === '/channel/v1/portal/register') await next();
  else if (path.startsWith('/channel/v1/portal/')) await portalAuth(c, next);
  else await channelAuth(c, next);
});

const db = (c: { env: { DB: D1Database } }) => getDb(c.env.DB);

mount(router, r.me, async (c) => c.json(await svc.me(db(c), channelOf(c))));
mount(router, r.products, async (c) => c.json(await svc.products(db(c), channelOf(c))));
mount(router, r.availability, async (c, { body }) => c.json(await svc.availability(c.env, channelOf(c), body, c.get('requestId'))));
mount(router, r.createBooking, async (c, { body }) => {
  const res = await svc.createChannelBooking(c.env, channelOf(c), c.req.header('idempotency-key')?.trim() || undefined, body, c.get('requestId'));
  return c.json(res.body, res.status);
});
mount(router, r.findBookings, async (c, { query }) => c.json(await svc.findByReference(db(c), channelOf(c), query.reference)));
mount(router, r.getBooking, async (c, { params }) => c.json(await svc.getBooking(db(c), channelOf(c), params.bookingId)));
mount(router, r.cancelBooking, async (c, { params }) => c.json(await svc.cancelChannelBooking(c.env, channelOf(c), params.bookingId, c.get('requestId'))));
mount(router, r.sandboxReset, async (c) => c.json(await svc.sandboxReset(db(c), channelOf(c))));
mount(router, r.settlement, async (c, { query }) => c.json(await svc.keySettlement(db(c), channelOf(c), query.month)));

mount(router, r.register, async (c, { body }) => c.json(await portal.register(ctxOf(c), body), 201));
mount(router, r.portalChannel, async (c) => c.json(await portal.getChannel(db(c), portalOf(c))));
mount(router, r.portalRotate, async (c, { body }) => c.json(await portal.rotatePlatformKey(db(c), portalOf(c), body.mode)));
mount(router, r.portalPause, async (c) => c.json(await portal.setStatus(db(c), portalOf(c), 'paused')));
mount(router, r.portalResume, async (c) => c.json(await portal.setStatus(db(c), portalOf(c), 'active')));
mount(router, r.portalSettlement, async (c, { query }) => c.json(await portal.channelSettlement(db(c), portalOf(c), query.month)));
mount(router, r.portalSetWebhook, async (c, { body }) => c.json(await portal.setWebhook(ctxOf(c), portalOf(c), body)));
mount(router, r.portalRemoveWebhook, async (c) => c.json(await portal.removeWebhook(db(c), portalOf(c))));

export default router;
