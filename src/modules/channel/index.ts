import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { keySettlement, me, products } from './service';
import { availability } from './availability';
import { createChannelBooking } from './create-booking';
import { cancelChannelBooking, findByReference, getBooking, sandboxReset } from './bookings';
import * as portal from './portal';
import { channelOf, portalOf } from './middleware';
import { resolvePartnerToken } from '../partners/service';

const router = createRouter();

mount(router, r.me, async (c) => c.json(await me(ctxOf(c), channelOf(c))));
mount(router, r.products, async (c) => c.json(await products(ctxOf(c), channelOf(c))));
mount(router, r.availability, async (c, { body }) => c.json(await availability(ctxOf(c), channelOf(c), body)));
mount(router, r.createBooking, async (c, { body }) => {
  const res = await createChannelBooking(ctxOf(c), channelOf(c), c.req.header('idempotency-key')?.trim() || undefined, body);
  return c.json(res.body, res.status);
});
mount(router, r.findBookings, async (c, { query }) => c.json(await findByReference(ctxOf(c), channelOf(c), query.reference)));
mount(router, r.getBooking, async (c, { params }) => c.json(await getBooking(ctxOf(c), channelOf(c), params.bookingId)));
mount(router, r.cancelBooking, async (c, { params }) => c.json(await cancelChannelBooking(ctxOf(c), channelOf(c), params.bookingId)));
mount(router, r.sandboxReset, async (c) => c.json(await sandboxReset(ctxOf(c), channelOf(c))));
mount(router, r.settlement, async (c, { query }) => c.json(await keySettlement(ctxOf(c), channelOf(c), query.month)));

mount(router, r.register, async (c, { body }) => {
  // A partner token on the request attaches the channel to that partner account.
  const bearer = /^Bearer\s+(bpt_\S+)$/i.exec(c.req.header('authorization')?.trim() ?? '')?.[1];
  const partnerId = bearer ? (await resolvePartnerToken(ctxOf(c), bearer)).partner.id : undefined;
  return c.json(await portal.register(ctxOf(c), body, partnerId), 201);
});
mount(router, r.portalChannel, async (c) => c.json(await portal.getChannel(ctxOf(c), portalOf(c))));
mount(router, r.portalRotate, async (c, { body }) => c.json(await portal.rotatePlatformKey(ctxOf(c), portalOf(c), body.mode)));
mount(router, r.portalPause, async (c) => c.json(await portal.setStatus(ctxOf(c), portalOf(c), 'paused')));
mount(router, r.portalResume, async (c) => c.json(await portal.setStatus(ctxOf(c), portalOf(c), 'active')));
mount(router, r.portalSettlement, async (c, { query }) => c.json(await portal.channelSettlement(ctxOf(c), portalOf(c), query.month)));
mount(router, r.portalSetWebhook, async (c, { body }) => c.json(await portal.setWebhook(ctxOf(c), portalOf(c), body)));
mount(router, r.portalRemoveWebhook, async (c) => c.json(await portal.removeWebhook(ctxOf(c), portalOf(c))));

export default router;
