import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { createBooking } from './create';
import { modifyBooking } from './modify';
import { cancelAsOperator, checkInBooking, checkOutBooking, confirmBooking, noShowAsOperator, rescheduleBooking } from './lifecycle';
import { bookingWithMoney, withMoney } from './sale-money';
import { refundBookingPart } from './partial-refund';
import { creditBooking } from './credits';
import { chargeBookingBalance } from './charge-balance';

const router = createRouter();

// Cancel and no-show go through the operator entry points (the `bookings` permission); other
// paths (channel, renter self-service) call cancelBooking with their own checks. Every booking
// answered carries its money view (`money`, from the ledger once the change is written).

// A new booking's money comes from the entries its batch wrote (write.ts); a read's from one batch with the booking.
mount(router, r.book, async (c, { body }) => c.json(await createBooking(ctxOf(c), body, { source: 'operator' }), 201));
mount(router, r.getOne, async (c, { params }) => c.json(await bookingWithMoney(ctxOf(c), params.rentalId)));
mount(router, r.cancel, async (c, { params, body }) => {
  const res = await cancelAsOperator(ctxOf(c), params.rentalId, body);
  const booking = await withMoney(ctxOf(c), res.booking);
  return c.json({ ...booking, alreadyCancelled: res.alreadyCancelled, ...(res.refund ? { refund: res.refund } : {}) });
});
mount(router, r.reschedule, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await rescheduleBooking(ctxOf(c), params.rentalId, body))));
mount(router, r.modify, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await modifyBooking(ctxOf(c), params.rentalId, body))));
mount(router, r.confirm, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await confirmBooking(ctxOf(c), params.rentalId, body))));
mount(router, r.checkIn, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await checkInBooking(ctxOf(c), params.rentalId, body))));
mount(router, r.checkOut, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await checkOutBooking(ctxOf(c), params.rentalId, body))));
mount(router, r.noShow, async (c, { params, body }) => c.json(await withMoney(ctxOf(c), await noShowAsOperator(ctxOf(c), params.rentalId, body))));

// The operator's money actions: each answers the booking with its money view read once the money is written.
mount(router, r.partialRefund, async (c, { params, body }) => {
  const refund = await refundBookingPart(ctxOf(c), params.rentalId, body);
  return c.json({ ...(await bookingWithMoney(ctxOf(c), params.rentalId)), refund });
});
mount(router, r.goodwillCredit, async (c, { params, body }) => {
  const credit = await creditBooking(ctxOf(c), params.rentalId, body);
  return c.json({ ...(await bookingWithMoney(ctxOf(c), params.rentalId)), credit });
});
mount(router, r.chargeBalance, async (c, { params }) => {
  const charge = await chargeBookingBalance(ctxOf(c), params.rentalId);
  return c.json({ ...(await bookingWithMoney(ctxOf(c), params.rentalId)), charge });
});

export default router;
