import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { createReservation, transferReservation, updateReservation } from './create';
import { cancelReservation, checkIn, checkOut, confirmReservation, deleteReservation } from './lifecycle';
import { sendBill } from './bill-holds';
import { recalculateTotal, recognizeRevenue } from './repricing';
import { markContractSigned } from './contract-state';
import { chargeCard, paymentHistory, recordPayment, refundPayment, terminalCharge } from './charging';
import { listMessages, sendMessage } from './messages';
import { checkAvailability, slipAvailability } from './availability';
import { dueBilling, expiringSoon, getByNumber, getReservation, listReservations, reservationStats } from './queries';

const router = createRouter();

// Static paths before /slip-reservations/{id} (Hono matches in registration order).
mount(router, r.availability, async (c, { query }) => c.json(await slipAvailability(ctxOf(c), query)));
mount(router, r.checkAvailability, async (c, { query }) => c.json(await checkAvailability(ctxOf(c), query)));
mount(router, r.list, async (c, { query }) => c.json(await listReservations(ctxOf(c), query)));
mount(router, r.create, async (c, { body }) => c.json(await createReservation(ctxOf(c), body), 201));
mount(router, r.stats, async (c, { query }) => c.json(await reservationStats(ctxOf(c), query)));
mount(router, r.dueBilling, async (c, { query }) => c.json(await dueBilling(ctxOf(c), query)));
mount(router, r.expiring, async (c, { query }) => c.json(await expiringSoon(ctxOf(c), query)));
mount(router, r.byNumber, async (c, { params }) => c.json(await getByNumber(ctxOf(c), params.reservationNumber)));
mount(router, r.get, async (c, { params }) => c.json(await getReservation(ctxOf(c), params.id)));
mount(router, r.update, async (c, { params, body }) => c.json(await updateReservation(ctxOf(c), params.id, body)));
mount(router, r.remove, async (c, { params }) => c.json(await deleteReservation(ctxOf(c), params.id)));
mount(router, r.recalculate, async (c, { params, body }) => c.json(await recalculateTotal(ctxOf(c), params.id, body)));
mount(router, r.confirm, async (c, { params, body }) => c.json(await confirmReservation(ctxOf(c), params.id, body)));
mount(router, r.sendBill, async (c, { params, body }) => c.json(await sendBill(ctxOf(c), params.id, body)));
mount(router, r.checkIn, async (c, { params }) => c.json(await checkIn(ctxOf(c), params.id)));
mount(router, r.checkOut, async (c, { params }) => c.json(await checkOut(ctxOf(c), params.id)));
mount(router, r.cancel, async (c, { params, body }) => c.json(await cancelReservation(ctxOf(c), params.id, body)));
mount(router, r.transfer, async (c, { params, body }) => c.json(await transferReservation(ctxOf(c), params.id, body)));
mount(router, r.contractSigned, async (c, { params, body }) => c.json(await markContractSigned(ctxOf(c), params.id, body)));
mount(router, r.sendMessage, async (c, { params, body }) => c.json(await sendMessage(ctxOf(c), params.id, body), 201));
mount(router, r.listMessages, async (c, { params, query }) => c.json(await listMessages(ctxOf(c), params.id, query)));
mount(router, r.recordPayment, async (c, { params, body }) => c.json(await recordPayment(ctxOf(c), params.id, body), 201));
mount(router, r.payments, async (c, { params }) => c.json(await paymentHistory(ctxOf(c), params.id)));
mount(router, r.chargeCard, async (c, { params, body }) => c.json(await chargeCard(ctxOf(c), params.id, body), 201));
mount(router, r.terminalCharge, async (c, { params, body }) => {
  const res = await terminalCharge(ctxOf(c), params.id, body);
  return c.json(res, res.status === 'pending' ? 200 : 201);
});
mount(router, r.recognizeRevenue, async (c, { params, body }) => c.json(await recognizeRevenue(ctxOf(c), params.id, body)));
mount(router, r.refund, async (c, { params, body }) => c.json(await refundPayment(ctxOf(c), params.id, body), 201));

export default router;
