import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { connect, disconnect, getMappings, setMappings, status } from './link';
import { cancelReservation, createInvoice, createReservation, findReservations, inventoryTypes, products, updateReservation } from './reservations';
import { syncBooking } from './sync';

const router = createRouter();

mount(router, r.status, async (c, { query }) => c.json(await status(ctxOf(c), query.customerId)));
mount(router, r.connect, async (c, { body }) => c.json(await connect(ctxOf(c), body)));
mount(router, r.disconnect, async (c, { query }) => c.json(await disconnect(ctxOf(c), query.customerId)));
mount(router, r.inventoryTypes, async (c, { query }) => c.json(await inventoryTypes(ctxOf(c), query.customerId)));
mount(router, r.products, async (c, { query }) => c.json(await products(ctxOf(c), query.customerId)));
mount(router, r.findReservations, async (c, { query }) => c.json(await findReservations(ctxOf(c), query)));
mount(router, r.createReservation, async (c, { body }) => c.json(await createReservation(ctxOf(c), body), 201));
mount(router, r.updateReservation, async (c, { params, body }) => c.json(await updateReservation(ctxOf(c), params.reservationId, body)));
mount(router, r.cancelReservation, async (c, { params, body }) => c.json(await cancelReservation(ctxOf(c), params.reservationId, body.customerId)));
mount(router, r.createInvoice, async (c, { params, body }) => c.json(await createInvoice(ctxOf(c), params.reservationId, body), 201));
mount(router, r.syncBooking, async (c, { body }) => c.json(await syncBooking(ctxOf(c), body)));
mount(router, r.getMappings, async (c, { query }) => c.json(await getMappings(ctxOf(c), query.customerId)));
mount(router, r.setMappings, async (c, { body }) => c.json(await setMappings(ctxOf(c), body)));

export default router;
