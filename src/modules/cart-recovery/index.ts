import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { publicBaseUrl } from '../short-links/service';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const apiBase = (c: Context<AppEnv>) => publicBaseUrl(c.env, new URL(c.req.url).origin);

mount(router, r.createCart, async (c, { body }) => {
  await limitAbuse(c, 'cart-recovery', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  return c.json(await svc.upsertCart(ctxOf(c), body, clientIp(c)));
});
mount(router, r.analytics, async (c, { params, query }) => c.json(await svc.cartAnalytics(ctxOf(c), params.locationId, query)));
mount(router, r.getPublicCart, async (c, { params }) => c.json(await svc.getPublicCart(ctxOf(c), params.id)));
mount(router, r.completeCart, async (c, { params, query }) => c.json(await svc.completeCart(ctxOf(c), params.id, query)));
mount(router, r.listCarts, async (c, { params, query }) => c.json(await svc.listLocationCarts(ctxOf(c), params.id, query)));
mount(router, r.deleteOwnedCart, async (c, { params }) => c.json(await svc.deleteOwnedCart(ctxOf(c), params.id)));
mount(router, r.needingContact, async (c, { query }) => c.json(await svc.itemsNeedingContact(ctxOf(c), query)));
mount(router, r.listWithStats, async (c, { params, query }) => c.json(await svc.listCartsWithStats(ctxOf(c), params.id, query)));
mount(router, r.contact, async (c, { params }) => c.json(await svc.markContacted(ctxOf(c), params.id)));
mount(router, r.deleteCart, async (c, { params }) => c.json(await svc.deleteCart(ctxOf(c), params.id)));
mount(router, r.sendEmail, async (c, { body }) => c.json(await svc.sendRecoveryEmail(ctxOf(c), body, apiBase(c))));
mount(router, r.processScheduled, async (c) => c.json(await svc.processNow(ctxOf(c), apiBase(c))));

export default router;
