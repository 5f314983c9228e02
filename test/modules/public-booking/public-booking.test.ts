import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { api, createOperator, db, expectError, get, patch } from '../../harness';
import { otherOperator } from '../../security';
import { bookings, bookingEvents } from '../../../src/db/schema/bookings';
import { inventoryItems } from '../../../src/db/schema/inventory';
import { webhookEvents } from '../../../src/db/schema/events';
import { dayAt, makeBooking, makeItem } from '../schedule/factories';

async function order() {
  const op = await createOperator();
  const boat = await makeItem(op, { name: 'Pontoon 22' });
  const kayak = await makeItem(op, { name: 'Kayak', data: { images: ['https://img.example.test/kayak.jpg'], category: 'Paddle' } });
  const txn = `txn_${op.customerId.slice(-12)}`;
  const bundle = `bgp_${op.customerId.slice(-12)}`;
  const ci = { firstName: 'Pia', lastName: 'Public', email: 'pia@renter.test', phone: '+15555550111', dob: '1990-01-01', licenseNumber: 'X123' };
  const a = await makeBooking(op, {
    item: boat,
    start: dayAt(3),
    transactionId: txn,
    bundleGroupId: bundle,
    customerInfo: ci,
    total: 30000,
    amountPaid: 10000,
    paymentIntentId: 'pi_secret_internal',
  });
  const b = await makeBooking(op, {
    item: kayak,
    start: dayAt(3, 16),
    transactionId: txn,
    bundleGroupId: bundle,
    customerInfo: ci,
    total: 5000,
    amountPaid: 5000,
  });
  const c = await makeBooking(op, { item: kayak, start: dayAt(4), transactionId: txn, customerInfo: ci, total: 4000, amountPaid: 0 });
  return { op, boat, kayak, txn, bundle, a, b, c };
}

const leaks = ['pi_secret_internal', 'VIP - comp drinks', 'internalCost', 'X123', '1990-01-01'];

describe('GET /public/order/{orderId}', () => {
  it('answers the whole order grouped by bundle, from a transaction, bundle or rental id, without credentials', async () => {
    const { txn, bundle, a, b, c } = await order();
    for (const [id, matchedAs] of [
      [txn, 'transaction'],
      [bundle, 'bundle'],
      [c.id, 'rental'],
    ] as const) {
      const r = await get(`/public/order/${id}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        orderId: id,
        matchedAs,
        transactionId: txn,
        status: 'confirmed',
        currency: 'usd',
        renter: { firstName: 'Pia', lastName: 'Public' },
      });
      expect(r.body.totals).toMatchObject({ total: 390, amountPaid: 150, balanceDue: 240 });
      expect(r.body.groups.map((g: any) => [g.groupId, g.type, g.lineItems.map((l: any) => l.rentalId), g.total])).toEqual([
        [bundle, 'bundle', [a.id, b.id], 350],
        [c.id, 'single', [c.id], 40],
      ]);
      const kayakLine = r.body.groups[0].lineItems[1];
      expect(kayakLine).toMatchObject({ name: 'Kayak', image: 'https://img.example.test/kayak.jpg', category: 'Paddle', timezone: 'America/New_York' });
      expect(kayakLine.assets[0].name).toBe('Boat 1');
      for (const secret of [...leaks, 'pia@renter.test', '+15555550111']) expect(r.text).not.toContain(secret);
    }
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await get('/public/order/txn_nothing_here'), 404, 'not_found');
  });

  it('refuses invalid credentials but serves any valid operator the same public view', async () => {
    const { txn } = await order();
    expectError(await get(`/public/order/${txn}`, { key: 'brk_not_a_real_key_000000000000000000000' }), 401, 'unauthenticated');
    const intruder = await otherOperator();
    expect((await get(`/public/order/${txn}`, { key: intruder.adminKey })).status).toBe(200);
  });
});

describe('GET /public/booking', () => {
  it("answers the renter's view: contact details, own notes, editable paths, no internal fields", async () => {
    const { txn, a, b, c } = await order();
    const r = await get(`/public/booking?TransactionId=${txn}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.customerInfo).toEqual({ firstName: 'Pia', lastName: 'Public', email: 'pia@renter.test', phone: '+15555550111' });
    expect(r.body.bookings.map((x: any) => x.rentalId)).toEqual([a.id, b.id, c.id]);
    expect(r.body.bookings[0].extendedData).toEqual({ notes: 'Birthday trip' });
    expect(r.body.bookings[0].editable).toBe(true);
    expect(r.body.editablePaths).toContain('customerInfo.phone');
    for (const secret of leaks) expect(r.text).not.toContain(secret);
  });

  it('needs TransactionId (400) and answers 404 for an unknown one', async () => {
    expectError(await get('/public/booking'), 400, 'validation_failed');
    expectError(await get('/public/booking?TransactionId=txn_unknown_0000'), 404);
  });
});

describe('PATCH /public/booking', () => {
  it('applies renter-editable dot paths, logs the activity and fires booking.updated', async () => {
    const { op, txn, a } = await order();
    const r = await patch('/public/booking', {
      rentalId: a.id,
      data: {
        'customerInfo.phone': '+1 (555) 555-0222',
        'customerInfo.emergencyContact.name': 'Paul',
        'extendedData.notes': 'Arriving 15 minutes early',
        'extendedData.preferences.music': 'jazz',
        'customerInfo.address.city': 'Miami',
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.transactionId).toBe(txn);
    expect(r.body.customerInfo.phone).toBe('+1 (555) 555-0222');
    expect(r.body.bookings[0].extendedData).toEqual({ notes: 'Arriving 15 minutes early', preferences: { music: 'jazz' } });
    const row = await db().select().from(bookings).where(eq(bookings.id, a.id)).get();
    expect(row!.version).toBe(2);
    expect(row!.customerInfo).toMatchObject({
      email: 'pia@renter.test',
      phone: '+1 (555) 555-0222',
      emergencyContact: { name: 'Paul' },
      address: { city: 'Miami' },
      licenseNumber: 'X123',
    });
    expect(row!.extendedData).toMatchObject({ internalNotes: 'VIP - comp drinks' });
    expect(row!.status).toBe('confirmed');
    expect(row!.total).toBe(30000);
    const activity = await db()
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.id, `bev_${a.id}_v2`))
      .get();
    expect(activity).toMatchObject({ eventType: 'booking.updated', actorName: 'renter', rentalId: a.id });
    const evts = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.customerId, op.customerId), eq(webhookEvents.type, 'booking.updated')))
      .all();
    expect(evts).toHaveLength(1);
    expect(evts[0].payload.data).toMatchObject({ rentalId: a.id, source: 'renter' });
    // null removes a field; a string address becomes an object when a part of it is set
    await db()
      .update(bookings)
      .set({ customerInfo: { ...row!.customerInfo, address: '1 Ocean Dr' } })
      .where(eq(bookings.id, a.id));
    const r2 = await patch('/public/booking', { rentalId: a.id, data: { 'extendedData.preferences.music': null, 'customerInfo.address.postalCode': '33139' } });
    expect(r2.status, r2.text).toBe(200);
    const row2 = await db().select().from(bookings).where(eq(bookings.id, a.id)).get();
    expect(row2!.customerInfo!.address).toEqual({ line1: '1 Ocean Dr', postalCode: '33139' });
    expect(row2!.extendedData!.preferences).toEqual({});
  });

  it('refuses forbidden paths with 400 naming each one, and changes nothing', async () => {
    const { a } = await order();
    for (const path of [
      'status',
      'Status',
      'pricing.total',
      'total',
      'customerId',
      'assetIds',
      'startTime',
      'rentalId',
      'customerInfo.email',
      'customerInfo.firstName',
      'extendedData.internalNotes',
      'extendedData.preferences.__proto__',
      'customerInfo.__proto__.polluted',
      'foo',
    ]) {
      const r = await patch('/public/booking', { rentalId: a.id, data: { [path]: 'x', 'extendedData.notes': 'ok' } });
      expectError(r, 400, 'forbidden_path');
      expect(r.body.details.map((d: any) => d.field)).toEqual([path]);
      expect(r.body.message).toContain(path);
    }
    const many = await patch('/public/booking', { rentalId: a.id, data: { status: 'cancelled', 'pricing.total': 0, 'customerInfo.phone': '+15555550999' } });
    expectError(many, 400, 'forbidden_path');
    expect(many.body.details.map((d: any) => d.field).sort()).toEqual(['pricing.total', 'status']);
    expect(many.body.details[0].message).toMatch(/can never be changed/);
    const row = await db().select().from(bookings).where(eq(bookings.id, a.id)).get();
    expect(row!.version).toBe(1);
    expect(row!.customerInfo!.phone).toBe('+15555550111');
    expect(({} as any).polluted).toBeUndefined();
  });

  it('validates values and input, 404 for unknown rentals, 409 for closed bookings', async () => {
    const { op, kayak, a } = await order();
    expectError(await patch('/public/booking', {}), 400, 'validation_failed');
    expectError(await patch('/public/booking', { rentalId: a.id, data: {} }), 400, 'validation_failed');
    expectError(await patch('/public/booking', { rentalId: a.id, data: { 'customerInfo.phone': 'call me maybe' } }), 400, 'validation_failed');
    expectError(await patch('/public/booking', { rentalId: a.id, data: { 'customerInfo.marketingOptIn': 'yes' } }), 400, 'validation_failed');
    expectError(await patch('/public/booking', { rentalId: a.id, data: { 'extendedData.notes': 'x'.repeat(2001) } }), 400, 'validation_failed');
    expectError(await patch('/public/booking', { rentalId: 'bk_unknown', data: { 'extendedData.notes': 'x' } }), 404);
    const gone = await makeBooking(op, { item: kayak, start: dayAt(6), status: 'cancelled' });
    expectError(await patch('/public/booking', { rentalId: gone.id, data: { 'extendedData.notes': 'x' } }), 409, 'invalid_state');
  });

  it('never loses a change when two edits race (compare-and-swap on the version)', async () => {
    const { a } = await order();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch('/public/booking', { rentalId: a.id, data: { 'extendedData.preferences.n': i } })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    for (const r of results) expect([200, 409], r.text).toContain(r.status);
    const row = await db().select().from(bookings).where(eq(bookings.id, a.id)).get();
    expect(row!.version).toBe(1 + ok);
    const log = await db().select().from(bookingEvents).where(eq(bookingEvents.rentalId, a.id)).all();
    expect(log).toHaveLength(ok);
  });
});

async function decrypt(res: { iv: string; ciphertext: string }) {
  const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', b64(env.WIDGET_ENCRYPTION_KEY!), 'AES-GCM', false, ['decrypt']);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: b64(res.iv), tagLength: 128 }, key, b64(res.ciphertext));
  return JSON.parse(new TextDecoder().decode(plain));
}

describe('GET /public/customer', () => {
  it('answers AES-256-GCM encrypted widget data that WebCrypto decrypts; no renter data', async () => {
    const op = await createOperator();
    const boat = await makeItem(op, { name: 'Pontoon 22', assets: 2 });
    const hidden = await makeItem(op, { name: 'Staff boat', isPublic: false });
    const deleted = await makeItem(op, { name: 'Sold boat' });
    await db().update(inventoryItems).set({ deletedAt: new Date().toISOString() }).where(eq(inventoryItems.id, deleted.id));
    const tour = await makeItem(op, {
      name: 'Sunset tour',
      type: 'tour',
      data: {
        capacity: 20,
        tourPricing: {
          priceTiers: [
            { name: 'Child', price: 25 },
            { name: 'Adult', price: 45 },
          ],
        },
      },
    });
    const bk = await makeBooking(op, {
      item: boat,
      start: dayAt(2),
      allocate: true,
      customerInfo: { firstName: 'Secret', lastName: 'Renter', email: 'secret@renter.test' },
    });
    await makeBooking(op, { item: hidden, start: dayAt(2), allocate: true });

    const r = await get(`/public/customer?customer_id=${op.customerId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ alg: 'AES-256-GCM', customerId: op.customerId });
    expect(atob(r.body.iv)).toHaveLength(12);
    expect(r.text).not.toContain('Pontoon');
    const data = await decrypt(r.body);
    expect(data.customerId).toBe(op.customerId);
    expect(data.locations.map((l: any) => l.locationId)).toEqual([op.locationId]);
    expect(data.inventory.map((i: any) => i.name).sort()).toEqual(['Pontoon 22', 'Sunset tour']);
    const boatOut = data.inventory.find((i: any) => i.inventoryId === boat.id);
    expect(boatOut).toMatchObject({ startingPrice: 95, priceUnit: 'hr', currency: 'usd', capacity: 8, category: 'Pontoon' });
    expect(boatOut.assets).toHaveLength(2);
    expect(boatOut.pricing.seasons[0].dailyPrices.Saturday).toBe(450);
    expect(data.inventory.find((i: any) => i.inventoryId === tour.id)).toMatchObject({ startingPrice: 45, priceUnit: 'person', type: 'tour' });
    expect(data.bookings).toEqual([
      {
        inventoryId: boat.id,
        assetId: bk.assetIds[0],
        kind: 'booking',
        startTime: new Date(bk.start).toISOString(),
        endTime: new Date(bk.end).toISOString(),
        seats: 1,
        capacity: null,
      },
    ]);
    expect(data.bookingsTruncated).toBe(false);
    const plain = JSON.stringify(data);
    for (const secret of ['Secret', 'secret@renter.test', 'Staff boat', 'Sold boat', bk.id, bk.transactionId]) expect(plain).not.toContain(secret);

    // a fresh nonce each time; a flipped ciphertext bit fails authentication
    const again = await get(`/public/customer?customer_id=${op.customerId}`);
    expect(again.body.iv).not.toBe(r.body.iv);
    const bytes = Uint8Array.from(atob(r.body.ciphertext), (c) => c.charCodeAt(0));
    bytes[0] ^= 1;
    await expect(decrypt({ iv: r.body.iv, ciphertext: btoa(String.fromCharCode(...bytes)) })).rejects.toThrow();
  });

  it('needs customer_id (400) and answers 404 for an unknown operator', async () => {
    expectError(await get('/public/customer'), 400, 'validation_failed');
    expectError(await get('/public/customer?customer_id=cus_unknown'), 404);
    expectError(await api('GET', '/public/customer?customer_id=cus_unknown', { key: 'brk_not_a_real_key_000000000000000000000' }), 401);
  });
});

describe('GET /public/widget-info', () => {
  it('answers minimal unencrypted card data', async () => {
    const op = await createOperator();
    const boat = await makeItem(op, { name: 'Pontoon 22' });
    const r = await get(`/public/widget-info?customer_id=${op.customerId}&inventory_id=${boat.id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      inventoryId: boat.id,
      customerId: op.customerId,
      locationId: op.locationId,
      name: 'Pontoon 22',
      type: 'rental',
      category: 'Pontoon',
      image: 'https://img.example.test/pontoon.jpg',
      startingPrice: 95,
      priceUnit: 'hr',
      currency: 'usd',
      capacity: 8,
    });
    const plain = await makeItem(op, { name: 'Plain', data: { seasons: [], images: [], category: undefined } });
    const p = await get(`/public/widget-info?customer_id=${op.customerId}&inventory_id=${plain.id}`);
    expect(p.body).toMatchObject({ startingPrice: null, priceUnit: null, image: null, category: null });
  });

  it('answers 400 without both ids and 404 for hidden, foreign or unknown items', async () => {
    const op = await createOperator();
    const hidden = await makeItem(op, { isPublic: false });
    const boat = await makeItem(op);
    const intruder = await otherOperator();
    expectError(await get('/public/widget-info'), 400, 'validation_failed');
    expectError(await get(`/public/widget-info?customer_id=${op.customerId}`), 400, 'validation_failed');
    expectError(await get(`/public/widget-info?customer_id=${op.customerId}&inventory_id=${hidden.id}`), 404);
    expectError(await get(`/public/widget-info?customer_id=${intruder.customerId}&inventory_id=${boat.id}`), 404);
    expectError(await get(`/public/widget-info?customer_id=${op.customerId}&inventory_id=inv_nope`), 404);
  });
});

describe('public endpoints and credentials', () => {
  it('need none, refuse invalid ones with 401, and answer any valid operator the same public data', async () => {
    const { op, txn, a } = await order();
    const boat = await makeItem(op);
    const cases: [string, string, unknown?][] = [
      ['GET', `/public/order/${txn}`],
      ['GET', `/public/booking?TransactionId=${txn}`],
      ['PATCH', '/public/booking', { rentalId: a.id, data: { 'extendedData.notes': 'hi' } }],
      ['GET', `/public/customer?customer_id=${op.customerId}`],
      ['GET', `/public/widget-info?customer_id=${op.customerId}&inventory_id=${boat.id}`],
    ];
    const intruder = await otherOperator();
    for (const [method, path, body] of cases) {
      expect((await api(method, path, { body })).status, `${method} ${path} anonymous`).toBe(200);
      expectError(await api(method, path, { body, key: 'brk_not_a_real_key_000000000000000000000' }), 401, 'unauthenticated');
      expect((await api(method, path, { body, key: intruder.adminKey })).status, `${method} ${path} by another operator`).toBe(200);
    }
  });
});
