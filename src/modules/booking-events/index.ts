import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listEvents } from './queries';
import { createEvent } from './service';

const router = createRouter();

mount(router, r.createEvent, async (c, { body }) => c.json(await createEvent(ctxOf(c), body), 200));
mount(router, r.listEvents, async (c, { query }) => c.json(await listEvents(ctxOf(c), query)));

export default router;
