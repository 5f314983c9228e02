/**
 * The public slip pages through HTTP, without credentials: maps with pins, units, details,
 * availability with the fit check (no renter data), prices, the location's booking configuration,
 * bookings with approval on and off (deposit or total charged through the payments service, events,
 * declines, racing bookings), documents of a booking with a presigned upload, the public waitlist,
 * rate limits per IP address, and what operator credentials change (nothing).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, expectError, get, post, put } from '../../harness';
import { formatCalendarRange, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { boat, day, makeSlip, marinaOperator, renter, reserve } from '../marina/helpers';
import { eventsOf, key, mailsTo } from '../marina/marina2-helpers';

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const fromIp = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } });
let ipN = 0;
/** A fresh client address per test, so the per-IP limits of one test do not leak into another. */
const ip = () => fromIp(`203.0.113.${++ipN}`);

function bookBody(op: { locationId: string; timezone: string }, slipId: string, o: Record<string, unknown> = {}) {
  return { slipId, rateType: 'nightly', arrivalDate: day(op as any, 20), departureDate: day(op as any, 23), boat: boat(), renter: renter('pub'), ...o };
}

describe('public slips', () => {
  it('shows maps, units, details, availability and prices without credentials and without renter data', async () => {
    const op = await marinaOperator();
    const a = await makeSlip(op, { section: 'A', lengthFt: 40, widthFt: 14, depthFt: 8, amenities: ['wifi'] });
    const b = await makeSlip(op, { section: 'B', lengthFt: 25, widthFt: 10, depthFt: 5 });
    const gone = await makeSlip(op, { section: 'B' });
    await api('DELETE', `/slips/${gone.id}`, key(op));
    const map = (await post('/slips/maps', { locationId: op.locationId, name: 'Docks' }, key(op))).body;
    await put(
      '/slips/maps/batch-pins',
      {
        mapId: map.mapId,
        pins: [
          { slipId: a.id, x: 10, y: 20 },
          { slipId: b.id, x: 30, y: 40 },
        ],
      },
      key(op),
    );
    await post('/slips/maps', { locationId: op.locationId, name: 'Hidden', isActive: false }, key(op));
    const c = ip();

    const maps = await get(`/public/slips/maps/${op.locationId}`, c);
    expect(maps.status, maps.text).toBe(200);
    expect(maps.headers.get('x-ratelimit-limit')).toBe('120');
    expect(maps.body.data.map((m: any) => m.name)).toEqual(['Docks']);
    expect(Object.fromEntries(maps.body.data[0].pins.map((p: any) => [p.slipId, [p.unitNumber, p.x, p.y, p.bookable]]))).toEqual({
      [a.id]: [a.unitNumber, 10, 20, true],
      [b.id]: [b.unitNumber, 30, 40, true],
    });
    const list = await get(`/public/slips/list/${op.locationId}`, c);
    expect(list.body.total).toBe(2);
    expect(list.body.data[0]).toMatchObject({ id: a.id, ratesPerFootCents: { nightly: 350, monthly: 2500 }, amenities: ['wifi'] });
    expect(list.body.data[0].customerId).toBeUndefined();
    expect(list.body.data[0].notes).toBeUndefined();
    expect((await get(`/public/slips/list/${op.locationId}?minLoaFt=30`, c)).body.data.map((u: any) => u.id)).toEqual([a.id]);
    const detail = await get(`/public/slips/${a.id}`, c);
    expect(detail.body).toMatchObject({ id: a.id, location: { id: op.locationId, timezone: op.timezone } });
    expectError(await get(`/public/slips/${gone.id}`, c), 404, 'not_found');
    expectError(await get('/public/slips/slp_nothing', c), 404, 'not_found');

    // Availability: the nights a reservation holds are shown, not who holds them.
    const held = (await reserve(op, a.id, { arrivalDate: day(op, 10), departureDate: day(op, 12) })).body;
    const av = await get(`/public/slips/${a.id}/availability?arrivalDate=${day(op, 9)}&departureDate=${day(op, 14)}&loaFt=30&beamFt=10`, c);
    expect(av.status, av.text).toBe(200);
    expect(av.body).toMatchObject({ available: false, free: false, fits: true, open: true, nights: 5, blocked: [{ from: day(op, 10), to: day(op, 12) }] });
    expect(av.text).not.toContain(held.reservationNumber);
    expect(av.text).not.toContain(held.renter.email);
    const tooBig = await get(`/public/slips/${b.id}/availability?arrivalDate=${day(op, 9)}&departureDate=${day(op, 14)}&loaFt=34`, c);
    expect(tooBig.body).toMatchObject({ available: false, free: true, fits: false, fit: [{ dimension: 'length' }] });
    expectError(await get(`/public/slips/${a.id}/availability`, c), 400, 'validation_failed');

    // Price: 350 cents per foot × 40 ft billable (the unit is longer than the boat) × 3 nights = 42000.
    const price = await post('/public/slips/calculate-price', { slipId: a.id, arrivalDate: day(op, 20), departureDate: day(op, 23), boat: { loaFt: 30 } }, c);
    expect(price.status, price.text).toBe(200);
    expect(price.body).toMatchObject({
      nights: 3,
      baseCents: 42000,
      totalCents: 42000,
      depositCents: 0,
      dueAtBookingCents: 0,
      approvalRequired: true,
      fits: true,
    });
    expectError(
      await post(
        '/public/slips/calculate-price',
        { slipId: a.id, rateType: 'annual', arrivalDate: day(op, 20), departureDate: day(op, 23), boat: { loaFt: 30 } },
        c,
      ),
      400,
      'validation_failed',
    );

    const info = await get(`/public/slips/location/${op.locationId}`, c);
    expect(info.body).toMatchObject({
      location: { id: op.locationId, name: 'Main dock' },
      booking: { publicBookingEnabled: true, approvalRequired: true, rateTypes: ['nightly', 'monthly'], requiredDocuments: ['insurance', 'registration'] },
      units: { total: 2, bookable: 2 },
    });
    expectError(await get('/public/slips/location/loc_nothing', c), 404, 'not_found');
  });

  it('books with approval: pending, deposit charged through the payments service, documents with a presigned upload', async () => {
    const op = await marinaOperator();
    await put(`/slip-settings/${op.locationId}`, { deposit: { policy: 'fixed', amountCents: 10000 } }, key(op));
    const slip = await makeSlip(op);
    const c = ip();
    const body = bookBody(op, slip.id);
    expectError(await post('/public/slips/book', body, c), 400, 'validation_failed');
    expectError(await post('/public/slips/book', { ...body, paymentMethodId: 'pm_card_chargeDeclined' }, c), 402, 'payment_failed');
    expect((await get(`/slip-reservations?locationId=${op.locationId}`, key(op))).body.total).toBe(0);
    const booked = await post('/public/slips/book', { ...body, paymentMethodId: 'pm_card_visa' }, c);
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body.reservation).toMatchObject({ status: 'pending', totalCents: 42000, depositCents: 10000, amountPaidCents: 10000, balanceCents: 32000 });
    expect(booked.body.payment).toEqual({ chargedCents: 10000, status: 'succeeded' });
    expect(booked.body.bookingToken).toMatch(/^spb_/);
    expect(booked.body.documents.requirements.map((q: any) => [q.type, q.status])).toEqual([
      ['insurance', 'missing'],
      ['registration', 'missing'],
    ]);
    const rid = booked.body.reservation.id;
    expect((await get(`/slip-reservations/${rid}`, key(op))).body).toMatchObject({ status: 'pending', source: 'public' });
    expect((await eventsOf(op.customerId, 'booking.created')).map((e) => e.data.reservationId)).toEqual([rid]);
    expect((await eventsOf(op.customerId, 'customer.created')).map((e) => e.data.email)).toEqual([body.renter.email]);
    expect((await eventsOf(op.customerId, 'payment.completed')).map((e) => [e.data.kind, e.data.amountCents, e.data.reservationId])).toEqual([
      ['slip_payment', 10000, rid],
    ]);
    expect((await mailsTo(body.renter.email, 'slip_public.booking'))[0].subject).toContain('received');
    // The nights are taken: a second booking is refused.
    expectError(await post('/public/slips/book', { ...bookBody(op, slip.id), paymentMethodId: 'pm_card_visa' }, c), 409);

    // Documents: the booking token is the credential.
    const docsPath = `/public/slips/reservations/${rid}/documents`;
    expectError(await get(docsPath, c), 401, 'unauthenticated');
    expectError(await get(docsPath, { headers: { ...c.headers, 'x-booking-token': 'spb_wrong_token_000000000000' } }), 404, 'not_found');
    const withToken = { headers: { ...c.headers, 'x-booking-token': booked.body.bookingToken } };
    const meta = await api('POST', docsPath, {
      ...withToken,
      body: { type: 'insurance', fileName: 'policy.pdf', contentType: 'application/pdf', sizeBytes: PDF.length, expiresOn: day(op, 200) },
    });
    expect(meta.status, meta.text).toBe(201);
    expect(meta.body.document.status).toBe('pending_upload');
    const url = new URL(meta.body.upload.url);
    const path = `${url.pathname}${url.search}`;
    expectError(await api('PUT', `${url.pathname}?token=spl_wrong_token_000000`, { ...c, rawBody: PDF }), 401, 'unauthenticated');
    expectError(await api('PUT', path, { ...c, rawBody: new TextEncoder().encode('not a pdf at all, really') }), 400);
    const put1 = await api('PUT', path, { ...c, rawBody: PDF });
    expect(put1.status, put1.text).toBe(200);
    expect(put1.body.document.status).toBe('submitted');
    expectError(await api('PUT', path, { ...c, rawBody: PDF }), 401, 'unauthenticated');
    const docs = await get(docsPath, withToken);
    expect(docs.body.requirements[0]).toMatchObject({ type: 'insurance', status: 'submitted' });
    const staff = await get(`/slip-documents?reservationId=${rid}`, key(op));
    expect(staff.body.data[0]).toMatchObject({ uploadedVia: 'public', contentType: 'application/pdf', sizeBytes: PDF.length });
  });

  it('books without approval: confirmed and paid in full; racing bookings of one unit leave one reservation', async () => {
    const op = await marinaOperator();
    await put(`/slip-settings/${op.locationId}`, { approvalRequired: false, taxRatePercent: 10 }, key(op));
    const slip = await makeSlip(op);
    const c = ip();
    const price = (
      await post('/public/slips/calculate-price', { slipId: slip.id, arrivalDate: day(op, 20), departureDate: day(op, 23), boat: { loaFt: 30 } }, c)
    ).body;
    // 42000 base + 10% tax = 46200, all due at booking.
    expect(price).toMatchObject({ totalCents: 46200, dueAtBookingCents: 46200, approvalRequired: false });
    const tries = await Promise.all(
      [0, 1, 2].map((i) =>
        post('/public/slips/book', { ...bookBody(op, slip.id), renter: renter(`race${i}`), paymentMethodId: 'pm_card_visa' }, fromIp(`198.51.100.${i}`)),
      ),
    );
    const won = tries.filter((t) => t.status === 201);
    expect(won).toHaveLength(1);
    for (const t of tries.filter((x) => x.status !== 201)) expect(t.status).toBe(409);
    expect(won[0].body.reservation).toMatchObject({ status: 'confirmed', totalCents: 46200, amountPaidCents: 46200, balanceCents: 0 });
    const rows = (await get(`/slip-reservations?locationId=${op.locationId}`, key(op))).body;
    expect(rows.total).toBe(1);
    // Money taken by a losing request is given back: only the winner's payment stands.
    expect((await eventsOf(op.customerId, 'payment.completed')).map((e) => e.data.amountCents)).toEqual([46200]);
    expect((await post('/public/slips/book', bookBody(op, slip.id, { arrivalDate: day(op, 30), departureDate: day(op, 31) }), c)).status).toBe(400);
    // Online bookings off: refused; rate types limited.
    await put(`/slip-settings/${op.locationId}`, { publicBookingEnabled: false }, key(op));
    expectError(await post('/public/slips/book', { ...bookBody(op, slip.id), paymentMethodId: 'pm_card_visa' }, c), 403, 'forbidden');
  });

  it('joins the waitlist from a unit page once, and limits writes per IP address', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const c = ip();
    const who = renter('wait');
    const join = { renter: who, boat: boat(), rateType: 'monthly', arrivalDate: day(op, 30), departureDate: day(op, 90) };
    const first = await post(`/public/slips/${slip.id}/waitlist`, join, c);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ status: 'waiting', locationId: op.locationId, queuePosition: 1 });
    const again = await post(`/public/slips/${slip.id}/waitlist`, join, c);
    expect(again.status).toBe(200);
    expect(again.body.entryId).toBe(first.body.entryId);
    expect((await get(`/slips/waitlist/${first.body.entryId}`, key(op))).body).toMatchObject({ source: 'public', preferredSlipId: slip.id });
    expect((await mailsTo(who.email, 'slip_waitlist.joined')).length).toBe(1);
    // 10 writes a minute per address: the rest answer 429 with Retry-After.
    const burst = fromIp('192.0.2.77');
    // An address used by no other test: its first request opens its own one-minute window (durable-objects/rate-limiter.ts).
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await post(`/public/slips/${slip.id}/waitlist`, { ...join, renter: renter(`b${i}`) }, burst));
    expect(answers.slice(0, 10).every((r) => r.status === 201)).toBe(true);
    expectError(answers[10], 429, 'rate_limited');
    expect(Number(answers[10].headers.get('retry-after'))).toBeGreaterThan(0);
    // Operator credentials change nothing on a public page (another operator reads the same public data).
    expect((await get(`/public/slips/${slip.id}`, { ...c, key: op.adminKey })).status).toBe(200);
    expectError(await get(`/public/slips/${slip.id}`, { ...c, key: 'brk_not_a_real_key_000000000000000000000' }), 401, 'unauthenticated');
  });
});

describe('public slips on the marina clock', () => {
  it("refuses a booking whose arrival is already past in the marina's zone and charges nothing; today books", async () => {
    // The marina's clock says 15 June 2027 in New York; 1 to 3 June is past there, though ahead in real time.
    const op = await marinaOperator(20, { clockAt: '2027-06-15T15:00:00Z' });
    await put(`/slip-settings/${op.locationId}`, { approvalRequired: false }, key(op));
    const slip = await makeSlip(op);
    const c = ip();
    const intents = () => env.DB.prepare('SELECT count(*) AS n FROM sim_payment_intents').first<{ n: number }>();
    const before = (await intents())!.n;
    const late = await post(
      '/public/slips/book',
      { ...bookBody(op, slip.id, { arrivalDate: '2027-06-01', departureDate: '2027-06-03' }), paymentMethodId: 'pm_card_visa' },
      c,
    );
    expectError(late, 400, 'in_the_past');
    expect(late.body).toMatchObject({ today: '2027-06-15', details: [{ field: 'arrivalDate' }] });
    expect((await intents())!.n).toBe(before);
    expect(await eventsOf(op.customerId, 'payment.completed')).toEqual([]);
    expect((await get(`/slip-reservations?locationId=${op.locationId}`, key(op))).body.total).toBe(0);
    const who = renter('today');
    const ok = await post(
      '/public/slips/book',
      { ...bookBody(op, slip.id, { arrivalDate: '2027-06-15', departureDate: '2027-06-17' }), renter: who, paymentMethodId: 'pm_card_visa' },
      c,
    );
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.reservation).toMatchObject({ status: 'confirmed', arrivalDate: '2027-06-15' });
    const [mail] = await mailsTo(who.email, 'slip_public.booking');
    expect(mail.body).toContain(formatCalendarRange('2027-06-15', '2027-06-17'));
    expect(mail.body).not.toMatch(ISO_TIMESTAMP);
  });
});
