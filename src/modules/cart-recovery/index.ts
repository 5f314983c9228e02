import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { publicBaseUrl } from '../short-links/service';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
const apiBase = (c: Context<AppEnv>) => publicBaseUrl(c.env, new URL(c.req.url).origin);
const clientIp = (c: Context<AppEnv>) => c.req.header('cf-connecting-ip') ?? null;

mount(router, r.createCart, async (c, { body }) => c.json(await svc.upsertCart(ctxOf(c), body, clientIp(c))));
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
