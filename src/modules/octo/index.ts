import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import * as r from './routes';
import { getSupplier, listCapabilities, getProducts, getProduct } from './products';
import { checkAvailability, availabilityCalendar } from './availability';
import { reserveBooking, extendBooking, updateBooking } from './reserve';
import { confirmBooking } from './confirm';
import { cancelBooking } from './cancel';
import { getBooking, listBookings } from './lookup';
import { getSettings, putSettings } from './settings';
import { callerOf } from './auth';
import { octoErrorHandler } from './render';

/** `/octo/v1`: OCTO's error bodies (render.ts) instead of Berth's envelope, for every route and unknown path of the prefix. */
const octo = createRouter();
octo.onError(octoErrorHandler);

mount(octo, r.supplier, async (c) => c.json(await getSupplier(ctxOf(c), callerOf(c), c.req.header('octo-supplier-id')?.trim() || undefined)));
mount(octo, r.capabilities, async (c) => c.json(listCapabilities()));
mount(octo, r.products, async (c) => {
  const res = c.json(await getProducts(ctxOf(c), callerOf(c)));
  res.headers.set('Cache-Control', 'private, max-age=86400');
  return res;
});
mount(octo, r.product, async (c, { params }) => {
  const res = c.json(await getProduct(ctxOf(c), callerOf(c), params.productId));
  res.headers.set('Cache-Control', 'private, max-age=86400');
  return res;
});
mount(octo, r.availability, async (c, { body }) => c.json(await checkAvailability(ctxOf(c), callerOf(c), body)));
mount(octo, r.calendar, async (c, { body }) => c.json(await availabilityCalendar(ctxOf(c), callerOf(c), body)));
mount(octo, r.reserve, async (c, { body }) => c.json(await reserveBooking(ctxOf(c), callerOf(c), body)));
mount(octo, r.list, async (c, { query }) => c.json(await listBookings(ctxOf(c), callerOf(c), query)));
mount(octo, r.getOne, async (c, { params }) => c.json(await getBooking(ctxOf(c), callerOf(c), params.uuid)));
mount(octo, r.update, async (c, { params, body }) => c.json(await updateBooking(ctxOf(c), callerOf(c), params.uuid, body)));
mount(octo, r.extend, async (c, { params, body }) => c.json(await extendBooking(ctxOf(c), callerOf(c), params.uuid, body.expirationMinutes)));
mount(octo, r.confirm, async (c, { params, body }) => c.json(await confirmBooking(ctxOf(c), callerOf(c), params.uuid, body)));
mount(octo, r.cancel, async (c, { params, body }) => c.json(await cancelBooking(ctxOf(c), callerOf(c), params.uuid, body.reason)));
octo.all('/octo/v1/*', (c) => {
  throw new ApiError('route_not_found', `No OCTO endpoint for ${c.req.method} ${new URL(c.req.url).pathname}`);
});

/** The operator's own settings, in Berth's envelope. */
const settings = createRouter();
mount(settings, r.getSettings, async (c) => c.json(await getSettings(ctxOf(c))));
mount(settings, r.putSettings, async (c, { body }) => c.json(await putSettings(ctxOf(c), body)));

const router = createRouter();
router.route('/', octo);
router.route('/', settings);

export default router;
