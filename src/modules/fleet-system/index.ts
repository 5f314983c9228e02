import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.status, async (c, { query }) => c.json(await svc.status(ctxOf(c), query.customerId)));
mount(router, r.connect, async (c, { body }) => c.json(await svc.connect(ctxOf(c), body)));
mount(router, r.disconnect, async (c, { query }) => c.json(await svc.disconnect(ctxOf(c), query.customerId)));
mount(router, r.inventoryTypes, async (c, { query }) => c.json(await svc.inventoryTypes(ctxOf(c), query.customerId)));
mount(router, r.products, async (c, { query }) => c.json(await svc.products(ctxOf(c), query.customerId)));
mount(router, r.findReservations, async (c, { query }) => c.json(await svc.findReservations(ctxOf(c), query)));
mount(router, r.createReservation, async (c, { body }) => c.json(await svc.createReservation(ctxOf(c), body), 201));
mount(router, r.updateReservation, async (c, { params, body }) => c.json(await svc.updateReservation(ctxOf(c), params.reservationId, body)));
mount(router, r.cancelReservation, async (c, { params, body }) => c.json(await svc.cancelReservation(ctxOf(c), params.reservationId, body.customerId)));
mount(router, r.createInvoice, async (c, { params, body }) => c.json(await svc.createInvoice(ctxOf(c), params.reservationId, body), 201));
mount(router, r.syncBooking, async (c, { body }) => c.json(await svc.syncBooking(ctxOf(c), body)));
mount(router, r.getMappings, async (c, { query }) => c.json(await svc.getMappings(ctxOf(c), query.customerId)));
mount(router, r.setMappings, async (c, { body }) => c.json(await svc.setMappings(ctxOf(c), body)));

export default router;
