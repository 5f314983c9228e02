import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
const base = (c: Context<AppEnv>) => svc.publicBaseUrl(c.env, new URL(c.req.url).origin);

mount(router, r.generateShortCode, async (c, { body }) => c.json(await svc.createShortLink(ctxOf(c), { ...body, baseUrl: base(c) })));
mount(router, r.getShortLink, async (c, { params }) => c.json(await svc.getShortLink(ctxOf(c), params.code, base(c))));
mount(router, r.followShortLink, async (c, { params }) => {
  const url = await svc.followShortLink(ctxOf(c), params.code);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(url, 302);
});

export default router;
