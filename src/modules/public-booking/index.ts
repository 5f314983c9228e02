import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.getOrder, async (c, { params }) => c.json(await svc.getOrder(ctxOf(c), params.orderId)));
mount(router, r.getBooking, async (c, { query }) => c.json(await svc.getPublicBooking(ctxOf(c), query.TransactionId)));
mount(router, r.patchBooking, async (c, { body }) => c.json(await svc.patchPublicBooking(ctxOf(c), body)));
mount(router, r.getCustomer, async (c, { query }) => c.json(await svc.encryptedCustomer(ctxOf(c), query.customer_id)));
mount(router, r.widgetInfo, async (c, { query }) => c.json(await svc.widgetInfo(ctxOf(c), query)));

export default router;
