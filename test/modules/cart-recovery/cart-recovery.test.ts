/** Cart recovery: public capture (throttled), the processor's one e-mail with a tracking link, recovery and analytics. */
import { describe, it, expect } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { advanceClock, api, appHooks, BASE, createOperator, del, expectError, get, patch, post, runCron, type Operator } from '../../harness';
import { fixedClock, withClock } from '../../../src/lib/clock';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { systemCtx } from '../../../src/lib/context';
import { nextCartDue, processCartRecovery } from '../../../src/modules/cart-recovery/service';
import { checkSecurity } from '../../security';
import { at, book, bookBody, rentalItem } from '../bookings/factories';
import { messagesOf } from '../communications/helpers';

const MIN = 60_000;
let ipSeq = 0;
const newIp = () => `198.51.100.${++ipSeq}`;
const cartId = () => crypto.randomUUID();

/** POST /public/cartRecovery as the widget (anonymous) from one client IP. */
const capture = (body: Record<string, unknown>, ip = newIp(), key?: string) =>
  api('POST', '/public/cartRecovery', { body, key, headers: { 'cf-connecting-ip': ip } });

const row = (id: string) => env.DB.prepare('SELECT * FROM cart_recovery_items WHERE id = ?').bind(id).first<any>();

describe('cart recovery flow', () => {
  it('from public capture to recovered: one e-mail with a tracking link, then the booking', async () => {
    // On a test clock: the e-mail goes at the contact time, and the booking comes after it.
    const op = await createOperator({ clockAt: Date.now() });
    const item = await rentalItem(op);
    expect(
      (await patch('/location', { locationId: op.locationId, details: { bookingUrl: 'https://book.example.com/widget' } }, { key: op.adminKey })).status,
    ).toBe(200);
    const id = cartId();
    const email = `cart-${id.slice(0, 8)}@renter.test`;
    const startTime = at(op.timezone, 5, '10:00');
    const endTime = at(op.timezone, 5, '12:00');
    const created = await capture({
      id,
      email: email.toUpperCase(),
      locationId: op.locationId,
      firstName: 'Cara',
      bookingInfo: { inventoryId: item.id, startTime, endTime, quantity: 1 },
      cartData: { step: 'payment' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ id, email, status: 'active', customerId: op.customerId, cartData: { step: 'payment' } });
    expect(created.body.contactOn).toBeUndefined(); // not in the public view
    expect((await get(`/public/cartRecovery/${id}`)).body).toEqual(created.body);
    expect((await get('/communication/cartRecovery/items-needing-contact', { key: op.adminKey })).body.total).toBe(0);
    const contactOn = Date.parse((await row(id)).contact_on);
    expect(contactOn - Date.now()).toBeGreaterThan(55 * MIN);

    // The processor at the contact-on time e-mails it once, even when run twice at once (as the job runs for the
    // operator at that instant); the clock's advance past it finds nothing more to send.
    expect(await nextCartDue(systemCtx(env, { customerId: op.customerId, clock: fixedClock(Date.now(), op.clockId!) }))).toBe(contactOn);
    const job = systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(contactOn + MIN, op.clockId!) });
    await withClock(job.clock, () => Promise.all([processCartRecovery(job), processCartRecovery(job)]));
    expect((await advanceClock(op.clockId!, contactOn + 10 * MIN, op.adminKey)).status).toBe('ready');
    const mails = await messagesOf(op.customerId, 'cart_recovery');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email, status: 'sent' });
    expect(mails[0].body).toContain('Hello Cara,');
    expect(mails[0].body).toContain('Pontoon 22');
    // The wanted start in the location's time, never an ISO timestamp.
    expect(mails[0].body).toMatch(/, 10:00 E[SD]T/);
    expect(`${mails[0].subject} ${mails[0].body}`).not.toMatch(ISO_TIMESTAMP);
    const stored = await row(id);
    expect(stored.contacted_at).not.toBeNull();
    expect(stored.contact_message_id).toBe(mails[0].id);
    expect(mails[0].body).toContain(`http://127.0.0.1:8787/s/${stored.short_code}`);

    // The tracking link leads to the location's booking page with the cart id, counting the click.
    const hop = await SELF.fetch(`${BASE}/s/${stored.short_code}`, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe(`https://book.example.com/widget?cartRecoveryId=${id}`);
    expect((await get(`/communication/short-code/${stored.short_code}`, { key: op.adminKey })).body.clicks).toBe(1);

    // The person books, and the widget completes the cart with the order.
    const b = await book(op, bookBody({ inventoryId: item.id, startTime, endTime, email }));
    expect(b.status, b.text).toBe(201);
    const done = await del(`/public/cartRecovery/${id}?transactionId=${b.body.transactionId}`);
    expect(done.body).toEqual({ success: true, id, status: 'completed' });
    const totalCents = Number(
      (await env.DB.prepare('SELECT SUM(total) AS t FROM bookings WHERE transaction_id = ?').bind(b.body.transactionId).first<any>()).t,
    );
    expect(totalCents).toBeGreaterThan(0);

    const stats = await get(`/communication/cartRecovery/${op.locationId}?includeContacted=true`, { key: op.adminKey });
    expect(stats.body.data).toHaveLength(0); // no longer active
    expect(stats.body.statistics).toMatchObject({ total: 1, completed: 1, contacted: 1, recovered: 1, recoveryRate: 100, recoveredRevenue: totalCents / 100 });
    const a = await get(`/public/cartRecovery/analytics/${op.locationId}`);
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      abandoned: 1,
      contacted: 1,
      recovered: 1,
      recoveryRate: 100,
      recoveredRevenueCents: totalCents,
      recoveredRevenue: totalCents / 100,
      currency: 'usd',
    });
    const past = await get(`/public/cartRecovery/analytics/${op.locationId}?startDate=2020-01-01&endDate=2020-01-31`);
    expect(past.body).toMatchObject({ abandoned: 0, contacted: 0, recovered: 0, recoveryRate: 0, startDate: '2020-01-01', endDate: '2020-01-31' });
    expectError(await get(`/public/cartRecovery/analytics/${op.locationId}?startDate=2020-02-30`), 400, 'validation_failed');
    expect((await get('/public/cartRecovery/analytics/loc_unknown')).body).toMatchObject({ abandoned: 0, recovered: 0 });
  });

  it("without a booking page of the location's own, the e-mailed link opens Berth's widget with the cart", async () => {
    const op = await createOperator({ clockAt: Date.now() });
    const item = await rentalItem(op);
    const id = cartId();
    const startTime = at(op.timezone, 6, '10:00');
    const created = await capture({
      id,
      email: `cart-${id.slice(0, 8)}@renter.test`,
      locationId: op.locationId,
      bookingInfo: { inventoryId: item.id, startTime, endTime: at(op.timezone, 6, '12:00'), quantity: 1 },
      cartData: { address: `?step=extras&item=${item.id}` },
    });
    expect(created.status, created.text).toBe(200);
    const contactOn = Date.parse((await row(id)).contact_on);
    const job = systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(contactOn + MIN, op.clockId!) });
    await withClock(job.clock, () => processCartRecovery(job));
    const stored = await row(id);
    expect(stored.short_code).toBeTruthy();
    const hop = await SELF.fetch(`${BASE}/s/${stored.short_code}`, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    const to = new URL(hop.headers.get('location')!);
    expect(to.pathname).toBe('/widget');
    expect(Object.fromEntries(to.searchParams)).toEqual({ customer: op.customerId, location: op.locationId, cartRecoveryId: id });
    // The widget reads the cart back from there (and the page it opens is the widget's).
    expect((await get(`/public/cartRecovery/${id}`)).body).toMatchObject({ status: 'active', cartData: { address: `?step=extras&item=${item.id}` } });
    const page = await SELF.fetch(`${BASE}${to.pathname}${to.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/static/widget/app.js');
  });

  it('the processor completes carts whose booking was made and expires carts whose slot is gone', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const startTime = at(op.timezone, 6, '10:00');
    const endTime = at(op.timezone, 6, '12:00');
    const booked = { id: cartId(), email: `booked-${Date.now()}@renter.test` };
    const taken = { id: cartId(), email: `taken-${Date.now()}@renter.test` };
    const passed = { id: cartId(), email: `passed-${Date.now()}@renter.test` };
    await capture({ ...booked, locationId: op.locationId });
    await capture({ ...taken, locationId: op.locationId, bookingInfo: { inventoryId: item.id, startTime, endTime } });
    await capture({ ...passed, locationId: op.locationId, bookingInfo: { startTime: new Date(Date.now() + 30 * MIN).toISOString() } });
    // The first person books by themselves; someone else takes the only boat the second wanted.
    expect(
      (await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 7, '10:00'), endTime: at(op.timezone, 7, '12:00'), email: booked.email })))
        .status,
    ).toBe(201);
    expect((await book(op, bookBody({ inventoryId: item.id, startTime, endTime }))).status).toBe(201);

    await runCron('*/5 * * * *', new Date(Date.now() + 61 * MIN));
    expect(await row(booked.id)).toMatchObject({ status: 'completed', contacted_at: null });
    expect((await row(booked.id)).revenue).toBeGreaterThan(0);
    expect(await row(taken.id)).toMatchObject({ status: 'expired', contacted_at: null });
    expect((await row(taken.id)).status_reason).toMatch(/^slot_unavailable/);
    expect(await row(passed.id)).toMatchObject({ status: 'expired' });
    expect((await row(passed.id)).status_reason).toMatch(/^slot_passed/);
    expect(await messagesOf(op.customerId, 'cart_recovery')).toHaveLength(0);
    // Completed before any contact: not abandoned, not recovered.
    expect((await get(`/public/cartRecovery/analytics/${op.locationId}`)).body).toMatchObject({ abandoned: 2, contacted: 0, recovered: 0 });
  });
});

describe('public capture', () => {
  it('validates input and ownership', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const base = { id: cartId(), email: 'v@renter.test', locationId: op.locationId };
    expectError(await capture({ ...base, email: 'not-an-email' }), 400, 'validation_failed');
    expectError(await capture({ ...base, id: 'short' }), 400, 'validation_failed');
    expectError(await capture({ email: 'v@renter.test' }), 400, 'validation_failed');
    expectError(await capture({ ...base, locationId: 'loc_unknown' }), 404, 'not_found');
    expectError(await capture({ ...base, customerId: other.customerId }), 404, 'not_found'); // location not of that operator
    expectError(await capture({ ...base, customerId: other.customerId }, newIp(), op.adminKey), 403, 'forbidden');
    expectError(await capture(base, newIp(), 'brk_not_a_real_key_000000000000000000000'), 401, 'unauthenticated');
    expect((await capture(base, newIp(), op.adminKey)).status).toBe(200);
    // The same id updates the cart; from another location it is refused.
    const again = await capture({ ...base, firstName: 'Vera', cartData: { step: 2 } });
    expect(again.body).toMatchObject({ id: base.id, firstName: 'Vera', cartData: { step: 2 } });
    expectError(await capture({ ...base, locationId: other.locationId }), 409, 'already_exists');
    expectError(await get('/public/cartRecovery/unknown_cart_id_0000'), 404, 'not_found');
    // Completing an unknown id answers the same as a known one.
    expect((await del('/public/cartRecovery/unknown_cart_id_0000')).body).toEqual({ success: true, id: 'unknown_cart_id_0000', status: 'completed' });
  });

  it('is throttled per IP (429) and per address (silently: no e-mail, same answer)', async () => {
    const op = await createOperator();
    const ip = newIp();
    let last;
    for (let i = 0; i < 20; i++) {
      last = await capture({ id: cartId(), email: `ip${i}-${Date.now()}@renter.test`, locationId: op.locationId }, ip);
      expect(last.status).toBe(200);
    }
    const over = await capture({ id: cartId(), email: 'ip-over@renter.test', locationId: op.locationId }, ip);
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const email = `same-${Date.now()}@renter.test`;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await capture({ id: cartId(), email, locationId: op.locationId }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => Object.keys(a.body).sort().join()))).toHaveProperty('size', 1);
    const rows = await Promise.all(answers.map((a) => row(a.body.id)));
    expect(rows.filter((r) => r.contact_on !== null)).toHaveLength(5);
    // The widget re-posting one cart (same address) does not use the address budget.
    const keep = { id: cartId(), email: `keep-${Date.now()}@renter.test`, locationId: op.locationId };
    const ip2 = newIp();
    for (let i = 0; i < 8; i++) expect((await capture({ ...keep, cartData: { step: i } }, ip2)).status).toBe(200);
    expect(await row(keep.id)).toMatchObject({ status_reason: null, cart_data: JSON.stringify({ step: 7 }) });
    expect((await row(keep.id)).contact_on).not.toBeNull();
    await runCron('*/5 * * * *', new Date(Date.now() + 61 * MIN));
    expect((await messagesOf(op.customerId, 'cart_recovery')).filter((m) => m.to === email)).toHaveLength(5);
  });
});

describe('operator endpoints', () => {
  async function carts(op: Operator, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = cartId();
      expect((await capture({ id, email: `op${i}-${id.slice(0, 6)}@renter.test`, locationId: op.locationId })).status).toBe(200);
      ids.push(id);
    }
    return ids;
  }

  it('list, contact, needing contact, statistics and delete', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const [a, b, c] = await carts(op, 3);
    const list = await get(`/cartRecovery/${op.locationId}`, { key: op.adminKey });
    expect(list.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(list.body.data[0]).toHaveProperty('contactOn');
    expectError(await get(`/cartRecovery/${op.locationId}`, { key: other.adminKey }), 404);

    await env.DB.prepare('UPDATE cart_recovery_items SET contact_on = ? WHERE id IN (?, ?)')
      .bind(new Date(Date.now() - MIN).toISOString(), a, b)
      .run();
    const needing = await get('/communication/cartRecovery/items-needing-contact', { key: op.adminKey });
    expect(needing.body.data.map((x: any) => x.id).sort()).toEqual([a, b].sort());
    expect((await get('/communication/cartRecovery/items-needing-contact', { key: other.adminKey })).body.total).toBe(0);

    const contacted = await post(`/communication/cartRecovery/${a}/contact`, {}, { key: op.adminKey });
    expect(contacted.status, contacted.text).toBe(200);
    expect(Date.now() - Date.parse(contacted.body.contactedAt)).toBeLessThan(10_000);
    expectError(await post(`/communication/cartRecovery/${a}/contact`, {}, { key: other.adminKey }), 404);
    expect((await get('/communication/cartRecovery/items-needing-contact', { key: op.adminKey })).body.data.map((x: any) => x.id)).toEqual([b]);

    const plain = await get(`/communication/cartRecovery/${op.locationId}`, { key: op.adminKey });
    expect(plain.body.data.map((x: any) => x.id).sort()).toEqual([b, c].sort());
    expect(plain.body.statistics).toMatchObject({ total: 3, active: 3, contacted: 1, needingContact: 1, recovered: 0, recoveryRate: 0 });
    expect((await get(`/communication/cartRecovery/${op.locationId}?includeContacted=true`, { key: op.adminKey })).body.total).toBe(3);
    expectError(await get(`/communication/cartRecovery/${op.locationId}?includeContacted=maybe`, { key: op.adminKey }), 400);

    // DELETE /cartRecovery/{id} is owner only: 403 for another operator, 404 unknown.
    expectError(await del(`/cartRecovery/${b}`, undefined, { key: other.adminKey }), 403, 'forbidden');
    expectError(await del('/cartRecovery/unknown_cart_id_0000', undefined, { key: op.adminKey }), 404);
    expect((await del(`/cartRecovery/${b}`, undefined, { key: op.adminKey })).body).toEqual({ success: true, id: b });
    expectError(await del(`/communication/cartRecovery/${c}`, undefined, { key: other.adminKey }), 404);
    expect((await del(`/communication/cartRecovery/${c}`, undefined, { key: op.adminKey })).body).toEqual({ success: true, id: c });
    expect((await get(`/cartRecovery/${op.locationId}`, { key: op.adminKey })).body.total).toBe(1);
  });

  it('send-cart-recovery-email sends a tracked link on demand', async () => {
    const op = await createOperator();
    const [id] = await carts(op, 1);
    const r = await post(
      '/communication/send-cart-recovery-email',
      {
        to: 'Back@Renter.test',
        recoveryUrl: 'https://book.example.com/resume?c=1',
        firstName: 'Bea',
        customMessage: 'Use code BACK10 for 10% off.',
        bookingInfo: { itemName: 'Sunset cruise' },
        locationId: op.locationId,
        cartRecoveryId: id,
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, status: 'sent', to: 'back@renter.test', channel: 'email' });
    expect(r.body.shortUrl).toBe(`http://berth.test/s/${r.body.code}`);
    const [m] = await messagesOf(op.customerId, 'cart_recovery');
    expect(m.body).toContain('Hello Bea,');
    expect(m.body).toContain('Sunset cruise');
    expect(m.body).toContain('Use code BACK10 for 10% off.');
    expect(m.body).toContain(r.body.shortUrl);
    expect(m.html).toContain(`href="${r.body.shortUrl}"`);
    expect(await row(id)).toMatchObject({ contact_message_id: m.id, short_code: r.body.code });
    const hop = await SELF.fetch(`${BASE}/s/${r.body.code}`, { redirect: 'manual' });
    expect(hop.headers.get('location')).toBe('https://book.example.com/resume?c=1');

    const body = { to: 'a@renter.test', recoveryUrl: 'https://book.example.com' };
    expectError(await post('/communication/send-cart-recovery-email', { ...body, to: 'nope' }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/communication/send-cart-recovery-email', { ...body, recoveryUrl: 'javascript:alert(1)' }, { key: op.adminKey }), 400);
    const other = await createOperator();
    expectError(await post('/communication/send-cart-recovery-email', { ...body, cartRecoveryId: id }, { key: other.adminKey }), 404);
    await checkSecurity(op, { method: 'POST', path: '/communication/send-cart-recovery-email', body });
  });

  it('every operator route has the shared security checks', async () => {
    const op = await createOperator();
    const [id] = await carts(op, 1);
    await checkSecurity(op, { method: 'GET', path: `/cartRecovery/${op.locationId}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: '/communication/cartRecovery/items-needing-contact' });
    await checkSecurity(op, { method: 'GET', path: `/communication/cartRecovery/${op.locationId}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: `/communication/cartRecovery/${id}/contact`, body: {}, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/communication/cartRecovery/${id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/cartRecovery/${id}`, otherStatus: 403 });
    // Public routes: anonymous works, invalid credentials are refused.
    const bad = { key: 'brk_not_a_real_key_000000000000000000000' };
    expectError(await get(`/public/cartRecovery/${id}`, bad), 401);
    expectError(await get(`/public/cartRecovery/analytics/${op.locationId}`, bad), 401);
    expectError(await del(`/public/cartRecovery/${id}`, undefined, bad), 401);
    expect((await get(`/public/cartRecovery/${id}`)).status).toBe(200);
  });
});
