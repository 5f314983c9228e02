import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.createKey, async (c, { body }) => c.json(await svc.createKey(ctxOf(c), body.name), 201));
mount(router, r.listKeys, async (c) => c.json(await svc.listKeys(ctxOf(c))));
mount(router, r.revokeKey, async (c, { params }) => c.json(await svc.revokeKey(ctxOf(c), params.id)));

export default router;
