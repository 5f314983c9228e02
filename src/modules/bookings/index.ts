import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, requirePermission } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

// Cancel and no-show need the `bookings` permission when an operator user calls them; other
// paths (channel, renter self-service) call the services with their own checks.

mount(router, r.book, async (c, { body }) => c.json(await svc.createBooking(ctxOf(c), body, { source: 'operator' }), 201));
mount(router, r.getOne, async (c, { params }) => c.json(await svc.getBooking(ctxOf(c), params.rentalId)));
mount(router, r.cancel, async (c, { params, body }) => {
  const ctx = ctxOf(c);
  requirePermission(ctx, 'bookings');
  const res = await svc.cancelBooking(ctx, params.rentalId, body);
  return c.json({ ...res.booking, alreadyCancelled: res.alreadyCancelled, ...(res.refund ? { refund: res.refund } : {}) });
});
mount(router, r.reschedule, async (c, { params, body }) => c.json(await svc.rescheduleBooking(ctxOf(c), params.rentalId, body)));
mount(router, r.confirm, async (c, { params, body }) => c.json(await svc.confirmBooking(ctxOf(c), params.rentalId, body)));
mount(router, r.checkIn, async (c, { params, body }) => c.json(await svc.checkInBooking(ctxOf(c), params.rentalId, body)));
mount(router, r.checkOut, async (c, { params, body }) => c.json(await svc.checkOutBooking(ctxOf(c), params.rentalId, body)));
mount(router, r.noShow, async (c, { params, body }) => {
  const ctx = ctxOf(c);
  requirePermission(ctx, 'bookings');
  return c.json(await svc.noShowBooking(ctx, params.rentalId, body));
});

export default router;
