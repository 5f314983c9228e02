import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { bookingSidekick } from './sidekick';
import { fleetConcierge } from './concierge';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

mount(router, r.sidekick, async (c, { body }) => c.json(await bookingSidekick(ctxOf(c), body, clientIp(c))));
mount(router, r.concierge, async (c, { body }) => c.json(await fleetConcierge(ctxOf(c), body, clientIp(c))));

export default router;
