import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// Static paths before /slip-reservations/{id} (Hono matches in registration order).
mount(router, r.availability, async (c, { query }) => c.json(await svc.slipAvailability(ctxOf(c), query)));
mount(router, r.checkAvailability, async (c, { query }) => c.json(await svc.checkAvailability(ctxOf(c), query)));
mount(router, r.list, async (c, { query }) => c.json(await svc.listReservations(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => c.json(await svc.createReservation(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await svc.reservationStats(ctxOf(c), query)));
mount(router, r.dueBilling, async (c, { query }) => c.json(await svc.dueBilling(ctxOf(c), query)));
mount(router, r.expiring, async (c, { query }) => c.json(await svc.expiringSoon(ctxOf(c), query)));
mount(router, r.byNumber, async (c, { params }) => c.json(await svc.getByNumber(ctxOf(c), params.reservationNumber)));
mount(router, r.get, async (c, { params }) => c.json(await svc.getReservation(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await svc.updateReservation(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await svc.deleteReservation(ctxOf(c), params.id)));
mount(router, r.recalculate, async (c, { params, body }) => c.json(await svc.recalculateTotal(ctxOf(c), params.id, body)));
mount(router, r.confirm, async (c, { params, body }) => c.json(await svc.confirmReservation(ctxOf(c), params.id, body)));
mount(router, r.sendBill, async (c, { params, body }) => c.json(await svc.sendBill(ctxOf(c), params.id, body)));
mount(router, r.checkIn, async (c, { params }) => c.json(await svc.checkIn(ctxOf(c), params.id)));
mount(router, r.checkOut, async (c, { params }) => c.json(await svc.checkOut(ctxOf(c), params.id)));
mount(router, r.cancel, async (c, { params, body }) => c.json(await svc.cancelReservation(ctxOf(c), params.id, body)));
mount(router, r.transfer, async (c, { params, body }) => c.json(await svc.transferReservation(ctxOf(c), params.id, body)));
mount(router, r.contractSigned, async (c, { params, body }) => c.json(await svc.markContractSigned(ctxOf(c), params.id, body)));
mount(router, r.sendMessage, async (c, { params, body }) => c.json(await svc.sendMessage(ctxOf(c), params.id, body), 201));
mount(router, r.listMessages, async (c, { params, query }) => c.json(await svc.listMessages(ctxOf(c), params.id, query)));
mount(router, r.recordPayment, async (c, { params, body }) => c.json(await svc.recordPayment(ctxOf(c), params.id, body), 201));
mount(router, r.payments, async (c, { params }) => c.json(await svc.paymentHistory(ctxOf(c), params.id)));
mount(router, r.chargeCard, async (c, { params, body }) => c.json(await svc.chargeCard(ctxOf(c), params.id, body), 201));
mount(router, r.terminalCharge, async (c, { params, body }) => {
  const res = await svc.terminalCharge(ctxOf(c), params.id, body);
  return c.json(res, res.status === 'pending' ? 200 : 201);
});
mount(router, r.recognizeRevenue, async (c, { params, body }) => c.json(await svc.recognizeRevenue(ctxOf(c), params.id, body)));
mount(router, r.refund, async (c, { params, body }) => c.json(await svc.refundPayment(ctxOf(c), params.id, body), 201));

export default router;
