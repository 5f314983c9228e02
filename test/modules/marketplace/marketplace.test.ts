/**
 * The tour marketplace through HTTP: configuration (admins, keys never returned), the supplier
 * API's authentication (header key, data.ApiKey, inactive configuration), catalog, availability,
 * reservations that hold price and inventory through the item's lock, confirmation, cancellation
 * and amendment through the booking service (with the same booking.* events), and outbound
 * availability notifications.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db, eventually, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, counts, dateAhead, eventsOf, rentalItem, tourItem, type TestItem } from '../bookings/factories';
import { configureMarketplace, confirm, mk, reserve, travelers } from './factories';
import { marketplaceConfigs, marketplaceNotifications } from '../../../src/db/schema/marketplace';
import { unseal } from '../../../src/lib/sealed';
import { SimulatedMarketplace } from '../../../src/adapters/marketplace';
import { eq } from 'drizzle-orm';

const TZ = 'America/New_York';

async function activeHoldAllocations(itemId: string) {
  const r = await env.DB.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(seats),0) AS seats FROM allocations WHERE item_id = ? AND kind = 'hold' AND active = 1")
    .bind(itemId)
    .first<{ n: number; seats: number }>();
  return r!;
}

describe('marketplace configuration', () => {
  it('admins only; keys hashed or sealed and never returned; an apiKey belongs to one operator', async () => {
    const op = await createOperator();
    const body = { customerId: op.customerId, supplierId: 'SUP-1', apiKey: 'inbound-key-0123456789', outboundApiKey: 'outbound-secret-key', currency: 'usd' };
    await checkSecurity(op, { method: 'POST', path: '/ota/admin/configure', body, otherStatus: 403, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: '/ota/admin/configuration', otherStatus: 404, adminOnly: true });
    const r = await post('/ota/admin/configure', body, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ supplierId: 'SUP-1', apiKeyLast4: '6789', hasOutboundApiKey: true, currency: 'usd', isActive: true, holdMinutes: 20 });
    expect(JSON.stringify(r.body)).not.toContain('outbound-secret-key');
    expect(JSON.stringify(r.body)).not.toContain('inbound-key-0123456789');
    const row = (await db().select().from(marketplaceConfigs).where(eq(marketplaceConfigs.customerId, op.customerId)).get())!;
    expect(row.apiKeyHash).not.toContain('inbound');
    expect(row.outboundApiKey).not.toContain('outbound-secret-key');
    expect(await unseal(env, row.outboundApiKey!)).toBe('outbound-secret-key');
    expect((await get('/ota/admin/configuration', { key: op.adminKey })).body).toMatchObject({ supplierId: 'SUP-1', hasOutboundApiKey: true });
    // Reconfiguring without outboundApiKey keeps it.
    await post('/ota/admin/configure', { ...body, outboundApiKey: undefined, supplierId: 'SUP-2' }, { key: op.adminKey });
    expect((await get('/ota/admin/configuration', { key: op.adminKey })).body).toMatchObject({ supplierId: 'SUP-2', hasOutboundApiKey: true });
    const other = await createOperator();
    expectError(await post('/ota/admin/configure', { ...body, customerId: other.customerId }, { key: other.adminKey }), 409, 'already_exists');
    expectError(await post('/ota/admin/configure', { ...body, apiKey: 'short' }, { key: op.adminKey }), 400, 'validation_failed');
  });
});

describe('marketplace supplier API', () => {
  let op: Operator;
  let apiKey: string;
  let boat: TestItem;
  let tour: TestItem;
  beforeAll(async () => {
    op = await createOperator({ timezone: TZ });
    boat = await rentalItem(op, { assets: 1, data: { durations: [2, 4] } });
    tour = await tourItem(op, { capacity: 4 });
    await rentalItem(op, { isPublic: false });
    ({ apiKey } = await configureMarketplace(op));
  });

  it('authenticates with the marketplace key: inputs first (400), then 401 missing/unknown, 403 inactive', async () => {
    expectError(await post('/ota/tourlist', {}), 401, 'missing_marketplace_key');
    expectError(await post('/ota/tourlist', {}, mk('unknown-key-00000000000')), 401, 'invalid_marketplace_key');
    // An operator API key is not a marketplace key.
    expectError(await post('/ota/tourlist', {}, { headers: { 'exp-api-key': op.adminKey } }), 401, 'invalid_marketplace_key');
    expectError(await post('/ota/v2/availability/calendar', {}), 400, 'validation_failed');
    expectError(await post('/ota/v2/reserve', { productOptionId: boat.id }, mk('unknown-key-00000000000')), 400, 'validation_failed');
    expect((await post('/ota/tourlist', {}, { headers: { 'x-marketplace-key': apiKey } })).status).toBe(200);
    // Inactive: refused with 403, nothing else happens.
    const off = await createOperator();
    const { apiKey: offKey } = await configureMarketplace(off, { isActive: false });
    expectError(await post('/ota/tourlist', {}, mk(offKey)), 403, 'marketplace_inactive');
    expectError(await post('/ota/api', { requestType: 'TourListRequest', data: { ApiKey: offKey } }), 403, 'marketplace_inactive');
    const special = await post('/ota/v2/product/special-offers', {}, mk(apiKey));
    expect(special.body).toEqual({ offers: [] });
  });

  it('/ota/api: 400 missing or unknown requestType (before the key), 401 bad key, data validated, same answers as the routes', async () => {
    expectError(await post('/ota/api', { data: {} }), 400, 'validation_failed');
    expectError(await post('/ota/api', { requestType: 'FlyToTheMoon', data: {} }), 400, 'unknown_request_type');
    expectError(await post('/ota/api', { requestType: 'TourListRequest', data: {} }), 401, 'missing_marketplace_key');
    expectError(await post('/ota/api', { requestType: 'TourListRequest', data: { ApiKey: 'nope-nope-nope-nope' } }), 401, 'invalid_marketplace_key');
    const list = await post('/ota/api', { requestType: 'TourListRequest', data: { ApiKey: apiKey } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.requestType).toBe('TourListRequest');
    expect(list.body.data).toEqual((await post('/ota/tourlist', {}, mk(apiKey))).body);
    const bad = await post('/ota/api', { requestType: 'availabilitycheck', data: { ApiKey: apiKey, travelDate: 'tomorrow' } });
    expectError(bad, 400, 'validation_failed');
    expect(bad.body.details.map((d: any) => d.field)).toContain('data.travelDate');
    const check = await post('/ota/api', {
      requestType: 'AvailabilityCheck',
      data: { ApiKey: apiKey, travelDate: dateAhead(TZ, 5), productOptions: [{ productOptionId: tour.id, startTime: '10:00', totalTravelers: 2 }] },
    });
    expect(check.status, check.text).toBe(200);
    expect(check.body.data.results[0]).toMatchObject({
      available: true,
      startTimes: [{ startTime: '10:00', vacancies: 4, totalPrice: { amount: 100, currency: 'USD' } }],
    });
  });

  it('tour list: public items as tours with options (rental durations, tour age bands)', async () => {
    const r = await post('/ota/tourlist', {}, mk(apiKey));
    expect(r.status, r.text).toBe(200);
    expect(r.body.currency).toBe('USD');
    expect(r.body.tours.map((t: any) => t.productCode).sort()).toEqual([boat.id, tour.id].sort());
    const b = r.body.tours.find((t: any) => t.productCode === boat.id);
    expect(b.options.map((o: any) => o.productOptionId)).toEqual([`${boat.id}:2h`, `${boat.id}:4h`]);
    expect(b.options[0]).toMatchObject({ title: '2 hours', durationMinutes: 120, fromPrice: { amount: 200, currency: 'USD' } });
    const t = r.body.tours.find((x: any) => x.productCode === tour.id);
    expect(t.options[0].ageBands).toEqual([
      { ageBand: 'ADULT', price: { amount: 50, currency: 'USD' }, minAge: null, maxAge: null },
      { ageBand: 'CHILD', price: { amount: 25, currency: 'USD' }, minAge: null, maxAge: null },
    ]);
  });

  it('availability calendar: start times and vacancies per date; unknown options answered per option', async () => {
    const r = await post(
      '/ota/v2/availability/calendar',
      { productOptionIds: [tour.id, `${boat.id}:4h`, 'inv_unknown'], startDate: dateAhead(TZ, 6), endDate: dateAhead(TZ, 7) },
      mk(apiKey),
    );
    expect(r.status, r.text).toBe(200);
    const [t, b, u] = r.body.results;
    expect(t.dates).toHaveLength(2);
    expect(t.dates[0].startTimes).toEqual([
      { startTime: '10:00', available: true, vacancies: 4 },
      { startTime: '14:00', available: true, vacancies: 4 },
    ]);
    // A 4-hour rental from 08:00 to 14:00 (the item closes at 18:00).
    expect(b.dates[0].startTimes.map((s: any) => s.startTime)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00']);
    expect(u).toMatchObject({ productOptionId: 'inv_unknown', error: 'UNKNOWN_PRODUCT_OPTION', dates: [] });
    expectError(
      await post('/ota/v2/availability/calendar', { productOptionIds: [tour.id], startDate: dateAhead(TZ, 1), endDate: dateAhead(TZ, 40) }, mk(apiKey)),
      400,
    );
  });

  it('reserve holds price and inventory for 20 minutes in the lock; the hold counts against capacity and expires by itself', async () => {
    const date = dateAhead(TZ, 8);
    const start = at(TZ, 8, '10:00');
    const res = await reserve(apiKey, { productOptionId: `${boat.id}:2h`, travelDate: date, startTime: '10:00', totalTravelers: 3 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'RESERVED', startTime: '10:00', startTimeUtc: start, price: { amount: 200, currency: 'USD' }, holdMinutes: 20 });
    const holdMs = Date.parse(res.body.expiresAt) - Date.now();
    expect(holdMs).toBeGreaterThanOrEqual(15 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(20 * 60_000 + 5_000);
    // The unit is taken for everyone else: another reserve, an operator checkout.
    expectError(await reserve(apiKey, { productOptionId: `${boat.id}:2h`, travelDate: date, startTime: '10:00' }), 409, 'unavailable');
    expectError(await book(op, bookBody({ inventoryId: boat.id, startTime: at(TZ, 8, '11:00'), endTime: at(TZ, 8, '13:00') })), 409, 'unavailable');
    const cal = await post('/ota/v2/availability/calendar', { productOptionIds: [`${boat.id}:2h`], startDate: date, endDate: date }, mk(apiKey));
    expect(cal.body.results[0].dates[0].startTimes.find((s: any) => s.startTime === '10:00')).toEqual({ startTime: '10:00', available: false, vacancies: 0 });
    expect((await activeHoldAllocations(boat.id)).n).toBe(1);

    // The price is held: the operator raises the price, the confirmation keeps the held one.
    const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
    const paths = days.map((d) => `'$.seasons[0].hourlyPrices.${d}.basePrice', 999`).join(', ');
    await env.DB.prepare(`UPDATE inventory_items SET data = json_set(data, ${paths}), version = version + 1 WHERE id = ?`).bind(boat.id).run();
    const c = await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-BOOK-1', travelers });
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ status: 'CONFIRMED', bookingRef: 'MKT-BOOK-1', price: { amount: 200 } });
    const booking = await get(`/coreBooking/${c.body.rentalId}`, { key: op.adminKey });
    expect(booking.body).toMatchObject({ status: 'confirmed', source: 'marketplace', startTime: start, pricing: { total: 200, amountPaid: 200 } });
    // The hold became the booking: one unit, no hold left.
    expect((await activeHoldAllocations(boat.id)).n).toBe(0);
    const alloc = await env.DB.prepare("SELECT COUNT(*) AS n FROM allocations WHERE item_id = ? AND kind = 'booking' AND active = 1 AND source_id = ?")
      .bind(boat.id, c.body.rentalId)
      .first<{ n: number }>();
    expect(alloc!.n).toBe(1);
    // Idempotent on bookingRef; another ref on the same reservation is rejected.
    const again = await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-BOOK-1', travelers });
    expect(again.body).toMatchObject({ status: 'CONFIRMED', rentalId: c.body.rentalId });
    expect((await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-OTHER', travelers })).body).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'ALREADY_CONFIRMED',
    });
    expect((await counts(op.customerId)).bookings).toBe(1);
  });

  it('an expired hold stops counting at once and cannot be confirmed', async () => {
    const date = dateAhead(TZ, 9);
    const res = await reserve(apiKey, { productOptionId: `${boat.id}:2h`, travelDate: date, startTime: '14:00' });
    expect(res.status, res.text).toBe(200);
    // Fast-forward: the hold's expiry is in the past.
    const past = Date.now() - 1000;
    await env.DB.prepare('UPDATE allocations SET expires_at = ? WHERE source_id = ?').bind(past, res.body.reservationReference).run();
    await env.DB.prepare('UPDATE marketplace_reservations SET expires_at = ? WHERE id = ?').bind(past, res.body.reservationReference).run();
    const rejected = await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-LATE', travelers });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'HOLD_EXPIRED' });
    // The unit is free again without any sweep.
    const b = await book(op, bookBody({ inventoryId: boat.id, startTime: at(TZ, 9, '14:00'), endTime: at(TZ, 9, '16:00') }));
    expect(b.status, b.text).toBe(201);
    expect((await confirm(apiKey, { reservationReference: 'mkr_unknown', bookingRef: 'X', travelers })).body.rejectionReason).toBe('UNKNOWN_RESERVATION');
  });

  it('tours: tickets by age band hold seats; confirmation, amendment and cancellation fire the booking events', async () => {
    const date = dateAhead(TZ, 10);
    const res = await reserve(apiKey, {
      productOptionId: tour.id,
      travelDate: date,
      startTime: '10:00',
      tickets: [
        { ageBand: 'ADULT', quantity: 2 },
        { ageBand: 'child', quantity: 1 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ totalTravelers: 3, price: { amount: 125 } });
    expect((await activeHoldAllocations(tour.id)).seats).toBe(3);
    // One seat left: a party of 2 does not fit.
    const check = await post(
      '/ota/v2/availability/check',
      { travelDate: date, productOptions: [{ productOptionId: tour.id, startTime: '10:00', totalTravelers: 2 }] },
      mk(apiKey),
    );
    expect(check.body.results[0]).toMatchObject({ available: false });
    expectError(await reserve(apiKey, { productOptionId: tour.id, travelDate: date, startTime: '10:00', totalTravelers: 2 }), 409, 'unavailable');
    expectError(await reserve(apiKey, { productOptionId: tour.id, travelDate: date, startTime: '11:00' }), 400);
    expectError(await reserve(apiKey, { productOptionId: tour.id, travelDate: date, tickets: [{ ageBand: 'SENIOR', quantity: 1 }] }), 400);
    expectError(await reserve(apiKey, { productOptionId: 'inv_unknown', travelDate: date }), 404, 'unknown_product_option');

    const c = await confirm(apiKey, {
      reservationReference: res.body.reservationReference,
      bookingRef: 'MKT-TOUR-1',
      travelers: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@traveler.test' }],
    });
    expect(c.body.status, JSON.stringify(c.body)).toBe('CONFIRMED');
    expect((await activeHoldAllocations(tour.id)).seats).toBe(0);
    const created = await eventually(async () => {
      const e = await eventsOf(op.customerId, 'booking.created');
      return e.find((x) => x.payload.data.rentalId === c.body.rentalId);
    });
    expect(created.payload.data).toMatchObject({ source: 'marketplace', quantity: 3 });
    expect((await eventsOf(op.customerId, 'customer.created')).some((e) => e.payload.data.email === 'ada@traveler.test')).toBe(true);

    const amend = await post('/ota/booking-amendment', { bookingRef: 'MKT-TOUR-1', travelDate: dateAhead(TZ, 11), startTime: '14:00' }, mk(apiKey));
    expect(amend.body).toMatchObject({ status: 'CONFIRMED', travelDate: dateAhead(TZ, 11), startTime: '14:00' });
    expect((await get(`/coreBooking/${c.body.rentalId}`, { key: op.adminKey })).body.startTime).toBe(at(TZ, 11, '14:00'));
    expect((await eventsOf(op.customerId, 'booking.rescheduled')).some((e) => e.payload.data.rentalId === c.body.rentalId)).toBe(true);
    const moreTravelers = await post('/ota/booking-amendment', { bookingRef: 'MKT-TOUR-1', travelDate: dateAhead(TZ, 11), totalTravelers: 4 }, mk(apiKey));
    expect(moreTravelers.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'AMENDMENT_NOT_SUPPORTED' });

    const cancel = await post('/ota/booking-cancellation', { bookingRef: 'MKT-TOUR-1', cancelReason: 'Weather' }, mk(apiKey));
    expect(cancel.body).toMatchObject({ status: 'CONFIRMED', bookingRef: 'MKT-TOUR-1' });
    const b = await get(`/coreBooking/${c.body.rentalId}`, { key: op.adminKey });
    expect(b.body).toMatchObject({ status: 'cancelled' });
    const types = (await eventsOf(op.customerId))
      .filter((e) => e.payload.data.rentalId === c.body.rentalId || e.payload.data.booking?.rentalId === c.body.rentalId)
      .map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.status_changed']));
    // Idempotent; unknown references are rejected.
    expect((await post('/ota/booking-cancellation', { bookingRef: 'MKT-TOUR-1' }, mk(apiKey))).body.status).toBe('CONFIRMED');
    expect((await post('/ota/booking-cancellation', { bookingRef: 'NOPE' }, mk(apiKey))).body).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'UNKNOWN_BOOKING',
    });
    expectError(await post('/ota/booking-cancellation', {}, mk(apiKey)), 400);
  });

  it('cancelling a reservation still on hold releases the inventory', async () => {
    const date = dateAhead(TZ, 12);
    const res = await reserve(apiKey, { productOptionId: `${boat.id}:4h`, travelDate: date, startTime: '09:00' });
    expect(res.status).toBe(200);
    const rel = await post('/ota/booking-cancellation', { reservationReference: res.body.reservationReference }, mk(apiKey));
    expect(rel.body.status).toBe('CONFIRMED');
    expect((await book(op, bookBody({ inventoryId: boat.id, startTime: at(TZ, 12, '10:00'), endTime: at(TZ, 12, '12:00') }))).status).toBe(201);
    expect((await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-REL', travelers })).body.rejectionReason).toBe(
      'HOLD_EXPIRED',
    );
  });
});

describe('marketplace outbound notifications', () => {
  it('capacity coming back is notified with the outbound key; an inactive configuration sends nothing', async () => {
    const op = await createOperator({ timezone: TZ });
    const item = await rentalItem(op, { assets: 1 });
    const { config } = await configureMarketplace(op, { outboundApiKey: 'outbound-0123456789' });
    const sim = new SimulatedMarketplace(env);
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(TZ, 4, '10:00'), endTime: at(TZ, 4, '11:00') }));
    await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey });
    const got = await eventually(async () => (await sim.received(config.supplierId)).find((n) => (n.dates as string[]).includes(dateAhead(TZ, 4))));
    expect(got).toMatchObject({ supplierId: config.supplierId, currency: 'USD', productOptionIds: [`${item.id}:1h`] });
    const logged = await db().select().from(marketplaceNotifications).where(eq(marketplaceNotifications.customerId, op.customerId)).all();
    expect(logged.map((l) => l.status)).toEqual(['sent']);

    // Inactive: the same change sends nothing.
    await post(
      '/ota/admin/configure',
      { customerId: op.customerId, supplierId: config.supplierId, apiKey: `x${crypto.randomUUID()}`, isActive: false },
      { key: op.adminKey },
    );
    const before = (await sim.received(config.supplierId)).length;
    const b2 = await book(op, bookBody({ inventoryId: item.id, startTime: at(TZ, 5, '10:00'), endTime: at(TZ, 5, '11:00') }));
    await post(`/coreBooking/${b2.body.rentalId}/cancel`, {}, { key: op.adminKey });
    await new Promise((r) => setTimeout(r, 300));
    expect((await sim.received(config.supplierId)).length).toBe(before);
    expect(await db().select().from(marketplaceNotifications).where(eq(marketplaceNotifications.customerId, op.customerId)).all()).toHaveLength(1);
  });
});

describe('marketplace currency', () => {
  it('every price is exchanged in the configured currency: items priced in another one are neither listed, quoted nor held', async () => {
    const op = await createOperator({ timezone: TZ });
    const boat = await rentalItem(op, { assets: 1 });
    const { apiKey } = await configureMarketplace(op, { currency: 'eur' });
    const date = dateAhead(TZ, 6);
    const list = await post('/ota/tourlist', {}, mk(apiKey));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ currency: 'EUR', tours: [] });
    const cal = await post('/ota/v2/availability/calendar', { productOptionIds: [`${boat.id}:1h`], startDate: date, endDate: date }, mk(apiKey));
    expect(cal.body).toMatchObject({ currency: 'EUR', results: [{ productOptionId: `${boat.id}:1h`, error: 'CURRENCY_MISMATCH', dates: [] }] });
    const check = await post('/ota/v2/availability/check', { travelDate: date, productOptions: [{ productOptionId: `${boat.id}:1h` }] }, mk(apiKey));
    expect(check.body.results[0]).toMatchObject({ available: false, error: 'CURRENCY_MISMATCH' });
    const held = await reserve(apiKey, { productOptionId: `${boat.id}:1h`, travelDate: date, startTime: '10:00' });
    expectError(held, 400, 'bad_request');
    expect(held.body.message).toMatch(/USD.*EUR/);
    expect((await activeHoldAllocations(boat.id)).n).toBe(0);
    // Switched to the items' currency, the same item is listed and held, priced in it.
    const usd = await post(
      '/ota/admin/configure',
      { customerId: op.customerId, supplierId: `SUP-${op.customerId.slice(-6)}`, apiKey, currency: 'usd' },
      { key: op.adminKey },
    );
    expect(usd.status, usd.text).toBe(200);
    expect((await post('/ota/tourlist', {}, mk(apiKey))).body.tours.map((t: any) => t.productCode)).toEqual([boat.id]);
    const ok = await reserve(apiKey, { productOptionId: `${boat.id}:1h`, travelDate: date, startTime: '10:00' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.price.currency).toBe('USD');
  });
});
