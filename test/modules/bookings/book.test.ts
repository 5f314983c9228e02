/** POST /coreBooking/book: pricing, renter, payment, deposit, ledger, events, notifications, failures. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';
import { customers } from '../../../src/db/schema/accounts';
import { at, book, bookBody, counts, email, eventsOf, rentalItem, tourItem, everyDay } from './factories';

const setSettings = (customerId: string, settings: Record<string, unknown>) => db().update(customers).set({ settings }).where(eq(customers.id, customerId));

describe('POST /coreBooking/book', () => {
  it('refuses an empty body with 400 naming the required fields', async () => {
    const op = await createOperator();
    const r = await post('/coreBooking/book', {}, { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    const fields = new Set(r.body.details.map((d: any) => d.field));
    for (const f of ['rentalDetails', 'rentalPricing', 'customerInfo', 'extendedData']) expect(fields.has(f), f).toBe(true);
  });

  it('refuses bad details: missing window, unknown enum, rental without endTime, bad email', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const base = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') });
    expectError(await book(op, { ...base, rentalDetails: {} }), 400, 'validation_failed');
    expectError(await book(op, { ...base, paymentPlan: { type: 'monthly' } }), 400, 'validation_failed');
    expectError(await book(op, { ...base, customerInfo: { firstName: 'A', lastName: 'B', email: 'not-an-email' } }), 400, 'validation_failed');
    expectError(await book(op, { ...base, rentalDetails: { inventoryId: item.id, startTime: at(op.timezone, 3, '10:00') } }), 400, 'bad_request');
    expectError(
      await book(op, { ...base, rentalDetails: { inventoryId: item.id, startTime: at(op.timezone, 3, '12:00'), endTime: at(op.timezone, 3, '10:00') } }),
      400,
      'bad_request',
    );
    expectError(await book(op, { ...base, rentalDetails: { ...base.rentalDetails, startTime: '2026-07-04 10:00' } }), 400, 'validation_failed');
  });

  it('books a rental in one operation: renter, payment, assets, ledger, loyalty, e-mail, events', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2, data: { taxes: [{ name: 'Sales tax', rate: 7, appliesTo: 'all' }] } });
    const mail = email('first');
    const r = await book(
      op,
      bookBody({
        inventoryId: item.id,
        startTime: at(op.timezone, 5, '10:00'),
        endTime: at(op.timezone, 5, '13:00'),
        email: mail,
        total: 321,
        extra: { rentalPricing: { total: 321, tip: 0 } },
      }),
    );
    expect(r.status, r.text).toBe(201);
    const b = r.body;
    expect(b).toMatchObject({
      status: 'confirmed',
      Status: 'confirmed',
      inventoryId: item.id,
      locationId: item.locationId,
      quantity: 1,
      currency: 'usd',
      customerCreated: true,
    });
    expect(b.rentalId).toMatch(/^bk_/);
    expect(b.transactionId).toMatch(/^txn_/);
    expect(b.assetIds).toHaveLength(1);
    expect(item.assetIds).toContain(b.assetIds[0]);
    expect(b.pricing).toMatchObject({ subtotal: 300, taxTotal: 21, total: 321, amountPaid: 321, balanceDue: 0, loyaltyPoints: 300 });
    expect(b.payment).toMatchObject({ status: 'paid', plan: 'full', amountCharged: 321 });
    expect(b.rentals).toHaveLength(1);
    expect(b.order).toMatchObject({ total: 321, amountPaid: 321, loyaltyPoints: 300 });

    const renter = await env.DB.prepare('SELECT * FROM renters WHERE customer_id = ? AND email = ?').bind(op.customerId, mail).first<any>();
    expect(renter).toMatchObject({ id: b.renterId, first_name: 'Rita', loyalty_points: 300 });
    expect(JSON.parse(renter.transactions)[0].transactionId).toBe(b.transactionId);
    const alloc = await env.DB.prepare('SELECT * FROM allocations WHERE source_id = ?').bind(b.rentalId).all<any>();
    expect(alloc.results).toHaveLength(1);
    expect(alloc.results[0]).toMatchObject({ asset_id: b.assetIds[0], kind: 'booking', active: 1 });
    const ledger = await env.DB.prepare('SELECT entry_type, amount, source FROM ledger_entries WHERE rental_id = ? ORDER BY entry_type')
      .bind(b.rentalId)
      .all<any>();
    expect(ledger.results.map((l: any) => [l.entry_type, l.amount])).toEqual([
      ['payment', -32100],
      ['revenue', 30000],
      ['tax', 2100],
    ]);
    const balance = ledger.results.reduce((s: number, l: any) => s + l.amount, 0);
    expect(balance).toBe(0);
    const msg = await env.DB.prepare("SELECT * FROM message_outbox WHERE customer_id = ? AND template = 'booking.confirmation'")
      .bind(op.customerId)
      .first<any>();
    expect(msg.to).toBe(mail);
    expect(msg.body).toContain(`Booking reference: ${b.reference}`);
    expect(b.reference).toBe(b.rentalId);
    const types = (await eventsOf(op.customerId)).map((e) => e.type).sort();
    expect(types).toEqual(['booking.created', 'customer.created', 'payment.completed']);
    const created = (await eventsOf(op.customerId, 'booking.created'))[0].payload.data;
    expect(created.rentalId).toBe(b.rentalId);

    // A second booking by the same e-mail updates the renter (no customer.created) and adds points.
    const again = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 6, '10:00'), endTime: at(op.timezone, 6, '11:00'), email: mail.toUpperCase() }),
    );
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ renterId: b.renterId, customerCreated: false });
    expect((await eventsOf(op.customerId, 'customer.created')).length).toBe(1);
    const r2 = await env.DB.prepare('SELECT loyalty_points FROM renters WHERE id = ?').bind(b.renterId).first<any>();
    expect(r2.loyalty_points).toBe(400);

    const got = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ rentalId: b.rentalId, status: 'confirmed', assetIds: b.assetIds });
  });

  it('books tour seats with tickets per tier', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 5 });
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '14:00'), tickets: { Adult: 2, Child: 1 } }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ quantity: 3, participants: 3, assetIds: [], pricing: { total: 125 } });
    expect(r.body.endTime).toBe(new Date(Date.parse(at(op.timezone, 4, '14:00')) + 2 * 3_600_000).toISOString());
    const seats = await env.DB.prepare('SELECT seats, capacity FROM allocations WHERE source_id = ?').bind(r.body.rentalId).first<any>();
    expect(seats).toMatchObject({ seats: 3, capacity: 5 });
    // 11:00 is not a departure.
    const off = await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '11:00'), tickets: { Adult: 1 } }));
    expectError(off, 409, 'unavailable');
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '14:00'), tickets: { Pirate: 1 } })), 400, 'bad_request');
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '14:00'), tickets: { Adult: 3 } })), 409, 'unavailable');
  });

  it('refuses a client total that differs from the price by more than a cent', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const w = { inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    const r = await book(op, bookBody({ ...w, total: 200.02 }));
    expectError(r, 400, 'price_mismatch');
    expect(r.body.expectedTotal).toBe(200);
    expect(r.body.breakdown[0].rental).toBe(200);
    expect((await counts(op.customerId)).bookings).toBe(0);
    expect((await book(op, bookBody({ ...w, total: 200.01 }))).status).toBe(201);
  });

  it('prices add-ons, global add-ons, promo codes, manual discounts and tips server-side', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, {
      data: {
        addons: [
          { addonId: 'cooler', name: 'Cooler', price: 20 },
          { addonId: 'skipper', name: 'Skipper', price: 50, priceType: 'per_hour', taxable: false },
        ],
        taxes: [{ name: 'Tax', rate: 10, appliesTo: 'rental' }],
      },
    });
    await rentalItem(op, { data: { name: 'Kayak', addons: [{ addonId: 'photos', name: 'Photo package', price: 30, isGlobal: true }] } });
    await setSettings(op.customerId, {
      promoCodes: [
        { promoCode: 'SUMMER10', Details: { '%Discount': 10 } },
        { promoCode: 'OLD', Details: { $Discount: 5 }, ExpiryDate: '2020-01-01' },
        { promoCode: 'OTHERITEM', Details: { $Discount: 5 }, inventoryIds: ['inv_other'] },
      ],
    });
    const body = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') });
    const full = {
      ...body,
      selectedBoatAddons: [{ addonId: 'cooler' }, { addonId: 'skipper' }],
      globalAddons: [{ addonId: 'photos' }],
      discountDetails: { promoCode: 'summer10' },
      rentalPricing: { tip: 15 },
    };
    const r = await book(op, full);
    expect(r.status, r.text).toBe(201);
    // Rental 200 + cooler 20 + skipper 100 + photos 30 = 350; 10% off = 35 (rental share 20); tax 10% of 180 = 18; tip 15.
    expect(r.body.pricing).toMatchObject({ subtotal: 350, discountTotal: 35, taxTotal: 18, tipTotal: 15, total: 348 });
    expect(r.body.promoCode).toBe('SUMMER10');
    expect(r.body.addons.map((a: any) => a.addonId)).toEqual(['cooler', 'skipper', 'photos']);
    const ledger = await env.DB.prepare('SELECT entry_type, SUM(amount) AS s FROM ledger_entries WHERE rental_id = ? GROUP BY entry_type ORDER BY entry_type')
      .bind(r.body.rentalId)
      .all<any>();
    expect(Object.fromEntries(ledger.results.map((l: any) => [l.entry_type, l.s]))).toEqual({
      discount: -3500,
      payment: -34800,
      revenue: 35000,
      tax: 1800,
      tip: 1500,
    });
    expectError(await book(op, { ...body, discountDetails: { promoCode: 'NOPE' } }), 400, 'invalid_promo_code');
    expectError(await book(op, { ...body, discountDetails: { promoCode: 'OLD' } }), 400, 'invalid_promo_code');
    expectError(await book(op, { ...body, discountDetails: { promoCode: 'OTHERITEM' } }), 400, 'invalid_promo_code');
    expectError(await book(op, { ...body, selectedBoatAddons: [{ addonId: 'photos-x' }] }), 400, 'bad_request');
    const manual = await book(op, {
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') }),
      discountDetails: { discountAmount: 50 },
    });
    expect(manual.body.pricing).toMatchObject({ subtotal: 200, discountTotal: 50, taxTotal: 15, total: 165 });
  });

  it('installments charge the first part; pay later leaves the booking pending until confirmed', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const inst = await book(op, {
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 20, '10:00'), endTime: at(op.timezone, 20, '13:00') }),
      paymentPlan: { type: 'installments', installments: 3 },
    });
    expect(inst.status, inst.text).toBe(201);
    expect(inst.body.payment).toMatchObject({ status: 'partially_paid', plan: 'installments', amountCharged: 100 });
    expect(inst.body.payment.installments.map((i: any) => i.amount)).toEqual([100, 100, 100]);
    expect(inst.body.pricing).toMatchObject({ total: 300, amountPaid: 100, balanceDue: 200 });
    expect(inst.body.status).toBe('confirmed');

    const later = await book(op, {
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 21, '10:00'), endTime: at(op.timezone, 21, '12:00'), paymentMethodId: null }),
    });
    expect(later.status, later.text).toBe(201);
    expect(later.body).toMatchObject({ status: 'pending', payment: { status: 'unpaid', plan: 'pay_later', amountCharged: 0 } });
    // Pending bookings hold inventory.
    const avail = await get(
      `/availability?inventoryId=${item.id}&startTime=${encodeURIComponent(at(op.timezone, 21, '10:00'))}&endTime=${encodeURIComponent(at(op.timezone, 21, '12:00'))}`,
      { key: op.adminKey },
    );
    expect(avail.body).toMatchObject({ available: true, unitsFree: 1 });
    expect((await eventsOf(op.customerId, 'payment.completed')).length).toBe(1);
    expectError(
      await book(op, {
        ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 22, '10:00'), endTime: at(op.timezone, 22, '12:00'), paymentMethodId: null }),
        paymentPlan: { type: 'full' },
      }),
      400,
      'bad_request',
    );
  });

  it('pre-authorizes a deposit and records it', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const r = await book(op, {
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') }),
      depositInformation: { amount: 250, required: true },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.deposit).toMatchObject({ amount: 250, status: 'authorized' });
    const dep = await env.DB.prepare('SELECT * FROM deposits WHERE rental_id = ?').bind(r.body.rentalId).first<any>();
    expect(dep).toMatchObject({ status: 'authorized', amount: 25000, payment_intent_id: r.body.deposit.paymentIntentId });
    const pi = await env.DB.prepare('SELECT status, capture_method FROM sim_payment_intents WHERE id = ?').bind(dep.payment_intent_id).first<any>();
    expect(pi).toMatchObject({ status: 'requires_capture', capture_method: 'manual' });
    const memo = await env.DB.prepare("SELECT amount, affects_balance FROM ledger_entries WHERE rental_id = ? AND entry_type = 'deposit_hold'")
      .bind(r.body.rentalId)
      .first<any>();
    expect(memo).toMatchObject({ amount: 25000, affects_balance: 0 });
  });

  it('a declined card answers 402 and leaves nothing behind (and frees the slot)', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const w = { inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    const before = await counts(op.customerId);
    for (const pm of ['pm_card_chargeDeclined', 'pm_card_authenticationRequired']) {
      // The deposit is authorized on a good card first, then the payment fails: the deposit is voided.
      const r = await book(op, { ...bookBody({ ...w, paymentMethodId: pm }), depositInformation: { amount: 100, paymentMethodId: 'pm_card_visa' } });
      expectError(r, 402, 'payment_failed');
      expect(r.body).toMatchObject({ stage: 'payment', declineCode: pm === 'pm_card_chargeDeclined' ? 'card_declined' : 'authentication_required' });
    }
    // Deposit declined on its own card, main card fine.
    const d = await book(op, { ...bookBody(w), depositInformation: { amount: 100, paymentMethodId: 'pm_card_chargeDeclined' } });
    expectError(d, 402, 'payment_failed');
    expect(d.body.stage).toBe('deposit');
    expect(await counts(op.customerId)).toEqual(before);
    // The authorized deposit of the first attempt was voided.
    const voided = await env.DB.prepare("SELECT status FROM sim_payment_intents WHERE capture_method = 'manual' AND metadata LIKE ?")
      .bind(`%${op.customerId}%`)
      .all<any>();
    expect(voided.results.map((v: any) => v.status).sort()).toEqual(['canceled', 'canceled', 'requires_payment_method']);
    // The reservation was released: the only boat can be booked now.
    expect((await book(op, bookBody(w))).status).toBe(201);
  });

  it('answers 409 when the slot is taken, closed or the asset chosen is busy', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2, data: { operatingHours: { ...everyDay({ open: '08:00', close: '18:00' }) } } });
    const w = { inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    const first = await book(op, bookBody({ ...w, assetIds: [item.assetIds[1]] }));
    expect(first.status).toBe(201);
    expect(first.body.assetIds).toEqual([item.assetIds[1]]);
    const taken = await book(op, bookBody({ ...w, assetIds: [item.assetIds[1]] }));
    expectError(taken, 409, 'unavailable');
    expect(taken.body.reasons[0].code).toBe('asset_unavailable');
    expect((await book(op, bookBody({ ...w, quantity: 2 }))).status).toBe(409);
    expect((await book(op, bookBody(w))).body.assetIds).toEqual([item.assetIds[0]]);
    const full = await book(op, bookBody(w));
    expectError(full, 409, 'unavailable');
    expect(full.body.reasons[0].code).toBe('sold_out');
    const night = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '19:00'), endTime: at(op.timezone, 3, '20:00') }));
    expectError(night, 409, 'unavailable');
    expect(night.body.reasons[0].code).toBe('outside_hours');
  });

  it("another operator's item and unknown items are 404; a wrong location is 400", async () => {
    const op = await createOperator();
    const other = await createOperator();
    const theirs = await rentalItem(other);
    const w = { startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    expectError(await book(op, bookBody({ inventoryId: theirs.id, ...w })), 404, 'not_found');
    expectError(await book(op, bookBody({ inventoryId: 'inv_nope', ...w })), 404, 'not_found');
    const mine = await rentalItem(op);
    expectError(await book(op, bookBody({ inventoryId: mine.id, ...w, rentalDetails: { locationId: other.locationId } })), 400, 'bad_request');
  });

  it('books a bundle all-or-nothing with a shared bundleGroupId', async () => {
    const op = await createOperator();
    const boat = await rentalItem(op, { assets: 1 });
    const tour = await tourItem(op, { capacity: 2 });
    await setSettings(op.customerId, {
      bundles: [
        {
          bundleCode: 'BOAT-TOUR',
          name: 'Boat + Tour',
          items: [
            { inventoryId: boat.id, quantity: 1 },
            { inventoryId: tour.id, quantity: 2 },
          ],
          discountPercentage: 10,
        },
      ],
    });
    const body = (day: number) => ({
      ...bookBody({}),
      rentalDetails: {
        bundleCode: 'BOAT-TOUR',
        items: [
          { inventoryId: boat.id, startTime: at(op.timezone, day, '12:00'), endTime: at(op.timezone, day, '14:00') },
          { inventoryId: tour.id, startTime: at(op.timezone, day, '14:00') },
        ],
      },
    });
    const r = await book(op, body(5));
    expect(r.status, r.text).toBe(201);
    expect(r.body.rentals).toHaveLength(2);
    expect(r.body.bundleGroupId).toMatch(/^bgp_/);
    expect(new Set(r.body.rentals.map((x: any) => x.bundleGroupId))).toEqual(new Set([r.body.bundleGroupId]));
    expect(new Set(r.body.rentals.map((x: any) => x.transactionId)).size).toBe(1);
    // Boat 200 - 10% + tour 2 x 50 - 10% = 270.
    expect(r.body.order.total).toBe(270);
    expect(r.body.payment.amountCharged).toBe(270);

    // The tour departure is now full: the whole bundle is refused and the boat stays free.
    const before = await counts(op.customerId);
    const again = await book(op, body(5));
    expectError(again, 409, 'unavailable');
    expect(await counts(op.customerId)).toEqual(before);
    const boatOnly = await book(op, bookBody({ inventoryId: boat.id, startTime: at(op.timezone, 5, '15:00'), endTime: at(op.timezone, 5, '16:00') }));
    expect(boatOnly.status).toBe(201);
    expectError(await book(op, { ...body(6), rentalDetails: { bundleCode: 'NOPE', startTime: at(op.timezone, 6, '10:00') } }), 400, 'bad_request');
  });

  it('books a multi-item order with one payment', async () => {
    const op = await createOperator();
    const a = await rentalItem(op);
    const b2 = await rentalItem(op, { data: { name: 'Jet ski', seasons: [{ name: 'D', hourlyPrices: everyDay({ basePrice: 80 }) }] } });
    const r = await book(op, {
      ...bookBody({}),
      rentalDetails: {
        items: [
          { inventoryId: a.id, startTime: at(op.timezone, 7, '10:00'), endTime: at(op.timezone, 7, '11:00') },
          { inventoryId: b2.id, startTime: at(op.timezone, 7, '10:00'), endTime: at(op.timezone, 7, '12:00') },
        ],
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.rentals.map((x: any) => x.pricing.total)).toEqual([100, 160]);
    expect(r.body.order).toMatchObject({ total: 260, amountPaid: 260 });
    expect(r.body.rentals[0].paymentIntentId).toBe(r.body.rentals[1].paymentIntentId);
    expect((await eventsOf(op.customerId, 'booking.created')).length).toBe(2);
  });

  it('security: credentials required; another operator cannot book this item', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    await checkSecurity(op, {
      method: 'POST',
      path: '/coreBooking/book',
      body: bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') }),
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/bk_unknown`, otherStatus: 404 });
  });
});
