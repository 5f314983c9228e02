import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.sidekick, async (c, { body }) => c.json(await svc.bookingSidekick(ctxOf(c), body, c.req.header('cf-connecting-ip') ?? null)));
mount(router, r.concierge, async (c, { body }) => c.json(await svc.fleetConcierge(ctxOf(c), body, c.req.header('cf-connecting-ip') ?? null)));

export default router;
