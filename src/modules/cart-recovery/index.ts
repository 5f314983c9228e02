import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { publicBaseUrl } from '../short-links/service';
import * as r from './routes';
import {
  cartAnalytics,
  completeCart,
  deleteCart,
  deleteOwnedCart,
  getPublicCart,
  itemsNeedingContact,
  listCartsWithStats,
  listLocationCarts,
  markContacted,
  upsertCart,
} from './carts';
import { processNow, sendRecoveryEmail } from './contact';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const apiBase = (c: Context<AppEnv>) => publicBaseUrl(c.env, new URL(c.req.url).origin);

mount(router, r.createCart, async (c, { body }) => {
  await limitAbuse(c, 'cart-recovery', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  return c.json(await upsertCart(ctxOf(c), body, clientIp(c)));
});
mount(router, r.analytics, async (c, { params, query }) => c.json(await cartAnalytics(ctxOf(c), params.locationId, query)));
mount(router, r.getPublicCart, async (c, { params }) => c.json(await getPublicCart(ctxOf(c), params.id)));
mount(router, r.completeCart, async (c, { params, query }) => c.json(await completeCart(ctxOf(c), params.id, query)));
mount(router, r.listCarts, async (c, { params, query }) => c.json(await listLocationCarts(ctxOf(c), params.id, query)));
mount(router, r.deleteOwnedCart, async (c, { params }) => c.json(await deleteOwnedCart(ctxOf(c), params.id)));
mount(router, r.needingContact, async (c, { query }) => c.json(await itemsNeedingContact(ctxOf(c), query)));
mount(router, r.listWithStats, async (c, { params, query }) => c.json(await listCartsWithStats(ctxOf(c), params.id, query)));
mount(router, r.contact, async (c, { params }) => c.json(await markContacted(ctxOf(c), params.id)));
mount(router, r.deleteCart, async (c, { params }) => c.json(await deleteCart(ctxOf(c), params.id)));
mount(router, r.sendEmail, async (c, { body }) => c.json(await sendRecoveryEmail(ctxOf(c), body, apiBase(c))));
mount(router, r.processScheduled, async (c) => c.json(await processNow(ctxOf(c), apiBase(c))));

export default router;
