import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getEndpoint, listDeliveries, listEndpoints } from './queries';
import { createEndpoint, deleteEndpoint, replayDelivery, sendTestEvent, updateEndpoint } from './service';

const router = createRouter();

mount(router, r.createWebhook, async (c, { body }) => c.json(await createEndpoint(ctxOf(c), body), 201));
mount(router, r.listWebhooks, async (c) => c.json(await listEndpoints(ctxOf(c))));
mount(router, r.getWebhook, async (c, { params }) => c.json(await getEndpoint(ctxOf(c), params.id)));
mount(router, r.updateWebhook, async (c, { params, body }) => c.json(await updateEndpoint(ctxOf(c), params.id, body)));
mount(router, r.deleteWebhook, async (c, { params }) => c.json(await deleteEndpoint(ctxOf(c), params.id)));
mount(router, r.listDeliveries, async (c, { params, query }) => c.json(await listDeliveries(ctxOf(c), params.id, query)));
mount(router, r.replayDelivery, async (c, { params }) => c.json(await replayDelivery(ctxOf(c), params.deliveryId), 202));
mount(router, r.testWebhook, async (c, { params }) => c.json(await sendTestEvent(ctxOf(c), params.id), 202));

export default router;
