/** The OCTO supplier API (/octo/v1) through HTTP: credentials, catalog, availability, holds, confirmation, updates, cancellation, lists. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, get, patch, put, runCron } from '../../harness';
import { checkSecurity } from '../../security';
import { rentalItem, tourItem, eventsOf, seatsByDeparture, assetOverlaps } from '../bookings/factories';
import { partnerKey } from '../channel/factories';
import { seedSandbox } from '../../../src/seed';
import { DEMO_OCTO_ITEMS } from '../../../src/seed/octo';
import { ALL_CAPS, TZ, availabilityId, book, dateIn, expectOctoError, octo, reseller, unitItems } from './factories';

const TAX = [{ name: 'Sales tax', rate: 10 }];

describe('OCTO credentials, headers and errors', () => {
  it('answers UNAUTHORIZED without a key, FORBIDDEN for an unknown or paused one, NOT_FOUND off the map; echoes capabilities and Octo-Env', async () => {
    const { op, key, connectionId } = await reseller();
    expectOctoError(await octo('GET', '/products', null), 'UNAUTHORIZED');
    expectOctoError(await octo('GET', '/products', 'rtc_live_not_a_real_key_0000000000000000000000'), 'FORBIDDEN');
    expectOctoError(await octo('GET', '/nowhere', key), 'NOT_FOUND', 404);
    const r = await octo('GET', '/products', key, { caps: 'octo/pricing, octo/unknown' });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('octo-capabilities')).toBe('octo/pricing');
    expect(r.headers.get('octo-env')).toBe('live');
    expect(r.headers.get('x-ratelimit-limit')).toBe('300');
    expect(r.headers.get('cache-control')).toBe('private, max-age=86400');
    // The operator pauses the connection: the key is refused.
    const paused = await patch(`/channel-connections/${connectionId}`, { status: 'paused' }, { key: op.adminKey });
    expect(paused.status, paused.text).toBe(200);
    expectOctoError(await octo('GET', '/supplier', key), 'FORBIDDEN');
    // Berth's envelope everywhere else.
    expectError(await get('/channel/v1/me'), 401);
  });

  it('every OCTO route refuses anonymous and unknown keys, and a booking of another reseller is an INVALID_BOOKING_UUID', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 10 });
    const other = await partnerKey(op, { name: 'Another reseller' });
    const b = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(5, '10:00'), unitItems: unitItems('adult', 1) },
    });
    expect(b.status, b.text).toBe(200);
    const routes: [string, string, unknown?][] = [
      ['GET', '/supplier'],
      ['GET', '/capabilities'],
      ['GET', '/products'],
      ['GET', `/products/${tour.id}`],
      ['POST', '/availability', { productId: tour.id, optionId: 'DEFAULT', localDate: dateIn(5) }],
      ['POST', '/availability/calendar', { productId: tour.id, optionId: 'DEFAULT', localDateStart: dateIn(5), localDateEnd: dateIn(6) }],
      ['POST', '/bookings', { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(5, '10:00'), unitItems: unitItems('adult', 1) }],
      ['GET', `/bookings?resellerReference=x`],
      ['GET', `/bookings/${b.body.uuid}`],
      ['PATCH', `/bookings/${b.body.uuid}`, { notes: 'x' }],
      ['POST', `/bookings/${b.body.uuid}/extend`, { expirationMinutes: 20 }],
      ['POST', `/bookings/${b.body.uuid}/confirm`, { contact: {} }],
      ['POST', `/bookings/${b.body.uuid}/cancel`, {}],
    ];
    for (const [method, path, body] of routes) {
      expectOctoError(await octo(method, path, null, { body }), 'UNAUTHORIZED');
      expectOctoError(await octo(method, path, 'rtc_test_wrong_key_00000000000000000000000000', { body }), 'FORBIDDEN');
      if (path.includes(b.body.uuid)) expectOctoError(await octo(method, path, other.key, { body }), 'INVALID_BOOKING_UUID');
    }
  });

  it('renders validation failures as BAD_REQUEST', async () => {
    const { key } = await reseller();
    expectOctoError(await octo('POST', '/availability', key, { body: { optionId: 'DEFAULT' } }), 'BAD_REQUEST');
    const malformed = await api('POST', '/octo/v1/bookings', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, rawBody: '{' });
    expectOctoError(malformed, 'BAD_REQUEST');
  });
});

describe('OCTO supplier, capabilities and products', () => {
  it('maps tours, hourly rentals and day rentals to products with options, units and prices (cents, tax, net of commission)', async () => {
    const { op, key } = await reseller({ commissionRate: 15 });
    const tour = await tourItem(op, { capacity: 10, data: { taxes: TAX, images: ['https://img.example/tour.jpg'] } });
    const boat = await rentalItem(op, { assets: 3, data: { taxes: TAX, durations: [2, 4] } });
    const kayak = await rentalItem(op, { assets: 5, data: { fullDayOnly: true, name: 'Kayak' } });
    const sup = await octo('GET', '/supplier', key, { caps: ALL_CAPS });
    expect(sup.status, sup.text).toBe(200);
    expect(sup.body).toMatchObject({ id: op.customerId, endpoint: 'http://berth.test/octo/v1' });
    const caps = await octo('GET', '/capabilities', key);
    expect(caps.body.map((c: any) => c.id)).toEqual(['octo/pricing', 'octo/content']);

    const r = await octo('GET', '/products', key, { caps: ALL_CAPS });
    expect(r.status, r.text).toBe(200);
    const byId = Object.fromEntries(r.body.map((p: any) => [p.id, p]));
    const t = byId[tour.id];
    expect(t).toMatchObject({ availabilityType: 'START_TIME', timeZone: TZ, pricingPer: 'UNIT', defaultCurrency: 'USD', deliveryMethods: ['VOUCHER'] });
    expect(t.options).toHaveLength(1);
    expect(t.options[0]).toMatchObject({ id: 'DEFAULT', default: true, availabilityLocalStartTimes: ['10:00', '14:00'], cancellationCutoffAmount: 0 });
    const adult = t.options[0].units.find((u: any) => u.id === 'adult');
    expect(adult.type).toBe('ADULT');
    // Adult 50.00 + 10 % tax = 55.00; commission 15 % of 50.00 = 7.50 -> net 47.50.
    expect(adult.pricingFrom[0]).toMatchObject({
      retail: 5500,
      original: 5500,
      net: 4750,
      currency: 'USD',
      currencyPrecision: 2,
      includedTaxes: [{ name: 'Sales tax', retail: 500 }],
    });
    expect(t.options[0].units.find((u: any) => u.id === 'child').pricingFrom[0]).toMatchObject({ retail: 2750, net: 2375 });
    expect(t.media[0]).toMatchObject({ src: 'https://img.example/tour.jpg', type: 'image/jpeg', rel: 'COVER' });

    const b = byId[boat.id];
    expect(b.availabilityType).toBe('START_TIME');
    expect(b.options.map((o: any) => o.id)).toEqual(['PT2H', 'PT4H', 'FULL_DAY']);
    expect(b.options[0]).toMatchObject({ default: true, restrictions: { minUnits: 1, maxUnits: 3 } });
    expect(b.options[0].availabilityLocalStartTimes[0]).toBe('08:00');
    expect(b.options[0].availabilityLocalStartTimes.at(-1)).toBe('16:00');
    // Two hours at 100.00 = 200.00 + 10 % = 220.00; net 220.00 - 30.00.
    expect(b.options[0].units[0]).toMatchObject({ id: 'unit', type: 'OTHER', pricingFrom: [{ retail: 22000, net: 19000 }] });
    expect(byId[kayak.id]).toMatchObject({ availabilityType: 'OPENING_HOURS' });
    expect(byId[kayak.id].options).toMatchObject([{ id: 'FULL_DAY', availabilityLocalStartTimes: [] }]);

    const one = await octo('GET', `/products/${tour.id}`, key);
    expect(one.status).toBe(200);
    expect(one.body.pricingPer).toBeUndefined();
    expect(one.body.options[0].units[0].pricingFrom).toBeUndefined();
    const bad = await octo('GET', '/products/inv_nope', key);
    expectOctoError(bad, 'INVALID_PRODUCT_ID');
    expect(bad.body.productId).toBe('inv_nope');
    // Another operator's item is not offered to this key.
    const stranger = await createOperator({ timezone: TZ });
    const foreign = await tourItem(stranger);
    expectOctoError(await octo('GET', `/products/${foreign.id}`, key), 'INVALID_PRODUCT_ID');
  });
});

describe('OCTO availability', () => {
  it('answers departures with local offsets, UTC cut-offs, statuses and unit prices; exactly one request form', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 4, data: { minimumNoticeHours: 2 } });
    // Two seats taken by an operator booking: 2 of 4 left on the 10:00 departure (not LIMITED: half is left).
    const first = await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(6, '10:00'), unitItems: unitItems('adult', 3) });
    expect(first.status).toBe('CONFIRMED');
    const r = await octo('POST', '/availability', key, { caps: 'octo/pricing', body: { productId: tour.id, optionId: 'DEFAULT', localDate: dateIn(6) } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toHaveLength(2);
    const [ten, two] = r.body;
    expect(ten.id).toBe(availabilityId(6, '10:00'));
    expect(ten.localDateTimeStart).toMatch(/^\d{4}-\d{2}-\d{2}T10:00:00-0[45]:00$/);
    expect(ten.localDateTimeEnd).toMatch(/T12:00:00-0[45]:00$/);
    expect(ten.utcCutoffAt).toBe(`${new Date(Date.parse(ten.localDateTimeStart) - 2 * 3_600_000).toISOString().slice(0, 19)}Z`);
    expect(ten).toMatchObject({ allDay: false, status: 'LIMITED', vacancies: 1, capacity: 4, available: true });
    expect(two).toMatchObject({ status: 'AVAILABLE', vacancies: 4, available: true });
    expect(ten.unitPricing.find((u: any) => u.unitId === 'adult')).toMatchObject({ retail: 5000 });
    // Units that do not fit are not available.
    const two3 = await octo('POST', '/availability', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityIds: [ten.id], units: [{ id: 'adult', quantity: 2 }] },
    });
    expect(two3.body).toMatchObject([{ id: ten.id, available: false, vacancies: 1 }]);
    // Sold out.
    await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: ten.id, unitItems: unitItems('adult', 1) });
    const sold = await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'DEFAULT', availabilityIds: [ten.id] } });
    expect(sold.body[0]).toMatchObject({ status: 'SOLD_OUT', available: false, vacancies: 0 });
    // Request forms.
    expectOctoError(
      await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'DEFAULT', localDate: dateIn(6), availabilityIds: [ten.id] } }),
      'BAD_REQUEST',
    );
    expectOctoError(await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'DEFAULT' } }), 'BAD_REQUEST');
    const badOption = await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'NOPE', localDate: dateIn(6) } });
    expectOctoError(badOption, 'INVALID_OPTION_ID');
    expect(badOption.body.optionId).toBe('NOPE');
    expectOctoError(
      await octo('POST', '/availability', key, { body: { productId: 'inv_x', optionId: 'DEFAULT', localDate: dateIn(6) } }),
      'INVALID_PRODUCT_ID',
    );
  });

  it('rental durations and day rentals: vacancies in units, OPENING_HOURS with opening hours; the calendar has one line per date', async () => {
    const { op, key } = await reseller();
    const boat = await rentalItem(op, { assets: 2, data: { durations: [2] } });
    const kayak = await rentalItem(op, { assets: 3, data: { fullDayOnly: true } });
    const r = await octo('POST', '/availability', key, { body: { productId: boat.id, optionId: 'PT2H', localDate: dateIn(4) } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((a: any) => a.localDateTimeStart.slice(11, 16))).toEqual([
      '08:00',
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    expect(r.body[0]).toMatchObject({ capacity: 2, vacancies: 2, status: 'AVAILABLE' });
    const day = await octo('POST', '/availability', key, { body: { productId: kayak.id, optionId: 'FULL_DAY', localDate: dateIn(4) } });
    expect(day.body).toHaveLength(1);
    expect(day.body[0]).toMatchObject({ allDay: true, openingHours: [{ from: '08:00', to: '18:00' }], capacity: 3 });
    expect(day.body[0].id).toMatch(/T00:00:00-0[45]:00$/);
    const cal = await octo('POST', '/availability/calendar', key, {
      caps: 'octo/pricing',
      body: { productId: boat.id, optionId: 'PT2H', localDateStart: dateIn(3), localDateEnd: dateIn(9) },
    });
    expect(cal.status, cal.text).toBe(200);
    expect(cal.body).toHaveLength(7);
    expect(cal.body[0]).toMatchObject({ localDate: dateIn(3), available: true, status: 'AVAILABLE', vacancies: 2, capacity: 2 });
    expect(cal.body[0].unitPricingFrom[0]).toMatchObject({ unitId: 'unit', retail: 20000 });
    expectOctoError(
      await octo('POST', '/availability/calendar', key, { body: { productId: boat.id, optionId: 'PT2H', localDateEnd: dateIn(9) } }),
      'BAD_REQUEST',
    );
    expectOctoError(
      await octo('POST', '/availability/calendar', key, { body: { productId: boat.id, optionId: 'PT2H', localDateStart: dateIn(9), localDateEnd: dateIn(3) } }),
      'BAD_REQUEST',
    );
  });
});

describe('OCTO reservations (holds)', () => {
  it('holds through the inventory lock, honours expirationMinutes (15 at least), and the uuid is the idempotency key', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 3 });
    const id = availabilityId(7, '10:00');
    const uuid = crypto.randomUUID();
    const body = {
      uuid,
      productId: tour.id,
      optionId: 'DEFAULT',
      availabilityId: id,
      unitItems: unitItems('adult', 2),
      expirationMinutes: 5,
      notes: 'Window seats',
    };
    const r = await octo('POST', '/bookings', key, { caps: 'octo/pricing', body });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      uuid,
      status: 'ON_HOLD',
      testMode: false,
      availabilityId: id,
      notes: 'Window seats',
      utcConfirmedAt: null,
      cancellable: true,
    });
    expect(r.body.unitItems).toHaveLength(2);
    expect(new Set(r.body.unitItems.map((u: any) => u.uuid)).size).toBe(2);
    expect(r.body.pricing).toMatchObject({ retail: 10000, currency: 'USD' });
    const ttl = Date.parse(r.body.utcExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    // The seats are held: one left.
    expect((await seatsByDeparture(tour.id))[0]).toMatchObject({ seats: 2, capacity: 3 });
    const a = await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'DEFAULT', availabilityIds: [id] } });
    expect(a.body[0].vacancies).toBe(1);
    // The same uuid and request answers the same booking; a different request with it is refused.
    const again = await octo('POST', '/bookings', key, { body });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r.body.id);
    expect((await seatsByDeparture(tour.id))[0].seats).toBe(2);
    const reuse = await octo('POST', '/bookings', key, { body: { ...body, unitItems: unitItems('adult', 1) } });
    expectOctoError(reuse, 'INVALID_BOOKING_UUID');
    expect(reuse.body.uuid).toBe(uuid);
    // Default hold: 30 minutes.
    const d = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(7, '14:00'), unitItems: unitItems('child', 1) },
    });
    expect(Date.parse(d.body.utcExpiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it('refuses what OCTO refuses: missing or empty unit items, unknown unit, product, option or availability, sold out', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 1 });
    const base = { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(8, '10:00') };
    expectOctoError(await octo('POST', '/bookings', key, { body: base }), 'UNPROCESSABLE_ENTITY');
    expectOctoError(await octo('POST', '/bookings', key, { body: { ...base, unitItems: [] } }), 'UNPROCESSABLE_ENTITY');
    const unit = await octo('POST', '/bookings', key, { body: { ...base, unitItems: unitItems('pirate', 1) } });
    expectOctoError(unit, 'INVALID_UNIT_ID');
    expect(unit.body.unitId).toBe('pirate');
    expectOctoError(await octo('POST', '/bookings', key, { body: { ...base, productId: 'inv_zzz', unitItems: unitItems('adult', 1) } }), 'INVALID_PRODUCT_ID');
    expectOctoError(await octo('POST', '/bookings', key, { body: { ...base, optionId: 'X', unitItems: unitItems('adult', 1) } }), 'INVALID_OPTION_ID');
    const avail = await octo('POST', '/bookings', key, { body: { ...base, availabilityId: availabilityId(8, '11:00'), unitItems: unitItems('adult', 1) } });
    expectOctoError(avail, 'INVALID_AVAILABILITY_ID');
    expect(avail.body.availabilityId).toBe(availabilityId(8, '11:00'));
    expectOctoError(await octo('POST', '/bookings', key, { body: { ...base, unitItems: unitItems('adult', 2) } }), 'UNPROCESSABLE_ENTITY');
    expect((await octo('POST', '/bookings', key, { body: { ...base, unitItems: unitItems('adult', 1) } })).status).toBe(200);
    expectOctoError(await octo('POST', '/bookings', key, { body: { ...base, unitItems: unitItems('child', 1) } }), 'UNPROCESSABLE_ENTITY');
  });

  it('extends a hold, and a hold lapses by itself: the time is free at once, the booking EXPIRED, the sweep tidies it, confirming is refused', async () => {
    const { op, key } = await reseller();
    const boat = await rentalItem(op, { assets: 1, data: { durations: [2] } });
    const id = availabilityId(9, '10:00');
    const r = await octo('POST', '/bookings', key, { body: { productId: boat.id, optionId: 'PT2H', availabilityId: id, unitItems: unitItems('unit', 1) } });
    expect(r.status, r.text).toBe(200);
    const ext = await octo('POST', `/bookings/${r.body.uuid}/extend`, key, { body: { expirationMinutes: 90 } });
    expect(ext.status, ext.text).toBe(200);
    expect(Date.parse(ext.body.utcExpiresAt) - Date.now()).toBeGreaterThan(89 * 60_000);
    expect(await assetOverlaps(boat.id)).toEqual([]);
    const blocked = await octo('POST', '/availability', key, { body: { productId: boat.id, optionId: 'PT2H', availabilityIds: [id] } });
    expect(blocked.body[0]).toMatchObject({ status: 'SOLD_OUT', available: false });
    // Time passes: the hold's expiry is in the past.
    const past = Date.now() - 1000;
    await env.DB.prepare('UPDATE octo_bookings SET expires_at = ? WHERE uuid = ?').bind(past, r.body.uuid).run();
    await env.DB.prepare('UPDATE allocations SET expires_at = ? WHERE source_id = ?').bind(past, r.body.id).run();
    const free = await octo('POST', '/availability', key, { body: { productId: boat.id, optionId: 'PT2H', availabilityIds: [id] } });
    expect(free.body[0]).toMatchObject({ status: 'AVAILABLE', available: true, vacancies: 1 });
    const got = await octo('GET', `/bookings/${r.body.uuid}`, key);
    expect(got.body).toMatchObject({ status: 'EXPIRED', cancellable: false });
    expectOctoError(await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: {} } }), 'INVALID_BOOKING_UUID');
    expectOctoError(await octo('POST', `/bookings/${r.body.uuid}/extend`, key, { body: {} }), 'INVALID_BOOKING_UUID');
    await runCron('*/5 * * * *');
    const row = await env.DB.prepare('SELECT status FROM octo_bookings WHERE uuid = ?').bind(r.body.uuid).first<any>();
    expect(row.status).toBe('EXPIRED');
    const allocs = await env.DB.prepare('SELECT active FROM allocations WHERE source_id = ?').bind(r.body.id).all<any>();
    expect(allocs.results.every((a: any) => a.active === 0)).toBe(true);
    // Someone else can sell the time now.
    expect(
      (await octo('POST', '/bookings', key, { body: { productId: boat.id, optionId: 'PT2H', availabilityId: id, unitItems: unitItems('unit', 1) } })).status,
    ).toBe(200);
  });
});

describe('OCTO confirmation, update, cancellation and lists', () => {
  it('confirms through the booking commit (channel sale, commission, reseller-paid), booking.created, settlement; twice is the same', async () => {
    const { op, key, connectionId } = await reseller({ commissionRate: 15 });
    const tour = await tourItem(op, { capacity: 10, data: { taxes: TAX } });
    const r = await octo('POST', '/bookings', key, {
      caps: 'octo/pricing',
      body: {
        productId: tour.id,
        optionId: 'DEFAULT',
        availabilityId: availabilityId(10, '14:00'),
        unitItems: [...unitItems('adult', 2), { unitId: 'child' }],
      },
    });
    expect(r.status, r.text).toBe(200);
    const c = await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, {
      caps: 'octo/pricing',
      body: {
        contact: { firstName: 'Ann', lastName: 'Guest', emailAddress: 'ann.guest@example.test', phoneNumber: '+13055550111' },
        resellerReference: 'OTA-77',
      },
    });
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({
      status: 'CONFIRMED',
      resellerReference: 'OTA-77',
      utcExpiresAt: null,
      contact: { fullName: 'Ann Guest', emailAddress: 'ann.guest@example.test' },
    });
    expect(c.body.voucher.deliveryOptions[0]).toMatchObject({ deliveryFormat: 'QRCODE', deliveryValue: c.body.supplierReference });
    // 2 x 55.00 + 27.50 = 137.50 retail; commission 15 % of 125.00 = 18.75 -> net 118.75.
    expect(c.body.pricing).toMatchObject({ retail: 13750, net: 11875, includedTaxes: [{ name: 'Sales tax', retail: 1250 }] });
    expect(c.body.unitItems.map((u: any) => u.pricing.retail)).toEqual([5500, 5500, 2750]);
    const b = await env.DB.prepare('SELECT * FROM bookings WHERE transaction_id = ?').bind(c.body.supplierReference).first<any>();
    expect(b).toMatchObject({
      status: 'confirmed',
      source: 'channel',
      channel_connection_id: connectionId,
      channel_reference: 'OTA-77',
      commission_rate: 15,
      total: 13750,
      amount_paid: 13750,
      quantity: 3,
    });
    // The hold was replaced by the booking's seats, once.
    expect((await seatsByDeparture(tour.id))[0].seats).toBe(3);
    const holds = await env.DB.prepare('SELECT COUNT(*) AS n FROM allocations WHERE source_id = ? AND active = 1').bind(r.body.id).first<any>();
    expect(holds.n).toBe(0);
    expect((await eventsOf(op.customerId, 'booking.created')).length).toBe(1);
    const again = await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: {} } });
    expect(again.body).toMatchObject({ id: c.body.id, status: 'CONFIRMED' });
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM bookings WHERE transaction_id = ?').bind(c.body.supplierReference).first<any>()).n).toBe(1);
    // The channel's settlement counts it (by rental date).
    const month = dateIn(10).slice(0, 7);
    const s = await get(`/channel/v1/settlement?month=${month}`, { headers: { authorization: `Bearer ${key}` } });
    expect(s.body.totals).toMatchObject({ bookings: 1, grossSales: 137.5, commission: 18.75, amountOwed: 118.75 });
  });

  it('confirmation may change the unit items; an unknown unit is INVALID_UNIT_ID', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 10 });
    const r = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(11, '10:00'), unitItems: unitItems('adult', 2) },
    });
    expectOctoError(
      await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: {}, unitItems: unitItems('ghost', 2) } }),
      'INVALID_UNIT_ID',
    );
    const c = await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: { fullName: 'Jo Doe' }, unitItems: unitItems('adult', 3) } });
    expect(c.status, c.text).toBe(200);
    expect(c.body.unitItems).toHaveLength(3);
    expect((await seatsByDeparture(tour.id))[0].seats).toBe(3);
  });

  it('updates a hold (moves it inside the lock, changes units and contact) and reschedules a confirmed booking', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 5 });
    const r = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(12, '10:00'), unitItems: unitItems('adult', 2) },
    });
    const moved = await octo('PATCH', `/bookings/${r.body.uuid}`, key, {
      body: { availabilityId: availabilityId(12, '14:00'), unitItems: unitItems('adult', 3), contact: { firstName: 'Max' }, notes: 'Cake' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ status: 'ON_HOLD', availabilityId: availabilityId(12, '14:00'), notes: 'Cake', contact: { firstName: 'Max' } });
    expect(moved.body.unitItems).toHaveLength(3);
    const seats = await seatsByDeparture(tour.id);
    expect(seats).toHaveLength(1);
    expect(seats[0].seats).toBe(3);
    expectOctoError(await octo('PATCH', `/bookings/${r.body.uuid}`, key, { body: { unitItems: unitItems('adult', 6) } }), 'UNPROCESSABLE_ENTITY');
    // Confirmed: a new availability reschedules the operator's booking.
    const c = await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: {} } });
    expect(c.status).toBe(200);
    const re = await octo('PATCH', `/bookings/${r.body.uuid}`, key, { body: { availabilityId: availabilityId(13, '10:00') } });
    expect(re.status, re.text).toBe(200);
    expect(re.body).toMatchObject({ status: 'CONFIRMED', availabilityId: availabilityId(13, '10:00') });
    expect((await eventsOf(op.customerId, 'booking.rescheduled')).length).toBe(1);
    expectOctoError(await octo('PATCH', `/bookings/${r.body.uuid}`, key, { body: { unitItems: unitItems('adult', 1) } }), 'UNPROCESSABLE_ENTITY');
  });

  it('cancels a hold at once and a confirmed booking within the policy (booking.cancelled); outside it is refused', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 4 });
    const hold = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(14, '10:00'), unitItems: unitItems('adult', 2) },
    });
    const ch = await octo('POST', `/bookings/${hold.body.uuid}/cancel`, key, { body: { reason: 'Changed plans' } });
    expect(ch.status, ch.text).toBe(200);
    expect(ch.body).toMatchObject({ status: 'CANCELLED', cancellable: false, cancellation: { refund: 'FULL', reason: 'Changed plans' } });
    expect(await seatsByDeparture(tour.id)).toEqual([]);
    const again = await octo('POST', `/bookings/${hold.body.uuid}/cancel`, key, { body: {} });
    expect(again.body.status).toBe('CANCELLED');

    const conf = await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(14, '10:00'), unitItems: unitItems('adult', 2) });
    const cc = await octo('POST', `/bookings/${conf.uuid}/cancel`, key, { body: { reason: 'Weather' } });
    expect(cc.status, cc.text).toBe(200);
    expect(cc.body.status).toBe('CANCELLED');
    const b = await env.DB.prepare('SELECT status FROM bookings WHERE transaction_id = ?').bind(conf.supplierReference).first<any>();
    expect(b.status).toBe('cancelled');
    expect((await eventsOf(op.customerId, 'booking.cancelled')).length).toBe(1);
    expect(await seatsByDeparture(tour.id)).toEqual([]);

    // The operator's policy: 48 hours before the start. A booking for tomorrow is no longer cancellable.
    const setp = await put('/octo/settings', { cancellationCutoffHours: 48 }, { key: op.adminKey });
    expect(setp.body).toMatchObject({ cancellationCutoffHours: 48 });
    const soon = await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(1, '14:00'), unitItems: unitItems('adult', 1) });
    expect(soon.cancellable).toBe(false);
    expectOctoError(await octo('POST', `/bookings/${soon.uuid}/cancel`, key, { body: { force: true } }), 'UNPROCESSABLE_ENTITY');
    const p = await octo('GET', `/products/${tour.id}`, key);
    expect(p.body.options[0]).toMatchObject({ cancellationCutoffAmount: 48, cancellationCutoffUnit: 'hour' });
  });

  it('lists by reseller reference, supplier reference or date; needs one of them', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 9 });
    const a = await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(15, '10:00'), unitItems: unitItems('adult', 1) });
    await book(key, { productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(16, '10:00'), unitItems: unitItems('adult', 1) });
    expectOctoError(await octo('GET', '/bookings', key), 'BAD_REQUEST');
    const byRef = await octo('GET', `/bookings?resellerReference=${a.resellerReference}`, key);
    expect(byRef.body.map((b: any) => b.uuid)).toEqual([a.uuid]);
    const bySup = await octo('GET', `/bookings?supplierReference=${a.supplierReference}`, key);
    expect(bySup.body.map((b: any) => b.uuid)).toEqual([a.uuid]);
    const byDate = await octo('GET', `/bookings?localDateStart=${dateIn(15)}&localDateEnd=${dateIn(16)}`, key);
    expect(byDate.body).toHaveLength(2);
    expect((await octo('GET', `/bookings?localDate=${dateIn(16)}`, key)).body).toHaveLength(1);
    const other = await partnerKey(op, { name: 'Other OTA' });
    expect((await octo('GET', `/bookings?localDate=${dateIn(16)}`, other.key)).body).toEqual([]);
  });
});

describe('OCTO settings (operator)', () => {
  it('reads and sets the cancellation policy; admins only', async () => {
    const op = await createOperator();
    expect((await get('/octo/settings', { key: op.adminKey })).body).toMatchObject({ customerId: op.customerId, cancellationCutoffHours: 0, updatedAt: null });
    const r = await put('/octo/settings', { cancellationCutoffHours: 24 }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.cancellationCutoffHours).toBe(24);
    expectError(await put('/octo/settings', { cancellationCutoffHours: -1 }, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'GET', path: '/octo/settings' });
    await checkSecurity(op, { method: 'PUT', path: '/octo/settings', body: { cancellationCutoffHours: 2 }, adminOnly: true });
  });
});

describe('OCTO sandbox', () => {
  it('the sandbox reseller sells Demo Marina with its test key (Octo-Env test, no money moves); a sandbox reset wipes its OCTO bookings', async () => {
    await seedSandbox(env);
    const key = env.DEMO_CHANNEL_TEST_KEY!;
    const p = await octo('GET', '/products', key);
    expect(p.status, p.text).toBe(200);
    expect(p.headers.get('octo-env')).toBe('test');
    // The showcase is listed first of Demo Marina's seeded catalogue (files sharing the runtime may add items of their own).
    expect(p.body.find((x: any) => x.id.startsWith('inv_demo_')).id).toBe(DEMO_OCTO_ITEMS.harborCruise);
    expect(p.body.find((x: any) => x.id === DEMO_OCTO_ITEMS.kayak).availabilityType).toBe('OPENING_HOURS');
    const b = await book(key, {
      productId: DEMO_OCTO_ITEMS.harborCruise,
      optionId: 'DEFAULT',
      availabilityId: availabilityId(25, '11:00'),
      unitItems: unitItems('adult', 1),
    });
    expect(b.testMode).toBe(true);
    const fee = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE transaction_id = ? AND entry_type = 'platform_fee'")
      .bind(b.supplierReference)
      .first<any>();
    expect(fee.n).toBe(0);
    const hold = await octo('POST', '/bookings', key, {
      body: { productId: DEMO_OCTO_ITEMS.kayak, optionId: 'FULL_DAY', availabilityId: availabilityId(25, '00:00'), unitItems: unitItems('unit', 2) },
    });
    expect(hold.status, hold.text).toBe(200);
    const reset = await api('POST', '/channel/v1/sandbox/reset', { headers: { authorization: `Bearer ${key}` } });
    expect(reset.status, reset.text).toBe(200);
    expectOctoError(await octo('GET', `/bookings/${hold.body.uuid}`, key), 'INVALID_BOOKING_UUID');
    expectOctoError(await octo('GET', `/bookings/${b.uuid}`, key), 'INVALID_BOOKING_UUID');
    const left = await env.DB.prepare('SELECT COUNT(*) AS n FROM allocations WHERE source_id = ?').bind(hold.body.id).first<any>();
    expect(left.n).toBe(0);
  });
});
