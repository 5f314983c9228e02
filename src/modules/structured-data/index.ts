import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;
const ldJson = { 'cache-control': 'public, max-age=300' };

mount(router, r.inventorySchema, async (c, { params, query }) =>
  c.json(await svc.inventorySchema(ctxOf(c), params.inventoryId, query, origin(c.req.url)), 200, ldJson),
);
mount(router, r.locationSchema, async (c, { params, query }) =>
  c.json(await svc.locationSchema(ctxOf(c), params.locationId, query, origin(c.req.url)), 200, ldJson),
);
mount(router, r.operatorSchema, async (c, { params, query }) =>
  c.json(await svc.operatorSchema(ctxOf(c), params.customerId, query, origin(c.req.url)), 200, ldJson),
);

export default router;
