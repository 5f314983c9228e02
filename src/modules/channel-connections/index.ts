import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.listChannels, async (c) => c.json(await svc.listChannels(ctxOf(c))));
mount(router, r.listConnections, async (c) => c.json(await svc.listConnections(ctxOf(c))));
mount(router, r.createPartnerKey, async (c, { body }) => c.json(await svc.createPartnerKey(ctxOf(c), body), 201));
mount(router, r.getConnection, async (c, { params }) => c.json(await svc.getConnection(ctxOf(c), params.id)));
mount(router, r.connect, async (c, { body }) => c.json(await svc.connect(ctxOf(c), body), 201));
mount(router, r.updateConnection, async (c, { params, body }) => c.json(await svc.updateConnection(ctxOf(c), params.id, body)));
mount(router, r.removeConnection, async (c, { params }) => c.json(await svc.removeConnection(ctxOf(c), params.id)));
mount(router, r.rotateKey, async (c, { params, body }) => c.json(await svc.rotateKey(ctxOf(c), params.id, body.mode)));
mount(router, r.connectionSettlement, async (c, { params, query }) => c.json(await svc.connectionSettlement(ctxOf(c), params.id, query.month)));

export default router;
