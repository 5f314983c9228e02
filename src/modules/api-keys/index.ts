import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listKeys } from './queries';
import { createKey, revokeKey } from './service';

const router = createRouter();

mount(router, r.createKey, async (c, { body }) => c.json(await createKey(ctxOf(c), body.name), 201));
mount(router, r.listKeys, async (c) => c.json(await listKeys(ctxOf(c))));
mount(router, r.revokeKey, async (c, { params }) => c.json(await revokeKey(ctxOf(c), params.id)));

export default router;
