/** Promo codes and gift cards through HTTP: codes, atomic uses under races, bookings, affiliates, online gift cards. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, db, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { newId } from '../../../src/lib/ids';
import { affiliates } from '../../../src/db/schema/affiliates';
import { payments, signWebhookPayload } from '../../../src/adapters/payments';
import { at, book, bookBody, eventsOf, rentalItem } from '../bookings/factories';

const k = (op: Operator) => ({ key: op.adminKey });
const PLATFORM = { headers: { 'x-platform-key': 'test-platform-staff-key-000000000000001' } };
const create = (op: Operator, body: Record<string, unknown>) =>
  post('/promoGiftCards', { customerId: op.customerId, ExpiryDate: '2099-12-31', ...body }, k(op));
const use = (op: Operator, promoCode: string, orderAmount: number) => post('/promoGiftCards/use', { promoCode, customerId: op.customerId, orderAmount }, k(op));

async function affiliate(op: Operator, percentageEarned = 10) {
  const id = newId('aff');
  await db().insert(affiliates).values({ id, customerId: op.customerId, name: 'Ann Affiliate', email: 'ann@aff.test', percentageEarned });
  return id;
}

describe('promo codes', () => {
  it('creates codes with one discount, 409 for a code that exists (case-insensitive), lists, patches and deletes', async () => {
    const op = await createOperator();
    const c = await create(op, { promoCode: 'Summer10', Details: { '%Discount': 10 }, usageLimit: 5, inventoryIds: ['inv_a'] });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({
      promoCode: 'Summer10',
      kind: 'promo',
      usageLimit: 5,
      timesUsed: 0,
      remainingUses: 5,
      ExpiryDate: '2099-12-31T23:59:59.999Z',
      balance: null,
    });
    expectError(await create(op, { promoCode: 'SUMMER10', Details: { $Discount: 5 } }), 409, 'already_exists');
    for (const Details of [{}, { '%Discount': 10, $Discount: 5 }, { '%Discount': 120 }, { '%Discount': 0 }, { $Discount: -3 }])
      expectError(await create(op, { promoCode: `X${Math.random()}`.slice(0, 10), Details }), 400, 'invalid_discount');
    expectError(await create(op, { promoCode: 'AFF', Details: { $Discount: 5 }, affiliateId: 'aff_nope' }), 400, 'invalid_affiliate');
    expectError(await post('/promoGiftCards', { promoCode: 'X' }, k(op)), 400, 'validation_failed');
    const other = await createOperator();
    expectError(await create(op, { promoCode: 'Y', Details: { $Discount: 5 }, customerId: other.customerId }), 403, 'forbidden');
    expect((await create(other, { promoCode: 'summer10', Details: { $Discount: 5 } })).status).toBe(201);

    const list = await get(`/promoGiftCards?customerId=${op.customerId}&promoCode=summer10`, k(op));
    expect(list.body).toMatchObject({ total: 1, data: [{ promoCode: 'Summer10' }] });
    const p = await patch(
      '/promoGiftCards',
      { promoCode: 'summer10', customerId: op.customerId, Updates: { Details: { $Discount: 7.5 }, usageLimit: 9 } },
      k(op),
    );
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ usageLimit: 9, Details: { $Discount: 7.5 } });
    expectError(
      await patch('/promoGiftCards', { promoCode: 'summer10', customerId: op.customerId, Updates: { affiliateId: 'aff_nope' } }, k(op)),
      400,
      'invalid_affiliate',
    );
    expectError(await patch('/promoGiftCards', { promoCode: 'nope', customerId: op.customerId, Updates: { active: false } }, k(op)), 404, 'not_found');
    expectError(await patch('/promoGiftCards', { promoCode: 'summer10', customerId: op.customerId, Updates: {} }, k(op)), 400, 'no_changes');
    const d = await del(`/promoGiftCards?promoCode=SUMMER10&customerId=${op.customerId}`, undefined, k(op));
    expect(d.body).toEqual({ success: true, promoCode: 'Summer10' });
    expectError(await del(`/promoGiftCards?promoCode=SUMMER10&customerId=${op.customerId}`, undefined, k(op)), 404, 'not_found');
  });

  it('uses a code atomically: ten parallel uses of a code limited to three succeed three times', async () => {
    const op = await createOperator();
    await create(op, { promoCode: 'THREE', Details: { '%Discount': 20 }, usageLimit: 3 });
    const rs = await Promise.all(Array.from({ length: 10 }, () => use(op, 'three', 50)));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 400, 'code_not_usable');
    expect(rs.find((r) => r.status === 200)!.body).toMatchObject({ discount: 10, finalAmount: 40, kind: 'promo' });
    const after = await get(`/promoGiftCards?customerId=${op.customerId}&promoCode=THREE`, k(op));
    expect(after.body.data[0]).toMatchObject({ timesUsed: 3, remainingUses: 0 });
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM promo_uses WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(n!.n).toBe(3);
  });

  it('gift cards are a balance ledger: ten parallel uses never spend more than the balance', async () => {
    const op = await createOperator();
    const g = await create(op, { promoCode: 'GIFT-50', Details: { $Discount: 50, type: 'gift_card' } });
    expect(g.body).toMatchObject({ kind: 'gift_card', balance: 50 });
    const rs = await Promise.all(Array.from({ length: 10 }, () => use(op, 'GIFT-50', 12)));
    const spent = rs.filter((r) => r.status === 200).reduce((s, r) => s + r.body.discount, 0);
    expect(spent).toBeLessThanOrEqual(50);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 400, 'code_not_usable');
    const bal = await get(`/promoGiftCards/balance?promoCode=gift-50`, k(op));
    expect(bal.status, bal.text).toBe(200);
    expect(bal.body.balance).toBeCloseTo(50 - spent, 2);
    const sum = bal.body.entries.reduce((s: number, e: any) => s + e.amount, 0);
    expect(sum).toBeCloseTo(bal.body.balance, 2);
    expect(bal.body.balance).toBeGreaterThanOrEqual(0);
    const d = await del(`/promoGiftCards?promoCode=GIFT-50&customerId=${op.customerId}`, undefined, k(op));
    if (bal.body.balance > 0) expectError(d, 400, 'bad_request');
    else expect(d.status).toBe(200);
  });

  it('refuses expired and inactive codes with the reason for the operator', async () => {
    const op = await createOperator();
    await create(op, { promoCode: 'OLD', Details: { $Discount: 5 }, ExpiryDate: '2020-01-01' });
    const r = await use(op, 'OLD', 20);
    expectError(r, 400, 'code_not_usable');
    expect(r.body.message).toMatch(/expired/);
    expectError(await use(op, 'NOPE', 20), 404, 'not_found');
    expectError(await get('/promoGiftCards/balance?promoCode=NOPE', k(op)), 404, 'not_found');
  });

  it('records affiliate commission on use and answers the affiliate analytics', async () => {
    const op = await createOperator();
    const aff = await affiliate(op, 10);
    await create(op, { promoCode: 'ANN', Details: { '%Discount': 10 }, affiliateId: aff });
    await use(op, 'ANN', 100);
    await use(op, 'ANN', 55.5);
    const s = await get(`/promoGiftCards/affiliate/${aff}?customerId=${op.customerId}`, k(op));
    expect(s.status, s.text).toBe(200);
    // revenue after discount: 90 + 49.95 = 139.95; commission 10%: 9 + 5.00 (4.995 -> 5.00 rounded per use)
    expect(s.body).toMatchObject({ uses: 2, revenue: 139.95, discounts: 15.55, commission: 14, percentageEarned: 10 });
    expectError(await get(`/promoGiftCards/affiliate/aff_nope?customerId=${op.customerId}`, k(op)), 400, 'invalid_affiliate');
  });

  it("search is for Berth's platform staff only, across operators", async () => {
    const a = await createOperator();
    const b = await createOperator();
    await create(a, { promoCode: 'SHARED-CODE', Details: { $Discount: 1 } });
    await create(b, { promoCode: 'shared-code', Details: { $Discount: 2 } });
    expectError(await get('/promoGiftCards/search?promoCode=shared-code', k(a)), 403, 'forbidden');
    expectError(await get('/promoGiftCards/search', k(a)), 400, 'validation_failed');
    expectError(await get('/promoGiftCards/search', PLATFORM), 400, 'validation_failed');
    expectError(await get('/promoGiftCards/search?promoCode=x'), 401, 'unauthenticated');
    expectError(
      await get('/promoGiftCards/search?promoCode=x', { headers: { 'x-platform-key': 'wrong-key-0000000000000000000000000' } }),
      401,
      'unauthenticated',
    );
    const r = await get('/promoGiftCards/search?promoCode=SHARED-CODE', PLATFORM);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((c: any) => c.customerId).sort()).toEqual([a.customerId, b.customerId].sort());
    expectError(await get(`/promoGiftCards?customerId=${a.customerId}`, PLATFORM), 403, 'no_account');
  });

  it('POST /coreBooking/book counts a code with its usage limit and gives the use back when the booking is cancelled', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    await create(op, { promoCode: 'ONCE', Details: { '%Discount': 25 }, usageLimit: 1 });
    const body = (day: number) => ({
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00') }),
      discountDetails: { promoCode: 'once' },
    });
    const first = await book(op, body(3));
    expect(first.status, first.text).toBe(201);
    expect(first.body.order).toMatchObject({ subtotal: 200, discountTotal: 50, total: 150 });
    expect(first.body.promoCode).toBe('ONCE');
    expectError(await book(op, body(4)), 400, 'invalid_promo_code');
    const cancel = await post(`/coreBooking/${first.body.rentalId}/cancel`, {}, k(op));
    expect(cancel.status, cancel.text).toBe(200);
    const again = await book(op, body(5));
    expect(again.status, again.text).toBe(201);
    const uses = await env.DB.prepare('SELECT status FROM promo_uses WHERE customer_id = ? ORDER BY created_at').bind(op.customerId).all<{ status: string }>();
    expect(uses.results.map((u) => u.status)).toEqual(['released', 'active']);
  });

  it('parallel bookings with a code limited to two: exactly two bookings get it', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 10 });
    await create(op, { promoCode: 'TWO', Details: { $Discount: 10 }, usageLimit: 2 });
    const rs = await Promise.all(
      Array.from({ length: 6 }, () =>
        book(op, {
          ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 6, '10:00'), endTime: at(op.timezone, 6, '12:00') }),
          discountDetails: { promoCode: 'TWO' },
        }),
      ),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 400, 'invalid_promo_code');
    const pay = await eventsOf(op.customerId, 'payment.refunded');
    expect(pay).toHaveLength(0);
  });
});

describe('gift cards bought online', () => {
  const intent = (op: Operator, extra: Record<string, unknown> = {}) =>
    post('/public/gift-card/create-payment-intent', {
      amount: 52,
      giftCardAmount: 50,
      customerId: op.customerId,
      giftCardCode: `GC-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
      recipientEmail: 'friend@example.test',
      ...extra,
    });
  const webhook = async (pi: string, secret = 'whsec_test_0000000000000000000000000001') => {
    const body = JSON.stringify({
      id: `evt_${pi}`,
      type: 'payment_intent.succeeded',
      data: { object: { id: pi, object: 'payment_intent', metadata: { kind: 'gift_card' } } },
    });
    return api('POST', '/public/gift-card/webhook', {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'stripe-signature': await signWebhookPayload(body, secret) },
    });
  };

  it('confirm-payment issues the card once per payment intent; a replay and the webhook answer the same card', async () => {
    const op = await createOperator();
    const i = await intent(op, { paymentMethodId: 'pm_card_visa' });
    expect(i.status, i.text).toBe(200);
    expect(i.body).toMatchObject({ status: 'succeeded', amount: 52, giftCardAmount: 50 });
    const c = await post('/public/gift-card/confirm-payment', { paymentIntentId: i.body.paymentIntentId });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ created: true, amountCharged: 52, giftCard: { kind: 'gift_card', balance: 50, promoCode: i.body.giftCardCode } });
    const again = await post('/public/gift-card/confirm-payment', { paymentIntentId: i.body.paymentIntentId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, giftCard: { promoCode: i.body.giftCardCode } });
    const w = await webhook(i.body.paymentIntentId);
    expect(w.body).toMatchObject({ received: true, handled: true, created: false });
    const cards = await env.DB.prepare('SELECT COUNT(*) AS n FROM promo_codes WHERE payment_intent_id = ?').bind(i.body.paymentIntentId).first<{ n: number }>();
    expect(cards!.n).toBe(1);
    const ev = await eventsOf(op.customerId, 'payment.completed');
    expect(ev.filter((e) => e.payload.data.kind === 'gift_card')).toHaveLength(1);
    expectError(await intent(op, { giftCardCode: i.body.giftCardCode }), 400, 'gift_card_code_taken');
  });

  it('the webhook issues the card when it comes first (signature checked); racing confirms create one card', async () => {
    const op = await createOperator();
    const i = await intent(op);
    expect(i.body.status).toBe('requires_payment_method');
    expectError(await post('/public/gift-card/confirm-payment', { paymentIntentId: i.body.paymentIntentId }), 400, 'payment_not_completed');
    await payments(env).confirmPaymentIntent(i.body.paymentIntentId, 'pm_card_visa');
    expectError(await webhook(i.body.paymentIntentId, 'whsec_wrong_secret_000000000000000000'), 400, 'invalid_signature');
    expectError(await api('POST', '/public/gift-card/webhook', { rawBody: '{}', headers: { 'content-type': 'application/json' } }), 400, 'invalid_signature');
    const rs = await Promise.all([
      webhook(i.body.paymentIntentId),
      ...Array.from({ length: 4 }, () => post('/public/gift-card/confirm-payment', { paymentIntentId: i.body.paymentIntentId })),
    ]);
    for (const r of rs) expect(r.status, r.text).toBeLessThan(300);
    const cards = await env.DB.prepare('SELECT COUNT(*) AS n FROM promo_codes WHERE payment_intent_id = ?').bind(i.body.paymentIntentId).first<{ n: number }>();
    expect(cards!.n).toBe(1);
    expect((await eventsOf(op.customerId, 'payment.completed')).filter((e) => e.payload.data.kind === 'gift_card')).toHaveLength(1);
  });

  it('answers 409 and refunds when the code was taken before the confirmation', async () => {
    const op = await createOperator();
    const i = await intent(op, { paymentMethodId: 'pm_card_visa' });
    await create(op, { promoCode: i.body.giftCardCode, Details: { $Discount: 5 } });
    expectError(await post('/public/gift-card/confirm-payment', { paymentIntentId: i.body.paymentIntentId }), 409, 'already_exists');
    const refunded = await eventsOf(op.customerId, 'payment.refunded');
    expect(refunded.map((e) => e.payload.data.kind)).toEqual(['gift_card']);
    expectError(await post('/public/gift-card/confirm-payment', { paymentIntentId: 'pi_nope' }), 404, 'not_found');
  });

  it('send-email queues the gift e-mail; charge-saved-card buys a card with a generated code', async () => {
    const op = await createOperator();
    const s = await post('/public/gift-card/charge-saved-card', {
      paymentMethodId: 'pm_card_visa',
      amount: 30,
      customerId: op.customerId,
      metadata: { recipientEmail: 'kid@example.test', giftCardAmount: 25 },
    });
    expect(s.status, s.text).toBe(200);
    const code: string = s.body.giftCard.promoCode;
    expect(code.replace(/-/g, '')).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{16}$/);
    expect(s.body).toMatchObject({ amountCharged: 30, giftCard: { balance: 25, recipientEmail: 'kid@example.test' } });
    const m = await post('/public/gift-card/send-email', {
      giftCardCode: code,
      giftCardAmount: 25,
      recipientEmail: 'kid@example.test',
      customerId: op.customerId,
      message: 'Happy birthday',
    });
    expect(m.status, m.text).toBe(200);
    const out = await env.DB.prepare('SELECT body FROM message_outbox WHERE id = ?').bind(m.body.messageId).first<{ body: string }>();
    expect(out!.body).toContain(code);
    expectError(
      await post('/public/gift-card/send-email', { giftCardCode: code, giftCardAmount: 25, recipientEmail: 'nope', customerId: op.customerId }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/public/gift-card/send-email', { giftCardCode: code, giftCardAmount: 99, recipientEmail: 'a@b.test', customerId: op.customerId }),
      400,
    );
    expectError(
      await post('/public/gift-card/charge-saved-card', { paymentMethodId: 'pm_card_chargeDeclined', amount: 30, customerId: op.customerId }),
      402,
      'payment_failed',
    );
    expectError(await post('/public/gift-card/charge-saved-card', { paymentMethodId: 'pm_card_visa', amount: 30, customerId: 'cus_nope' }), 400);
  });
});

describe('promo security', () => {
  it('every operator route refuses anonymous callers and foreign customerIds', async () => {
    const op = await createOperator();
    await create(op, { promoCode: 'SEC', Details: { $Discount: 1 } });
    const aff = await affiliate(op);
    const C = op.customerId;
    const cases = [
      { method: 'GET', path: `/promoGiftCards?customerId=${C}`, otherStatus: 403 as const },
      {
        method: 'POST',
        path: '/promoGiftCards',
        body: { promoCode: 'NEW1', customerId: C, ExpiryDate: '2099-01-01', Details: { $Discount: 1 } },
        otherStatus: 403 as const,
      },
      { method: 'PATCH', path: '/promoGiftCards', body: { promoCode: 'SEC', customerId: C, Updates: { active: false } }, otherStatus: 403 as const },
      { method: 'DELETE', path: `/promoGiftCards?promoCode=SEC&customerId=${C}`, otherStatus: 403 as const },
      { method: 'GET', path: '/promoGiftCards/search?promoCode=SEC', otherStatus: 403 as const },
      { method: 'GET', path: `/promoGiftCards/balance?promoCode=SEC`, otherStatus: 404 as const },
      { method: 'POST', path: '/promoGiftCards/use', body: { promoCode: 'SEC', customerId: C, orderAmount: 10 }, otherStatus: 403 as const },
      { method: 'GET', path: `/promoGiftCards/affiliate/${aff}?customerId=${C}`, otherStatus: 403 as const },
    ];
    for (const c of cases) await checkSecurity(op, c);
    const staff = await op.addUser({ role: 'staff' });
    expectError(
      await post('/promoGiftCards', { promoCode: 'STAFF', customerId: C, ExpiryDate: '2099-01-01', Details: { $Discount: 1 } }, { key: staff.key }),
      403,
      'forbidden',
    );
  });
});
