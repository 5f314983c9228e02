/**
 * The booking widget's server side: its page (CSP, own scripts), the catalog, quotes and the checkout
 * through the booking commit (affiliate, waivers, funnel `booked` event and renter session in the
 * booking's batch, nothing written on a decline, one winner under races), funnel events, public
 * availability ETags (304) and D1 session bookmarks, and /docs served without a CDN.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { at, dateAhead, email, rentalItem, tourItem, type TestItem } from '../bookings/factories';

let ipSeq = 0;
const ip = () => ({ 'cf-connecting-ip': `10.77.${Math.floor(Math.random() * 250)}.${++ipSeq % 250}` });

/** The smallest baseline JPEG (1x1): a valid signature image. */
const TINY_JPEG =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP////////////////////////////////////////////' +
  '//////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

async function shop() {
  const op = await createOperator({ name: 'Widget Marina' });
  const boat = await rentalItem(op, {
    assets: 1,
    data: {
      name: 'Bay Boat',
      addons: [{ addonId: 'cooler', name: 'Cooler', price: 15, priceType: 'flat', maxQuantity: 2 }],
      taxes: [{ name: 'Sales tax', rate: 10 }],
    } as any,
  });
  const tour = await tourItem(op, { capacity: 4, data: { name: 'Sunset Tour' } });
  const hidden = await rentalItem(op, { isPublic: false, data: { name: 'Private Yacht' } });
  return { op, boat, tour, hidden };
}

const order = (op: Operator, item: TestItem, day = 3, extra: Record<string, unknown> = {}) => ({
  customerId: op.customerId,
  inventoryId: item.id,
  startTime: at(op.timezone, day, '10:00'),
  endTime: at(op.timezone, day, '12:00'),
  ...extra,
});
const renter = (tag = 'widget') => ({ firstName: 'Rita', lastName: 'Renter', email: email(tag) });
const checkout = (body: Record<string, unknown>, headers: Record<string, string> = {}) => post('/public/widget/checkout', body, { headers });
const widgetEvents = (customerId: string) =>
  env.DB.prepare(
    'SELECT session_id, event, inventory_id, date, time, rental_id, ref, source, details FROM widget_events WHERE customer_id = ? ORDER BY created_at',
  )
    .bind(customerId)
    .all<any>()
    .then((r) => r.results);
const bookingCount = (customerId: string) =>
  env.DB.prepare('SELECT COUNT(*) AS n FROM bookings WHERE customer_id = ?')
    .bind(customerId)
    .first<{ n: number }>()
    .then((r) => r!.n);

describe('GET /widget', () => {
  it("serves the page with Berth's own scripts only (CSP) and a reserved layout", async () => {
    const r = await get('/widget?customer=cus_x&item=inv_y&date=2027-01-01&ref=ABC');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('frame-ancestors');
    expect(r.text).toContain('<script src="/static/widget/app.js?v=');
    expect(r.text).toContain('role="status" aria-live="polite"');
    // No script, style or font from anywhere else.
    expect(r.text).not.toMatch(/(src|href)="https?:\/\//);
    expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

describe('GET /public/widget/catalog', () => {
  it("answers the operator's current time (a sandbox test clock's), which the widget counts today and deadlines from", async () => {
    const op = await createOperator({ clockAt: '2031-06-15T13:45:00.000Z' });
    const r = await get(`/public/widget/catalog?customerId=${op.customerId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.now).toBe('2031-06-15T13:45:00.000Z');
  });

  it("lists the operator's public items with prices, lengths, tiers and add-ons, and the simulator's test cards", async () => {
    const { op, boat, tour } = await shop();
    const r = await get(`/public/widget/catalog?customerId=${op.customerId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ customerId: op.customerId, businessName: 'Widget Marina', payments: { mode: 'simulator', publishableKey: null } });
    expect(r.body.payments.testCards.map((c: any) => c.number)).toContain('4242424242424242');
    expect(r.body.locations).toEqual([
      { locationId: op.locationId, name: 'Main dock', address: '1 Harbour Way', phoneNumber: '+15555550100', timezone: 'America/New_York', currency: 'usd' },
    ]);
    expect(r.body.items.map((i: any) => i.inventoryId).sort()).toEqual([boat.id, tour.id].sort());
    const b = r.body.items.find((i: any) => i.inventoryId === boat.id);
    expect(b).toMatchObject({
      type: 'rental',
      units: 1,
      startingPrice: 100,
      priceUnit: 'hr',
      durations: [1, 2, 4],
      addons: [{ addonId: 'cooler', price: 15, maxQuantity: 2 }],
    });
    const t = r.body.items.find((i: any) => i.inventoryId === tour.id);
    expect(t).toMatchObject({
      type: 'tour',
      capacity: 4,
      tiers: [
        { name: 'Adult', price: 50 },
        { name: 'Child', price: 25 },
      ],
    });
    expect(r.text).not.toContain('Private Yacht');
    expect(r.headers.get('x-d1-bookmark')).toEqual(expect.any(String));
    expectError(await get('/public/widget/catalog?customerId=cus_unknown_0000'), 404, 'not_found');
    expectError(await get(`/public/widget/catalog?customerId=${op.customerId}&locationId=loc_unknown_0000`), 404, 'not_found');
    expectError(await get('/public/widget/catalog'), 400, 'validation_failed');
  });
});

describe('POST /public/widget/quote', () => {
  it('prices the order as the checkout will (add-ons, taxes, promo and gift codes) and says whether the time is free', async () => {
    const { op, boat, tour, hidden } = await shop();
    const plain = await post('/public/widget/quote', order(op, boat));
    expect(plain.status, plain.text).toBe(200);
    // 2 hours at $100 + 10% tax.
    expect(plain.body).toMatchObject({ currency: 'usd', total: 220, deposit: 0, available: true, reasons: [] });
    const withCooler = await post('/public/widget/quote', order(op, boat, 3, { addons: [{ addonId: 'cooler', quantity: 2 }] }));
    expect(withCooler.body.total).toBe(253);
    const k = { key: op.adminKey };
    expect(
      (await post('/promoGiftCards', { customerId: op.customerId, promoCode: 'SPRING10', ExpiryDate: '2099-12-31', Details: { '%Discount': 10 } }, k)).status,
    ).toBe(201);
    expect(
      (
        await post(
          '/promoGiftCards',
          { customerId: op.customerId, promoCode: 'GIFT-30', ExpiryDate: '2099-12-31', Details: { $Discount: 30, type: 'gift_card' } },
          k,
        )
      ).status,
    ).toBe(201);
    expect((await post('/public/widget/quote', order(op, boat, 3, { promoCode: 'spring10' }))).body.total).toBe(198);
    // A gift card in the same field pays part of the total rather than discounting it.
    const gift = await post('/public/widget/quote', order(op, boat, 3, { promoCode: 'gift-30' }));
    expect(gift.status, gift.text).toBe(200);
    expect(gift.body).toMatchObject({ total: 220, giftCard: { code: 'GIFT-30', applied: 30, balance: 30 }, amountDue: 190 });
    expect(plain.body).toMatchObject({ giftCard: null, amountDue: 220 });
    expectError(await post('/public/widget/quote', order(op, boat, 3, { promoCode: 'NOPE' })), 400, 'invalid_promo_code');
    const tickets = await post('/public/widget/quote', {
      customerId: op.customerId,
      inventoryId: tour.id,
      startTime: at(op.timezone, 3, '10:00'),
      tickets: { Adult: 2, Child: 1 },
    });
    expect(tickets.body).toMatchObject({ total: 125, available: true });
    expectError(await post('/public/widget/quote', order(op, hidden)), 404, 'not_found');
    const other = await createOperator();
    expectError(await post('/public/widget/quote', { ...order(op, boat), customerId: other.customerId }), 404, 'not_found');
    // Taken: available false with the reasons, nothing reserved.
    expect((await checkout({ ...order(op, boat), customerInfo: renter(), paymentMethodId: 'pm_card_visa' })).status).toBe(201);
    const taken = await post('/public/widget/quote', order(op, boat));
    expect(taken.body.available).toBe(false);
    expect(taken.body.reasons.length).toBeGreaterThan(0);
  });
});

describe('POST /public/widget/checkout', () => {
  it('books through the booking commit with the affiliate and the signed waiver, records `booked` and a renter session in its batch', async () => {
    const { op, boat } = await shop();
    const template = await post(
      '/inHouseWaiver/waiver/template',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        title: 'Rental agreement',
        sections: [
          { type: 'checkbox', id: 'ack', label: 'I accept', required: true },
          { type: 'signature', id: 'sig', label: 'Signature' },
        ],
      },
      { key: op.adminKey },
    );
    const who = renter();
    const signed = await post('/inHouseWaiver/waiver/sign', {
      templateId: template.body.templateId,
      firstName: 'Rita',
      lastName: 'Renter',
      userEmail: who.email,
      formData: { ack: true, sig: TINY_JPEG },
    });
    expect(signed.status, signed.text).toBe(201);
    const r = await checkout(
      {
        ...order(op, boat, 3, { addons: [{ addonId: 'cooler' }] }),
        locationId: op.locationId,
        customerInfo: who,
        paymentMethodId: 'pm_card_visa',
        expectedTotal: 236.5,
        waiverSignatureIds: [signed.body.signatureId],
        refAffiliate: 'PARTNER7',
        sessionId: 'visit_0123456789',
        source: 'https://www.widget-marina.test/book?x=1',
      },
      ip(),
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'confirmed', currency: 'usd', total: 236.5, amountPaid: 236.5, balanceDue: 0, timezone: 'America/New_York' });
    expect(r.body.startTime).toBe(at(op.timezone, 3, '10:00'));
    expect(r.body.renterToken).toMatch(/^rst_[A-Za-z0-9]{40}$/);
    expect(r.body.links).toEqual({
      pass: `http://berth.test/public/bookings/${r.body.rentalId}/wallet-pass-a`,
      passFile: `http://berth.test/public/bookings/${r.body.rentalId}/wallet-pass-a/download`,
      saveToWallet: `http://berth.test/public/bookings/${r.body.rentalId}/wallet-pass-b`,
      calendar: `http://berth.test/public/bookings/${r.body.rentalId}/calendar.ics`,
      manage: `http://berth.test/widget?manage=${r.body.rentalId}&customer=${op.customerId}`,
      coverage: `http://berth.test/public/coverage?TransactionId=${r.body.transactionId}`,
    });
    expect(r.body.coverage).toMatchObject({ status: 'not_requested', policyId: null });
    expect(r.headers.get('x-d1-bookmark')).toEqual(expect.any(String));
    const b = (await get(`/coreBooking/${r.body.rentalId}`, { key: op.adminKey })).body;
    expect(b).toMatchObject({
      source: 'widget',
      status: 'confirmed',
      extendedData: { channel: 'widget', refAffiliate: 'PARTNER7', widgetSessionId: 'visit_0123456789' },
    });
    expect(b.extendedData.signedWaivers).toEqual([
      expect.objectContaining({ signatureId: signed.body.signatureId, signerName: 'Rita Renter', email: who.email }),
    ]);
    // The funnel's `booked` event, with the transaction, in the booking's batch.
    const ev = await widgetEvents(op.customerId);
    expect(ev).toEqual([
      expect.objectContaining({ session_id: 'visit_0123456789', event: 'booked', inventory_id: boat.id, ref: 'PARTNER7', source: 'www.widget-marina.test' }),
    ]);
    expect(JSON.parse(ev[0].details)).toEqual({ transactionId: r.body.transactionId });
    // The renter token manages participants (its waiver counts by name) but cannot cancel.
    const token = { headers: { 'x-renter-token': r.body.renterToken } };
    const added = await post(`/public/bookings/${r.body.rentalId}/participants`, { firstName: 'Rita', lastName: 'Renter' }, token);
    expect(added.status, added.text).toBe(201);
    expect(added.body.participants[0].waiver.status).toBe('signed');
    expectError(await post(`/public/bookings/${r.body.rentalId}/cancel`, {}, token), 401, 'renter_session_invalid');
    // The pass and the calendar of the new booking are at the links.
    expect((await get(new URL(r.body.links.pass).pathname)).body.rentalId).toBe(r.body.rentalId);
  });

  it('refuses a changed price, a declined card and a taken time, writing nothing', async () => {
    const { op, boat } = await shop();
    const base = { ...order(op, boat), customerInfo: renter(), sessionId: 'visit_refused_01' };
    const mismatch = await checkout({ ...base, paymentMethodId: 'pm_card_visa', expectedTotal: 199 });
    expectError(mismatch, 400, 'price_mismatch');
    const declined = await checkout({ ...base, paymentMethodId: 'pm_card_chargeDeclined' });
    expectError(declined, 402, 'payment_failed');
    expect(await bookingCount(op.customerId)).toBe(0);
    expect(await widgetEvents(op.customerId)).toEqual([]);
    const sessions = await env.DB.prepare('SELECT COUNT(*) AS n FROM renter_sessions WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(sessions!.n).toBe(0);
    expectError(await checkout({ ...base, customerInfo: { firstName: 'X' } }), 400, 'validation_failed');
    expectError(await checkout({ ...base, paymentMethodId: 'pm_card_visa', refAffiliate: 'not valid!' }), 400, 'validation_failed');
    expectError(await checkout({ ...base, paymentMethodId: 'pm_card_visa', waiverSignatureIds: ['sig_not_theirs_0001'] }), 400);
    expect((await checkout({ ...base, paymentMethodId: 'pm_card_visa' })).status).toBe(201);
    expectError(await checkout({ ...base, customerInfo: renter('late'), paymentMethodId: 'pm_card_visa' }), 409, 'unavailable');
  });

  it('sells the last boat once under parallel checkouts, and keeps the minimum notice of widget sales', async () => {
    const { op, boat } = await shop();
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => checkout({ ...order(op, boat, 4), customerInfo: renter(`race${i}`), paymentMethodId: 'pm_card_visa' })),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 409, 'unavailable');
    expect(await bookingCount(op.customerId)).toBe(1);
    const noticed = await rentalItem(op, { assets: 1, data: { name: 'Notice Boat', minimumNoticeHours: 48 } as any });
    const soon = new Date(Date.now() + 5 * 3_600_000);
    soon.setUTCMinutes(0, 0, 0);
    const tooSoon = await checkout({
      customerId: op.customerId,
      inventoryId: noticed.id,
      startTime: soon.toISOString(),
      endTime: new Date(soon.getTime() + 2 * 3_600_000).toISOString(),
      customerInfo: renter(),
      paymentMethodId: 'pm_card_visa',
    });
    expect(tooSoon.status, tooSoon.text).toBe(409);
  });
});

describe('gift cards in the widget', () => {
  const giftCard = async (op: Operator, code: string, dollars: number) => {
    const r = await post(
      '/promoGiftCards',
      { customerId: op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { $Discount: dollars, type: 'gift_card' } },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
  };
  const balance = async (op: Operator, code: string) =>
    (await get(`/promoGiftCards/balance?promoCode=${code}&customerId=${op.customerId}`, { key: op.adminKey })).body.balance;

  it('a gift card pays what it covers in the booking batch, the card the rest; cancelling the order gives it back', async () => {
    const { op, boat } = await shop();
    await giftCard(op, 'GIFT-30', 30);
    const r = await checkout({ ...order(op, boat), customerInfo: renter(), paymentMethodId: 'pm_card_visa', promoCode: 'GIFT-30', expectedTotal: 220 });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ total: 220, amountPaid: 220, balanceDue: 0 });
    expect(await balance(op, 'GIFT-30')).toBe(0);
    const ledger = await env.DB.prepare(`SELECT source, amount FROM ledger_entries WHERE rental_id = ? AND entry_type = 'payment' ORDER BY amount`)
      .bind(r.body.rentalId)
      .all<{ source: string; amount: number }>();
    expect(ledger.results).toEqual([
      { source: 'card', amount: -19000 },
      { source: 'gift_card', amount: -3000 },
    ]);
    const paid = await env.DB.prepare(`SELECT payload FROM webhook_events WHERE customer_id = ? AND type = 'payment.completed'`)
      .bind(op.customerId)
      .all<{ payload: string }>();
    expect(paid.results.map((e) => JSON.parse(e.payload).data?.amountCents ?? JSON.parse(e.payload).amountCents)).toEqual([19000]);
    // Empty now: the next order cannot use it.
    expectError(await post('/public/widget/quote', order(op, boat, 5, { promoCode: 'GIFT-30' })), 400, 'invalid_promo_code');
    // The operator cancels the order: the card's $30 comes back once.
    expect((await post(`/coreBooking/${r.body.rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    expect(await balance(op, 'GIFT-30')).toBe(30);
    expect((await post(`/coreBooking/${r.body.rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    expect(await balance(op, 'GIFT-30')).toBe(30);
    const entries = await env.DB.prepare(`SELECT kind, amount FROM gift_card_entries WHERE customer_id = ? ORDER BY created_at, kind`)
      .bind(op.customerId)
      .all<{ kind: string; amount: number }>();
    expect(entries.results.map((e) => [e.kind, e.amount])).toEqual([
      ['issue', 3000],
      ['redeem', -3000],
      ['release', 3000],
    ]);
  });

  it('two orders racing for one gift card never spend more than its balance', async () => {
    const { op, boat } = await shop();
    const boat2 = await rentalItem(op, { assets: 1, data: { name: 'Second Boat' } });
    await giftCard(op, 'GIFT-150', 150);
    const rs = await Promise.all(
      [boat, boat2].map((b, i) => checkout({ ...order(op, b), customerInfo: renter(`gift${i}`), paymentMethodId: 'pm_card_visa', promoCode: 'GIFT-150' })),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 400, 'invalid_promo_code');
    expect(await balance(op, 'GIFT-150')).toBe(0);
    expect(await bookingCount(op.customerId)).toBe(1);
  });
});

describe('POST /public/widget/events', () => {
  it('records the funnel (visit id, item, date, time, affiliate, embedding host) without personal data', async () => {
    const { op, boat } = await shop();
    const visit = { customerId: op.customerId, sessionId: 'visit_events_001', ref: 'PARTNER7', source: 'https://shop.example.test/boats' };
    for (const e of [
      { event: 'view' },
      { event: 'date_chosen', inventoryId: boat.id, date: dateAhead(op.timezone, 3) },
      { event: 'slot_chosen', inventoryId: boat.id, date: dateAhead(op.timezone, 3), time: '10:00' },
      { event: 'checkout', inventoryId: boat.id },
    ]) {
      const r = await post('/public/widget/events', { ...visit, ...e }, { headers: ip() });
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({ accepted: true, eventId: expect.stringMatching(/^wev_/) });
    }
    const rows = await widgetEvents(op.customerId);
    expect(rows.map((x) => [x.event, x.inventory_id, x.date, x.time, x.ref, x.source])).toEqual([
      ['view', null, null, null, 'PARTNER7', 'shop.example.test'],
      ['date_chosen', boat.id, dateAhead(op.timezone, 3), null, 'PARTNER7', 'shop.example.test'],
      ['slot_chosen', boat.id, dateAhead(op.timezone, 3), '10:00', 'PARTNER7', 'shop.example.test'],
      ['checkout', boat.id, null, null, 'PARTNER7', 'shop.example.test'],
    ]);
    expectError(await post('/public/widget/events', { ...visit, event: 'booked' }, { headers: ip() }), 400, 'validation_failed');
    expectError(await post('/public/widget/events', { ...visit, sessionId: 'x', event: 'view' }, { headers: ip() }), 400, 'validation_failed');
    expectError(await post('/public/widget/events', { ...visit, customerId: 'cus_unknown_0000', event: 'view' }, { headers: ip() }), 404, 'not_found');
  });

  it('takes at most 120 events a minute from one client address', { timeout: 60_000 }, async () => {
    const { op } = await shop();
    const from = ip();
    const rs = await Promise.all(
      Array.from({ length: 125 }, () =>
        post('/public/widget/events', { customerId: op.customerId, sessionId: 'visit_flood_001', event: 'view' }, { headers: from }),
      ),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(120);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 429, 'rate_limited');
  });
});

describe('public availability for the widget', () => {
  /** A GET and its revalidation within one 30-second clock window of the ETag (retried once across a window edge). */
  async function revalidate(path: string) {
    for (let i = 0; i < 2; i++) {
      const first = await get(path);
      const etag = first.headers.get('etag')!;
      const again = await get(path, { headers: { 'if-none-match': etag } });
      if (again.status === 304 || again.headers.get('etag') === etag) return { first, etag, again };
    }
    throw new Error('the ETag changed twice in a row');
  }

  it('answers 304 while the item and its allocations are unchanged, and a new ETag after a booking', async () => {
    const { op, boat } = await shop();
    const path = `/public/day-availability?inventoryId=${boat.id}&locationId=${op.locationId}&date=${dateAhead(op.timezone, 3)}`;
    const { first, etag, again } = await revalidate(path);
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\/"[0-9a-z]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const month = await revalidate(`/public/availability?inventoryId=${boat.id}&locationId=${op.locationId}&month=${dateAhead(op.timezone, 3).slice(0, 7)}`);
    expect(month.again.status).toBe(304);
    expect(month.etag).not.toBe(etag);
    // A booking bumps the allocation sequence: the old ETag no longer matches and the slot shows as taken.
    const booked = await checkout({ ...order(op, boat), customerInfo: renter(), paymentMethodId: 'pm_card_visa' });
    expect(booked.status).toBe(201);
    const after = await get(path, { headers: { 'if-none-match': etag, 'x-d1-bookmark': booked.headers.get('x-d1-bookmark')! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.body.slots.find((s: any) => s.time === '10:00').available).toBe(false);
    expect(after.headers.get('x-d1-bookmark')).toEqual(expect.any(String));
  });

  it('ignores a malformed bookmark', async () => {
    const { op, boat } = await shop();
    const r = await get(`/public/day-availability?inventoryId=${boat.id}&locationId=${op.locationId}&date=${dateAhead(op.timezone, 3)}`, {
      headers: { 'x-d1-bookmark': 'not a bookmark; drop table' },
    });
    expect(r.status).toBe(200);
  });
});

describe('GET /docs', () => {
  it('loads the API reference from Berth itself, with a scripts-from-self CSP', async () => {
    const r = await get('/docs');
    expect(r.status).toBe(200);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/https?:\/\//);
    expect(r.text).toContain('<script src="/static/vendor/scalar/api-reference.js"></script>');
    expect(r.text).not.toMatch(/(src|href)="https?:\/\//);
    expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
