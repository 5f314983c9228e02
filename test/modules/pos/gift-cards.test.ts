/** Gift cards at the counter: sold and reloaded on a POS sale, with the online rules, written as liability; refunds of the line and races. */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';

const k = (op: Operator) => ({ key: op.adminKey });
const CLOCK = '2026-06-10T15:00:00Z';

const sale = (op: Operator, body: Record<string, unknown>) =>
  post('/pos/transaction', { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [], ...body }, k(op));
const refund = (op: Operator, body: Record<string, unknown>) => post('/pos/transaction/refund', body, k(op));
const balance = async (op: Operator, code: string) => {
  const r = await get(`/promoGiftCards/balance?promoCode=${encodeURIComponent(code)}`, k(op));
  expect(r.status, r.text).toBe(200);
  return r.body as { balance: number; active: boolean; entries: { kind: string; amount: number }[] };
};
const redeem = (op: Operator, code: string, orderAmount: number) =>
  post('/promoGiftCards/use', { promoCode: code, customerId: op.customerId, orderAmount }, k(op));

/** The card's balance equals the sum of its balance entries, and never goes below zero. */
async function entriesSum(code: string, customerId: string) {
  const row = await env.DB.prepare(
    `SELECT p.balance AS balance, (SELECT coalesce(SUM(amount), 0) FROM gift_card_entries e WHERE e.promo_code_id = p.id) AS sum
     FROM promo_codes p WHERE p.customer_id = ? AND p.code_key = lower(?)`,
  )
    .bind(customerId, code)
    .first<{ balance: number; sum: number }>();
  return row!;
}

let op: Operator;
let ice: { itemId: string; variantId: string };

beforeAll(async () => {
  op = await createOperator({ clockAt: CLOCK });
  const p = await post(
    '/pos/inventory',
    { locationId: op.locationId, name: 'Ice bag', taxRate: 10, variants: [{ name: 'Default', price: 20, quantity: 50 }] },
    k(op),
  );
  expect(p.status, p.text).toBe(201);
  ice = { itemId: p.body.itemId, variantId: p.body.variants[0].variantId };
});

describe('POS gift cards', () => {
  it('sells a new card with a product: no discount or tax on the card, liability on the ledger, the gift e-mail queued', async () => {
    const r = await sale(op, {
      items: [{ itemId: ice.itemId, quantity: 1 }],
      discountPercentage: 10,
      giftCards: [{ action: 'issue', code: 'DOCK-GIFT-01', amount: 50, recipientEmail: 'friend@example.test', recipientName: 'Sam', message: 'Enjoy' }],
    });
    expect(r.status, r.text).toBe(201);
    // Ice: 20.00 − 2.00 discount + 1.80 tax = 19.80; the card: 50.00 untouched.
    expect(r.body).toMatchObject({ subtotal: 70, discountTotal: 2, taxTotal: 1.8, total: 69.8 });
    const card = r.body.items.find((l: any) => l.giftCard);
    expect(card).toMatchObject({
      itemId: null,
      variantId: null,
      quantity: 1,
      subtotal: 50,
      discount: 0,
      tax: 0,
      total: 50,
      giftCard: { code: 'DOCK-GIFT-01', action: 'issue' },
    });
    expect(r.body.items.find((l: any) => !l.giftCard).giftCard).toBeNull();
    expect(r.body.money).toMatchObject({ total: 69.8, paid: 69.8, balance: 0 });
    const entries = await env.DB.prepare('SELECT entry_type AS type, amount FROM ledger_entries WHERE transaction_id = ? ORDER BY entry_type')
      .bind(r.body.transactionId)
      .all<{ type: string; amount: number }>();
    const byType = Object.fromEntries(entries.results.map((e) => [e.type, e.amount]));
    expect(byType).toEqual({ revenue: 2000, discount: -200, tax: 180, gift_card_sale: 5000, payment: -6980 });
    const b = await balance(op, 'DOCK-GIFT-01');
    expect(b).toMatchObject({ balance: 50, active: true });
    expect(b.entries.map((e) => [e.kind, e.amount])).toEqual([['purchase', 50]]);
    const mail = await env.DB.prepare('SELECT "to" AS recipient, subject, body FROM message_outbox WHERE customer_id = ? AND body LIKE \'%DOCK-GIFT-01%\'')
      .bind(op.customerId)
      .first<{ recipient: string; subject: string; body: string }>();
    expect(mail).toMatchObject({ recipient: 'friend@example.test', subject: expect.stringContaining('Sam, you received a gift card') });
    expect(mail?.body).toContain('Value: 50.00 USD');
  });

  it('refuses with the online rules, before any money moves: a taken code 409, amounts, expiry, reload of an unknown card', async () => {
    const before = (await get(`/pos/transaction?locationId=${op.locationId}`, k(op))).body.total;
    expectError(await sale(op, { giftCards: [{ action: 'issue', code: 'dock-gift-01', amount: 10 }] }), 409, 'already_exists');
    expectError(await sale(op, { giftCards: [{ action: 'issue', amount: 0 }] }), 400, 'validation_failed');
    expectError(await sale(op, { giftCards: [{ action: 'issue', amount: 10.005 }] }), 400, 'validation_failed');
    expectError(await sale(op, { giftCards: [{ action: 'issue', amount: 2_000_000 }] }), 400, 'validation_failed');
    expectError(await sale(op, { giftCards: [{ action: 'issue', code: 'SHORT', amount: 10 }] }), 400, 'bad_request');
    expectError(await sale(op, { giftCards: [{ action: 'issue', amount: 10, expiryDate: '2026-01-01' }] }), 400, 'bad_request');
    expectError(await sale(op, { giftCards: [{ action: 'reload', code: 'NO-SUCH-CARD', amount: 10 }] }), 400, 'bad_request');
    expectError(await sale(op, { paymentType: 'account', accountId: 'x', giftCards: [{ action: 'issue', amount: 10 }] }), 400, 'bad_request');
    expect((await get(`/pos/transaction?locationId=${op.locationId}`, k(op))).body.total).toBe(before);
  });

  it('a generated code with an expiry, then a reload by code adds value', async () => {
    const r = await sale(op, { giftCards: [{ action: 'issue', amount: 25, expiryDate: '2027-06-30' }] });
    expect(r.status, r.text).toBe(201);
    const code = r.body.items[0].giftCard.code as string;
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const re = await sale(op, {
      paymentType: 'card',
      paymentMethodId: 'pm_card_visa',
      giftCards: [{ action: 'reload', code: code.toLowerCase(), amount: 15.5 }],
    });
    expect(re.status, re.text).toBe(201);
    expect(re.body.items[0].giftCard).toEqual({ code, action: 'reload' });
    expect((await balance(op, code)).balance).toBe(40.5);
  });

  it('refunding the line takes the value back off the card, never what was already spent (409), and voids a card refunded in full', async () => {
    const s1 = await sale(op, { items: [{ itemId: ice.itemId, quantity: 1 }], giftCards: [{ action: 'issue', code: 'SPENT-CARD-1', amount: 50 }] });
    expect(s1.status, s1.text).toBe(201);
    expect((await redeem(op, 'SPENT-CARD-1', 30)).status).toBe(200);
    const full = await refund(op, { transactionId: s1.body.transactionId, refundType: 'full' });
    expectError(full, 409, 'gift_card_spent');
    expect(full.body.message).toContain('20.00');
    // Nothing moved: the sale still refundable in full, the card still holds 20.
    expect((await get(`/pos/transaction/${s1.body.transactionId}`, k(op))).body.refundedAmount).toBe(0);
    expect((await balance(op, 'SPENT-CARD-1')).balance).toBe(20);
    expectError(
      await refund(op, { transactionId: s1.body.transactionId, refundType: 'partial', giftCards: [{ code: 'SPENT-CARD-1', amount: 25 }] }),
      409,
      'gift_card_spent',
    );
    const part = await refund(op, { transactionId: s1.body.transactionId, refundType: 'partial', giftCards: [{ code: 'SPENT-CARD-1', amount: 20 }] });
    expect(part.status, part.text).toBe(200);
    expect(part.body).toMatchObject({ amount: 20, giftCards: [{ code: 'SPENT-CARD-1', amount: 20 }], restocked: [] });
    expect((await balance(op, 'SPENT-CARD-1')).balance).toBe(0);
    // The products part is apart: at most the ice (22.00 with tax) is left on it, not the card's 30.
    expectError(await refund(op, { transactionId: s1.body.transactionId, refundType: 'partial', amount: 30 }), 400, 'refund_exceeds_remaining');

    const s2 = await sale(op, { giftCards: [{ action: 'issue', code: 'VOID-CARD-1', amount: 40 }] });
    const r2 = await refund(op, { transactionId: s2.body.transactionId, refundType: 'full' });
    expect(r2.status, r2.text).toBe(200);
    expect(await balance(op, 'VOID-CARD-1')).toMatchObject({ balance: 0, active: false });
    expect(r2.body.transaction.money).toMatchObject({ total: 0, paid: 40, refunded: 40, balance: 0 });
    expect(await entriesSum('VOID-CARD-1', op.customerId)).toEqual({ balance: 0, sum: 0 });
  });

  it('parallel reloads and redemptions keep the balance right: the sum of its entries, never below zero', async () => {
    const s = await sale(op, { giftCards: [{ action: 'issue', code: 'RACE-CARD-1', amount: 30 }] });
    expect(s.status, s.text).toBe(201);
    const rs = await Promise.all([
      ...Array.from({ length: 4 }, () => sale(op, { giftCards: [{ action: 'reload', code: 'RACE-CARD-1', amount: 10 }] })),
      ...Array.from({ length: 6 }, () => redeem(op, 'RACE-CARD-1', 20)),
    ]);
    const reloads = rs.slice(0, 4).filter((r) => r.status === 201).length;
    const redeemed = rs.slice(4).reduce((n, r) => n + (r.status === 200 ? r.body.discount : 0), 0);
    for (const r of rs.slice(4)) if (r.status !== 200) expectError(r, 400, 'code_not_usable');
    const after = await balance(op, 'RACE-CARD-1');
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(after.balance).toBeCloseTo(30 + 10 * reloads - redeemed, 2);
    const sums = await entriesSum('RACE-CARD-1', op.customerId);
    expect(sums.balance).toBe(sums.sum);
  });

  it('parallel refunds of a line racing redemptions never take the card below zero nor refund what was spent', async () => {
    const s = await sale(op, { giftCards: [{ action: 'issue', code: 'RACE-CARD-2', amount: 60 }] });
    const rs = await Promise.all([
      ...Array.from({ length: 3 }, () =>
        refund(op, { transactionId: s.body.transactionId, refundType: 'partial', giftCards: [{ code: 'RACE-CARD-2', amount: 20 }] }),
      ),
      ...Array.from({ length: 3 }, () => redeem(op, 'RACE-CARD-2', 20)),
    ]);
    const refunded = rs.slice(0, 3).filter((r) => r.status === 200).length * 20;
    for (const r of rs.slice(0, 3)) if (r.status !== 200) expect([409, 400]).toContain(r.status);
    const redeemed = rs.slice(3).reduce((n, r) => n + (r.status === 200 ? r.body.discount : 0), 0);
    const after = await balance(op, 'RACE-CARD-2');
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(refunded + redeemed + after.balance).toBeCloseTo(60, 2);
    const t = await get(`/pos/transaction/${s.body.transactionId}`, k(op));
    expect(t.body.refundedAmount).toBe(refunded);
    expect(t.body.money).toMatchObject({ refunded, balance: 0 });
  });

  it('parallel refunds of one line whose card holds more value refund the line once: each line is capped by its own total', async () => {
    // Card A holds 200 before the sale; the sale reloads it by 20 and issues card B with 100. The
    // sale-wide gift-card cap (120) alone would let six refunds of A's 20 pass while A holds enough.
    expect((await sale(op, { giftCards: [{ action: 'issue', code: 'PERLINE-A', amount: 200 }] })).status).toBe(201);
    const s = await sale(op, {
      giftCards: [
        { action: 'reload', code: 'PERLINE-A', amount: 20 },
        { action: 'issue', code: 'PERLINE-B', amount: 100 },
      ],
    });
    expect(s.status, s.text).toBe(201);
    const rs = await Promise.all(
      Array.from({ length: 6 }, () =>
        refund(op, { transactionId: s.body.transactionId, refundType: 'partial', giftCards: [{ code: 'PERLINE-A', amount: 20 }] }),
      ),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const r of rs.filter((x) => x.status === 400)) expect(r.body.error).toBe('refund_exceeds_remaining');
    // The card gave back the reload once (220 - 20); card B's line is untouched and still refundable in full.
    expect((await balance(op, 'PERLINE-A')).balance).toBe(200);
    expect((await get(`/pos/transaction/${s.body.transactionId}`, k(op))).body.refundedAmount).toBe(20);
    const b = await refund(op, { transactionId: s.body.transactionId, refundType: 'partial', giftCards: [{ code: 'PERLINE-B' }] });
    expect(b.status, b.text).toBe(200);
    expect((await balance(op, 'PERLINE-B')).balance).toBe(0);
    expect((await get(`/pos/transaction/${s.body.transactionId}`, k(op))).body.money).toMatchObject({ refunded: 120, balance: 0 });
  });

  it('security: a gift-card sale needs credentials, and another operator cannot reload this one’s card', async () => {
    await checkSecurity(op, {
      method: 'POST',
      path: '/pos/transaction',
      body: { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', giftCards: [{ action: 'reload', code: 'DOCK-GIFT-01', amount: 5 }] },
      otherStatus: 404,
    });
    expect((await balance(op, 'DOCK-GIFT-01')).balance).toBe(50);
  });
});
