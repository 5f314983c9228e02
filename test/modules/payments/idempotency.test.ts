/**
 * The shared Idempotency-Key middleware on every operation that creates a booking or moves money:
 * ten parallel requests with one key make one effect, a replay is byte-identical, a changed body is 422.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, post, type ApiResult, type Operator } from '../../harness';
import { payments } from '../../../src/adapters/payments';
import { at, bookBody, rentalItem } from '../bookings/factories';

let seq = 0;
const count = async (sql: string, ...args: unknown[]) =>
  Number(
    (
      await env.DB.prepare(sql)
        .bind(...args)
        .first<{ n: number }>()
    )?.n ?? 0,
  );

/** Ten parallel calls with one key, then a replay and a changed body with the same key. */
async function idempotent(
  send: (body: Record<string, unknown>, headers: Record<string, string>) => Promise<ApiResult>,
  body: Record<string, unknown>,
  changed: Record<string, unknown>,
) {
  const key = `idem-${Date.now()}-${++seq}`;
  const rs = await Promise.all(Array.from({ length: 10 }, () => send(body, { 'Idempotency-Key': key })));
  const first = rs.filter((r) => r.headers.get('idempotent-replayed') === 'false');
  expect(first, rs.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join('\n')).toHaveLength(1);
  expect(first[0].status, first[0].text).toBeLessThan(300);
  for (const r of rs) if (r !== first[0]) expect(r.status === 409 ? r.body.error : r.headers.get('idempotent-replayed')).toMatch(/request_in_progress|true/);
  const replay = await send(body, { 'Idempotency-Key': key });
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.status).toBe(first[0].status);
  expect(replay.text).toBe(first[0].text);
  expectError(await send(changed, { 'Idempotency-Key': key }), 422, 'idempotency_key_reuse');
  return first[0];
}

const as = (op: Operator | null, method: string, path: string) => (body: Record<string, unknown>, headers: Record<string, string>) =>
  api(method, path, { body, headers, key: op?.adminKey });

describe('Idempotency-Key', () => {
  it('POST /coreBooking/book: one booking', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 5 });
    const body = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') });
    await idempotent(as(op, 'POST', '/coreBooking/book'), body, { ...body, rentalPricing: { total: 200 } });
    expect(await count('SELECT COUNT(*) AS n FROM bookings WHERE customer_id = ?', op.customerId)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM webhook_events WHERE customer_id = ? AND type = 'payment.completed'", op.customerId)).toBe(1);
    // Without a key two calls make two bookings (the key is what makes a retry safe).
    const again = await post('/coreBooking/book', body, { key: op.adminKey });
    expect(again.status).toBe(201);
  });

  it('deposits: authorize and capture once', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const bk = await post(
      '/coreBooking/book',
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') }),
      { key: op.adminKey },
    );
    const auth = { rentalId: bk.body.rentalId, authorizeAmount: 100, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa' };
    const a = await idempotent(as(op, 'POST', '/preAuth/authorize-deposit'), auth, { ...auth, authorizeAmount: 101 });
    expect(await count('SELECT COUNT(*) AS n FROM deposits WHERE customer_id = ?', op.customerId)).toBe(1);
    const cap = { rentalId: bk.body.rentalId, paymentIntentId: a.body.paymentIntentId, captureAmount: 40 };
    await idempotent(as(op, 'POST', '/preAuth/capture-deposit'), cap, { ...cap, captureAmount: 41 });
    expect(await count("SELECT COUNT(*) AS n FROM ledger_entries WHERE customer_id = ? AND entry_type = 'deposit_capture'", op.customerId)).toBe(1);
  });

  it('point of sale: a sale, a refund, a saved-card charge and terminal intents once', async () => {
    const op = await createOperator();
    const item = await post(
      '/pos/inventory',
      { locationId: op.locationId, name: 'Rope', variants: [{ name: 'Default', price: 10, quantity: 100 }] },
      { key: op.adminKey },
    );
    const sale = {
      locationId: op.locationId,
      userId: op.adminId,
      items: [{ itemId: item.body.itemId, quantity: 2 }],
      paymentType: 'card',
      paymentMethodId: 'pm_card_visa',
    };
    const s = await idempotent(as(op, 'POST', '/pos/transaction'), sale, { ...sale, items: [{ itemId: item.body.itemId, quantity: 3 }] });
    expect(await count('SELECT COUNT(*) AS n FROM pos_transactions WHERE customer_id = ?', op.customerId)).toBe(1);
    const refund = { transactionId: s.body.transactionId, refundType: 'partial', amount: 5 };
    await idempotent(as(op, 'POST', '/pos/transaction/refund'), refund, { ...refund, amount: 6 });
    expect(await count('SELECT COUNT(*) AS n FROM pos_refunds WHERE customer_id = ?', op.customerId)).toBe(1);
    const cust = await payments(env).createCustomer({ email: 'x@example.test' });
    const charge = { amount: 700, stripe_customer_id: cust.id, payment_method: 'pm_card_visa' };
    await idempotent(as(op, 'POST', '/pos/charge_customer'), charge, { ...charge, amount: 701 });
    expect(
      await count("SELECT COUNT(*) AS n FROM webhook_events WHERE customer_id = ? AND json_extract(payload, '$.data.kind') = 'pos_charge'", op.customerId),
    ).toBe(1);
    await idempotent(as(op, 'POST', '/pos/create_payment'), { amount: 900 }, { amount: 901 });
    await idempotent(as(op, 'POST', '/pos/create_payment_intent'), { amount: 800 }, { amount: 801 });
    expect(
      await count("SELECT COUNT(*) AS n FROM sim_payment_intents WHERE json_extract(metadata, '$.customerId') = ? AND amount IN (800, 900)", op.customerId),
    ).toBe(2);
  });

  it('gift cards: use, online purchase, confirmation and saved-card purchase once', async () => {
    const op = await createOperator();
    await post(
      '/promoGiftCards',
      { promoCode: 'IDEM-GC', customerId: op.customerId, ExpiryDate: '2099-01-01', Details: { $Discount: 100, type: 'gift_card' } },
      { key: op.adminKey },
    );
    const u = { promoCode: 'IDEM-GC', customerId: op.customerId, orderAmount: 10 };
    await idempotent(as(op, 'POST', '/promoGiftCards/use'), u, { ...u, orderAmount: 11 });
    expect(await count('SELECT COUNT(*) AS n FROM promo_uses WHERE customer_id = ?', op.customerId)).toBe(1);
    const buy = { amount: 25, customerId: op.customerId, giftCardCode: 'IDEM-BUY-1', paymentMethodId: 'pm_card_visa' };
    const i = await idempotent(as(null, 'POST', '/public/gift-card/create-payment-intent'), buy, { ...buy, amount: 26 });
    expect(await count('SELECT COUNT(*) AS n FROM gift_card_purchases WHERE customer_id = ?', op.customerId)).toBe(1);
    const confirm = { paymentIntentId: i.body.paymentIntentId };
    await idempotent(as(null, 'POST', '/public/gift-card/confirm-payment'), confirm, { paymentIntentId: 'pi_other' });
    const saved = { paymentMethodId: 'pm_card_visa', amount: 15, customerId: op.customerId };
    await idempotent(as(null, 'POST', '/public/gift-card/charge-saved-card'), saved, { ...saved, amount: 16 });
    expect(await count("SELECT COUNT(*) AS n FROM promo_codes WHERE customer_id = ? AND kind = 'gift_card'", op.customerId)).toBe(3);
  });

  it('protection plan purchase once', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const bk = await post(
      '/coreBooking/book',
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') }),
      { key: op.adminKey },
    );
    const body = { planId: 'MARINE_CANCELLATION', planName: 'Cancellation cover', calculatedCost: 16 };
    await idempotent(as(null, 'POST', `/public/bookings/${bk.body.rentalId}/protection-plans`), body, {
      ...body,
      planId: 'MARINE_WEATHER',
      calculatedCost: 12,
    });
    expect(await count("SELECT COUNT(*) AS n FROM protection_purchases WHERE customer_id = ? AND status = 'paid'", op.customerId)).toBe(1);
  });

  it('keys are scoped per credential, a 4xx answer is stored, and a too long key is refused', async () => {
    const a = await createOperator();
    const b = await createOperator();
    const item = await rentalItem(a);
    const body = bookBody({ inventoryId: item.id, startTime: at(a.timezone, 3, '10:00'), endTime: at(a.timezone, 3, '12:00') });
    const r1 = await api('POST', '/coreBooking/book', { body, key: a.adminKey, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(r1.status).toBe(201);
    const r2 = await api('POST', '/coreBooking/book', { body, key: b.adminKey, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(r2.headers.get('idempotent-replayed')).toBe('false');
    expectError(r2, 404, 'not_found');
    const r3 = await api('POST', '/coreBooking/book', { body, key: b.adminKey, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(r3.headers.get('idempotent-replayed')).toBe('true');
    expect(r3.text).toBe(r2.text);
    expectError(await api('POST', '/coreBooking/book', { body, key: a.adminKey, headers: { 'Idempotency-Key': 'x'.repeat(300) } }), 400, 'validation_failed');
  });
});
