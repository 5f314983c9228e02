import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import { sessionCtx } from '../../lib/d1-session';
import * as r from './routes';
import { widgetCatalog } from './catalog';
import { checkout, quoteOrder } from './checkout';
import { recordEvent } from './events';
import { widgetHtml } from './page';
import { renterPageHeaders } from '../../lib/renter-page';
import { limitAbuse } from '../../lib/abuse';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const origin = (c: Context<AppEnv>) => (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/$/, '');

mount(router, r.page, (c) => c.html(widgetHtml(), 200, renterPageHeaders(c.env, { framed: true })));
mount(router, r.catalog, async (c, { query }) => {
  const { ctx, stamp } = sessionCtx(c);
  const body = await widgetCatalog(ctx, query);
  stamp();
  return c.json(body);
});
mount(router, r.quote, async (c, { body }) => {
  const { ctx, stamp } = sessionCtx(c);
  const out = await quoteOrder(ctx, body);
  stamp();
  return c.json(out);
});
mount(router, r.checkout, async (c, { body }) => {
  await limitAbuse(c, 'widget-checkout', { operator: body.customerId, target: body.paymentMethodId ?? body.customerInfo.email });
  const { ctx, stamp } = sessionCtx(c, 'write');
  const out = await checkout(ctx, body, origin(c));
  stamp();
  return c.json(out, 201);
});
mount(router, r.events, async (c, { body }) => c.json(await recordEvent(ctxOf(c), body, clientIp(c)), 201));

export default router;
