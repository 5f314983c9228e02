/** Point of sale through HTTP: catalog and stock, folders, sales, refunds, drawer settlement, provider endpoints. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, del, expectError, get, patch, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { payments } from '../../../src/adapters/payments';
import { at, book, bookBody, eventsOf, rentalItem } from '../bookings/factories';

const k = (op: Operator) => ({ key: op.adminKey });

async function product(
  op: Operator,
  o: { name?: string; price?: number; quantity?: number; taxRate?: number; allowNegativeStock?: boolean; category?: string; variants?: unknown[] } = {},
) {
  const r = await post(
    '/pos/inventory',
    {
      locationId: op.locationId,
      name: o.name ?? 'Ice bag',
      taxRate: o.taxRate ?? 0,
      category: o.category,
      allowNegativeStock: o.allowNegativeStock,
      variants: o.variants ?? [{ name: 'Default', price: o.price ?? 5, quantity: o.quantity ?? 10 }],
    },
    k(op),
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { itemId: string; variants: { variantId: string; quantity: number }[] };
}

const sale = (op: Operator, body: Record<string, unknown>, headers?: Record<string, string>) =>
  post('/pos/transaction', { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', ...body }, { ...k(op), headers });

const stockOf = async (op: Operator, itemId: string) => {
  const r = await get(`/pos/inventory?locationId=${op.locationId}`, k(op));
  return r.body.data.find((i: any) => i.itemId === itemId);
};

describe('POS catalog and stock', () => {
  it('creates, lists, updates and deletes products with variants, tax, tags and folders', async () => {
    const op = await createOperator();
    const f = await post('/pos/folders', { locationId: op.locationId, name: 'Drinks', color: '#00f' }, k(op));
    expect(f.status, f.text).toBe(201);
    const c = await post(
      '/pos/inventory',
      {
        locationId: op.locationId,
        name: 'Soda',
        category: 'Drinks',
        taxRate: 7.5,
        image: 'https://img.example.test/soda.png',
        tags: ['cold'],
        folderIds: [f.body.folderId],
        variants: [
          { name: 'Can', price: 1.5, quantity: 24, sku: 'SODA-C' },
          { name: 'Bottle', price: 2.25, quantity: 12 },
        ],
      },
      k(op),
    );
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ name: 'Soda', taxRate: 7.5, tags: ['cold'], folderIds: [f.body.folderId] });
    expect(c.body.variants.map((v: any) => [v.name, v.price, v.quantity])).toEqual([
      ['Can', 1.5, 24],
      ['Bottle', 2.25, 12],
    ]);
    const can = c.body.variants[0].variantId;
    const u = await put(
      '/pos/inventory',
      {
        locationId: op.locationId,
        itemId: c.body.itemId,
        name: 'Soda pop',
        variants: [
          { variantId: can, name: 'Can', price: 1.75 },
          { name: 'Six-pack', price: 8, quantity: 3 },
        ],
      },
      k(op),
    );
    expect(u.status, u.text).toBe(200);
    expect(u.body.name).toBe('Soda pop');
    expect(u.body.variants.map((v: any) => [v.name, v.price, v.quantity])).toEqual([
      ['Can', 1.75, 24],
      ['Six-pack', 8, 3],
    ]);
    const list = await get(`/pos/inventory?locationId=${op.locationId}`, k(op));
    expect(list.body).toMatchObject({ total: 1, limit: 200, offset: 0 });
    expectError(await put('/pos/inventory', { locationId: op.locationId, itemId: 'pitm_nope', name: 'x' }, k(op)), 404, 'not_found');
    expectError(await post('/pos/inventory', { locationId: op.locationId }, k(op)), 400, 'validation_failed');
    expectError(await post('/pos/inventory', { locationId: 'loc_nope', name: 'x' }, k(op)), 404, 'not_found');
    const d = await del('/pos/inventory', { locationId: op.locationId, itemId: c.body.itemId }, k(op));
    expect(d.status, d.text).toBe(200);
    expect((await get(`/pos/inventory?locationId=${op.locationId}`, k(op))).body.total).toBe(0);
    expect((await get(`/pos/folders?locationId=${op.locationId}`, k(op))).body.data[0].itemIds).toEqual([]);
  });

  it('applies signed stock changes in SQL, refuses below zero unless allowed, and keeps till stock apart', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 3 });
    const v = p.variants[0].variantId;
    const body = (quantity: number) => ({ locationId: op.locationId, itemId: p.itemId, variantId: v, quantity });
    const up = await patch('/pos/inventory', body(4), k(op));
    expect(up.body).toMatchObject({ quantity: 7, change: 4 });
    expectError(await patch('/pos/inventory', body(-8), k(op)), 400, 'insufficient_stock');
    expect((await patch('/pos/inventory', body(-7), k(op))).body.quantity).toBe(0);
    expectError(await patch('/pos/inventory', { ...body(1), variantId: 'pvar_nope' }, k(op)), 404, 'not_found');
    expectError(await patch('/pos/inventory', { ...body(1), itemId: 'pitm_nope' }, k(op)), 404, 'not_found');
    const till = await patch('/pos/inventory/till', { ...body(5), tillId: 'till-1' }, k(op));
    expect(till.status, till.text).toBe(200);
    expect(till.body).toMatchObject({ tillId: 'till-1', quantity: 5 });
    expectError(await patch('/pos/inventory/till', { ...body(-6), tillId: 'till-1' }, k(op)), 400, 'insufficient_stock');
    const shown = await stockOf(op, p.itemId);
    expect(shown.variants[0]).toMatchObject({ quantity: 0, tills: [{ tillId: 'till-1', quantity: 5 }] });
    const neg = await product(op, { name: 'Fuel', quantity: 0, allowNegativeStock: true });
    const n = await patch('/pos/inventory', { locationId: op.locationId, itemId: neg.itemId, variantId: neg.variants[0].variantId, quantity: -3 }, k(op));
    expect(n.body.quantity).toBe(-3);
  });

  it('ten parallel decrements of a stock of four: four succeed, stock never below zero', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 4 });
    const rs = await Promise.all(
      Array.from({ length: 10 }, () =>
        patch('/pos/inventory', { locationId: op.locationId, itemId: p.itemId, variantId: p.variants[0].variantId, quantity: -1 }, k(op)),
      ),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 400, 'insufficient_stock');
    expect((await stockOf(op, p.itemId)).variants[0].quantity).toBe(0);
  });

  it("answers the location's fuel price, 404 without a fuel item", async () => {
    const op = await createOperator();
    expectError(await get(`/pos/gas-price?locationId=${op.locationId}`, k(op)), 404, 'not_found');
    await product(op, {
      name: 'Marine gas',
      category: 'Fuel',
      variants: [{ name: 'Regular', price: 5.49, quantity: 0, unit: 'gallon' }],
      allowNegativeStock: true,
    });
    const g = await get(`/pos/gas-price?locationId=${op.locationId}`, k(op));
    expect(g.status, g.text).toBe(200);
    expect(g.body).toMatchObject({ name: 'Marine gas', price: 5.49, unit: 'gallon', currency: 'usd' });
    expectError(await get('/pos/gas-price', k(op)), 400, 'validation_failed');
  });
});

describe('POS folders', () => {
  it('creates, updates, reorders, duplicates to another till and deletes (unlinking products)', async () => {
    const op = await createOperator();
    const p = await product(op);
    const a = (await post('/pos/folders', { locationId: op.locationId, name: 'A', tillId: 'till-1', itemIds: [p.itemId] }, k(op))).body;
    const b = (await post('/pos/folders', { locationId: op.locationId, name: 'B', tillId: 'till-1', color: 'red' }, k(op))).body;
    expect([a.position, b.position]).toEqual([0, 1]);
    const u = await put('/pos/folders', { locationId: op.locationId, folderId: b.folderId, favorite: true, name: 'Bee' }, k(op));
    expect(u.body).toMatchObject({ favorite: true, name: 'Bee', color: 'red' });
    const ro = await put('/pos/folders/reorder', { locationId: op.locationId, folderOrder: [b.folderId, a.folderId] }, k(op));
    expect(ro.body.data.map((f: any) => f.name)).toEqual(['Bee', 'A']);
    expectError(await put('/pos/folders/reorder', { locationId: op.locationId, folderOrder: ['pfld_nope'] }, k(op)), 400);
    const dup = await post('/pos/folders/duplicate', { locationId: op.locationId, sourceTillId: 'till-1', targetTillId: 'till-2' }, k(op));
    expect(dup.status, dup.text).toBe(200);
    expect(dup.body.data.map((f: any) => [f.name, f.tillId, f.itemIds])).toEqual([
      ['Bee', 'till-2', []],
      ['A', 'till-2', [p.itemId]],
    ]);
    expectError(await post('/pos/folders/duplicate', { locationId: op.locationId, sourceTillId: 'till-9', targetTillId: 'till-2' }, k(op)), 404, 'not_found');
    const d = await del('/pos/folders', { locationId: op.locationId, folderId: a.folderId }, k(op));
    expect(d.body).toMatchObject({ success: true, unlinkedItemIds: [p.itemId] });
    expect((await stockOf(op, p.itemId)).folderIds).toEqual([dup.body.data[1].folderId]);
    expect((await get(`/pos/folders?locationId=${op.locationId}&tillId=till-2`, k(op))).body.data).toHaveLength(2);
    expectError(await put('/pos/folders', { locationId: op.locationId, folderId: a.folderId, name: 'x' }, k(op)), 404, 'not_found');
  });
});

describe('POS sales', () => {
  it('prices lines from the catalog to the cent: quantity, per-line tax, percentage or shared amount discount', async () => {
    const op = await createOperator();
    const taxed = await product(op, { name: 'Cap', price: 12.99, taxRate: 7.5 });
    const r = await sale(op, { items: [{ itemId: taxed.itemId, quantity: 3 }] });
    expect(r.status, r.text).toBe(201);
    // 3 x 12.99 = 38.97; tax 7.5% = 2.92275 -> 2.92; total 41.89
    expect(r.body).toMatchObject({ subtotal: 38.97, taxTotal: 2.92, discountTotal: 0, total: 41.89, kind: 'sale', paymentType: 'cash' });
    const a = await product(op, { name: 'A', price: 10, taxRate: 10 });
    const b = await product(op, { name: 'B', price: 30, taxRate: 0 });
    const d = await sale(op, { items: [{ itemId: a.itemId }, { itemId: b.itemId }], discountAmount: 4 });
    // discount 4.00 shared by value: 1.00 and 3.00; A: 9.00 + 0.90 tax; B: 27.00
    expect(d.body).toMatchObject({ subtotal: 40, discountTotal: 4, taxTotal: 0.9, total: 36.9 });
    expect(d.body.items.map((l: any) => [l.discount, l.tax, l.total])).toEqual([
      [1, 0.9, 9.9],
      [3, 0, 27],
    ]);
    const ones = await Promise.all(['x', 'y', 'z'].map((n) => product(op, { name: n, price: 1 })));
    const thirds = await sale(op, { items: ones.map((o) => ({ itemId: o.itemId })), discountAmount: 1 });
    // 1.00 over three 1.00 lines: 0.34 + 0.33 + 0.33 (largest remainder, first line wins the tie)
    expect(thirds.body.items.map((l: any) => l.discount)).toEqual([0.34, 0.33, 0.33]);
    expect(thirds.body.total).toBe(2);
    const pct = await sale(op, { items: [{ itemId: b.itemId, quantity: 2 }], discountPercentage: 12.5 });
    expect(pct.body).toMatchObject({ subtotal: 60, discountTotal: 7.5, total: 52.5 });
    expectError(await sale(op, { items: [{ itemId: b.itemId }], discountPercentage: 10, discountAmount: 1 }), 400);
    expectError(await sale(op, { items: [] }), 400);
    expectError(await sale(op, { items: [{ itemId: 'pitm_nope' }] }), 400);
    expectError(await post('/pos/transaction', {}, k(op)), 400, 'validation_failed');
    const got = await get(`/pos/transaction/${r.body.transactionId}`, k(op));
    expect(got.body).toEqual(r.body);
    expectError(await get('/pos/transaction/ptx_nope', k(op)), 404, 'not_found');
  });

  it('takes stock in the sale batch: ten parallel sales of a stock of five sell exactly five', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 5, price: 2 });
    const rs = await Promise.all(Array.from({ length: 10 }, () => sale(op, { items: [{ itemId: p.itemId }] })));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 400, 'insufficient_stock');
    expect((await stockOf(op, p.itemId)).variants[0].quantity).toBe(0);
    expect((await get(`/pos/transaction?locationId=${op.locationId}`, k(op))).body.total).toBe(5);
  });

  it('charges cards through the provider (402 on decline, nothing written), records terminal intents and account sales', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 10, price: 20 });
    const card = await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'card', paymentMethodId: 'pm_card_visa', tillId: 'till-1' });
    expect(card.status, card.text).toBe(201);
    expect(card.body.paymentIntentId).toMatch(/^pi_/);
    const declined = await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'card', paymentMethodId: 'pm_card_chargeDeclined' });
    expectError(declined, 402, 'payment_failed');
    expect((await stockOf(op, p.itemId)).variants[0].quantity).toBe(9);
    expectError(await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'card' }), 400);
    // Terminal: the reader completes an intent for the total, the sale records it.
    const intent = await post('/pos/create_payment', { amount: 2000 }, k(op));
    expect(intent.status, intent.text).toBe(200);
    await payments(env).confirmPaymentIntent(intent.body.id, 'pm_card_visa');
    const term = await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'terminal', paymentIntentId: intent.body.id });
    expect(term.status, term.text).toBe(201);
    expectError(await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'terminal', paymentIntentId: intent.body.id }), 400);
    const short = await post('/pos/create_payment', { amount: 1999 }, k(op));
    await payments(env).confirmPaymentIntent(short.body.id, 'pm_card_visa');
    expectError(await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'terminal', paymentIntentId: short.body.id }), 400);
    expectError(await sale(op, { items: [{ itemId: p.itemId }], paymentType: 'account', accountId: 'rnt_nope' }), 404);
    const events = await eventsOf(op.customerId, 'payment.completed');
    expect(
      events
        .filter((e) => e.payload.data.kind === 'pos_sale')
        .map((e) => e.payload.data.method)
        .sort(),
    ).toEqual(['card', 'terminal']);
  });

  it("settleBooking applies the payment to the booking's balance in the ledger", async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const bk = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00'), paymentMethodId: null }),
    );
    expect(bk.status, bk.text).toBe(201);
    const balance = await product(op, { name: 'Balance payment', price: 200, quantity: 100 });
    const r = await sale(op, { items: [{ itemId: balance.itemId }], settleBooking: true, rentalId: bk.body.rentalId });
    expect(r.status, r.text).toBe(201);
    const booking = await get(`/coreBooking/${bk.body.rentalId}`, k(op));
    expect(booking.body.pricing ?? booking.body).toMatchObject({ amountPaid: 200 });
    const byRental = await get(`/pos/transactions/rental/${bk.body.rentalId}`, k(op));
    expect(byRental.body.data.map((t: any) => t.transactionId)).toEqual([r.body.transactionId]);
    expectError(await sale(op, { items: [{ itemId: balance.itemId }], settleBooking: true, rentalId: bk.body.rentalId }), 400);
    expectError(await sale(op, { items: [{ itemId: balance.itemId }], settleBooking: true }), 400);
    expectError(await get('/pos/transactions/rental/bk_nope', k(op)), 404, 'not_found');
  });
});

describe('POS refunds and settlement', () => {
  it('refunds in full or in part, restocks, never over the remaining amount, and fires payment.refunded', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 10, price: 25 });
    const s = await sale(op, { items: [{ itemId: p.itemId, quantity: 4 }], paymentType: 'card', paymentMethodId: 'pm_card_visa' });
    const id = s.body.transactionId;
    expectError(await post('/pos/transaction/refund', { transactionId: id, refundType: 'partial' }, k(op)), 400, 'validation_failed');
    const part = await post(
      '/pos/transaction/refund',
      { transactionId: id, refundType: 'partial', amount: 25, items: [{ variantId: p.variants[0].variantId, quantity: 1 }] },
      k(op),
    );
    expect(part.status, part.text).toBe(200);
    expect(part.body).toMatchObject({ amount: 25, method: 'card', transaction: { refundedAmount: 25, refundableAmount: 75 } });
    expect(part.body.providerRefundId).toMatch(/^re_/);
    expect((await stockOf(op, p.itemId)).variants[0].quantity).toBe(7);
    expectError(await post('/pos/transaction/refund', { transactionId: id, refundType: 'partial', amount: 80 }, k(op)), 400, 'refund_exceeds_remaining');
    const full = await post('/pos/transaction/refund', { transactionId: id, refundType: 'full' }, k(op));
    expect(full.body).toMatchObject({ amount: 75, transaction: { refundedAmount: 100, refundableAmount: 0 } });
    expect((await stockOf(op, p.itemId)).variants[0].quantity).toBe(10);
    expectError(await post('/pos/transaction/refund', { transactionId: id, refundType: 'full' }, k(op)), 400, 'refund_exceeds_remaining');
    expectError(await post('/pos/transaction/refund', { transactionId: 'ptx_nope', refundType: 'full' }, k(op)), 404, 'not_found');
    const refunded = await eventsOf(op.customerId, 'payment.refunded');
    expect(refunded.map((e) => e.payload.data.amountCents)).toEqual([2500, 7500]);
  });

  it('ten racing partial refunds never refund more than the sale', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 10, price: 100 });
    const s = await sale(op, { items: [{ itemId: p.itemId }] });
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => post('/pos/transaction/refund', { transactionId: s.body.transactionId, refundType: 'partial', amount: 15 }, k(op))),
    );
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(6);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 400, 'refund_exceeds_remaining');
    const t = await get(`/pos/transaction/${s.body.transactionId}`, k(op));
    expect(t.body.refundedAmount).toBe(90);
    const rows = await env.DB.prepare('SELECT SUM(amount) AS n FROM pos_refunds WHERE transaction_id = ?').bind(s.body.transactionId).first<{ n: number }>();
    expect(rows!.n).toBe(9000);
  });

  it('racing partial refunds that together take a taxed, discounted sale bring every charge to zero, whatever order they write in', async () => {
    const op = await createOperator();
    const a = await product(op, { name: 'Ice', price: 3.33, taxRate: 0.0725 });
    const b = await product(op, { name: 'Bait', price: 7.77, taxRate: 0.0725 });
    const s = await sale(op, { items: [{ itemId: a.itemId, quantity: 2 }, { itemId: b.itemId }], discountPercentage: 10 });
    expect(s.status, s.text).toBe(201);
    const total = s.body.total as number;
    const cents = Math.round(total * 100);
    const parts = [Math.floor(cents / 3), Math.floor(cents / 3), cents - 2 * Math.floor(cents / 3)];
    const rs = await Promise.all(
      parts.map((c) => post('/pos/transaction/refund', { transactionId: s.body.transactionId, refundType: 'partial', amount: c / 100 }, k(op))),
    );
    for (const r of rs) expect(r.status, r.text).toBe(200);
    const t = await get(`/pos/transaction/${s.body.transactionId}`, k(op));
    expect(t.body.money).toMatchObject({ total: 0, refunded: total, balance: 0 });
    const charges = await env.DB.prepare(
      `SELECT c.entry_type AS type, c.amount + COALESCE((SELECT SUM(r.amount) FROM ledger_entries r WHERE json_extract(r.metadata, '$.reversalOf') = c.id), 0) AS left
         FROM ledger_entries c WHERE c.transaction_id = ? AND json_extract(c.metadata, '$.reversalOf') IS NULL AND c.entry_type IN ('revenue', 'discount', 'tax')`,
    )
      .bind(s.body.transactionId)
      .all<{ type: string; left: number }>();
    expect(new Set(charges.results.map((c) => c.type))).toEqual(new Set(['revenue', 'discount', 'tax']));
    for (const c of charges.results) expect(c, c.type).toMatchObject({ left: 0 });
  });

  it('settles one transaction once; a settled sale cannot be refunded', async () => {
    const op = await createOperator();
    const p = await product(op, { price: 3 });
    const s = await sale(op, { items: [{ itemId: p.itemId }] });
    const st = await put(`/pos/transaction/settle?transactionId=${s.body.transactionId}`, {}, k(op));
    expect(st.status, st.text).toBe(200);
    expect(st.body.settled).toBe(true);
    expectError(await put(`/pos/transaction/settle?transactionId=${s.body.transactionId}`, {}, k(op)), 400, 'already_settled');
    expectError(await put('/pos/transaction/settle', {}, k(op)), 400, 'validation_failed');
    expectError(await put('/pos/transaction/settle?transactionId=ptx_nope', {}, k(op)), 404, 'not_found');
    expectError(await post('/pos/transaction/refund', { transactionId: s.body.transactionId, refundType: 'full' }, k(op)), 400, 'already_settled');
  });

  it('closes a drawer exact to the cent on a mixed day: float, cash and card sales, refunds, paid in and out; a Z report once', async () => {
    const op = await createOperator();
    const till = { tillId: 'till-A' };
    const cap = await product(op, { name: 'Cap', price: 12.99, taxRate: 7.5, quantity: 50 });
    const soap = await product(op, { name: 'Soap', price: 5.55, quantity: 50 });
    expect((await sale(op, { ...till, items: [], paymentType: 'opening_float', amount: 100 })).status).toBe(201);
    const a = await sale(op, { ...till, items: [{ itemId: cap.itemId, quantity: 3 }] }); // 41.89 cash
    const b = await sale(op, { ...till, items: [{ itemId: soap.itemId }], discountPercentage: 10 }); // 5.55 - 0.56 = 4.99 cash
    await sale(op, { ...till, items: [{ itemId: cap.itemId }], paymentType: 'card', paymentMethodId: 'pm_card_visa' }); // 13.96 card
    await sale(op, { ...till, items: [], paymentType: 'paid_in', amount: 15.25 });
    await sale(op, { ...till, items: [], paymentType: 'paid_out', amount: 7.1, note: 'Ice delivery' });
    await post('/pos/transaction/refund', { transactionId: a.body.transactionId, refundType: 'partial', amount: 3.33 }, k(op));
    await sale(op, { tillId: 'till-B', items: [{ itemId: soap.itemId }] }); // another drawer: not counted
    expect(b.body.total).toBe(4.99);
    const z = await put(
      '/pos/transaction/settle-range',
      { locationId: op.locationId, drawerId: 'till-A', countedCash: 150, expectedCash: 999, difference: 0, cashBreakdown: { '50': 2, '20': 2, '5': 2 } },
      k(op),
    );
    expect(z.status, z.text).toBe(200);
    // 100.00 + 41.89 + 4.99 + 15.25 - 3.33 - 7.10 = 151.70
    expect(z.body).toMatchObject({
      zReportNumber: 1,
      drawerId: 'till-A',
      openingFloat: 100,
      cashSales: 46.88,
      paidIn: 15.25,
      paidOut: 7.1,
      cashRefunds: 3.33,
      expectedCash: 151.7,
      countedCash: 150,
      difference: -1.7,
      clientExpectedCash: 999,
      clientDifference: 0,
      transactionCount: 6,
    });
    expect(z.body.totals.salesByPaymentType).toEqual({ cash: 46.88, card: 13.96 });
    expectError(
      await put(
        '/pos/transaction/settle-range',
        { locationId: op.locationId, drawerId: 'till-A', startDate: z.body.startDate, endDate: z.body.endDate },
        k(op),
      ),
      400,
      'already_settled',
    );
    expectError(await post('/pos/transaction/refund', { transactionId: a.body.transactionId, refundType: 'full' }, k(op)), 400, 'already_settled');
    expectError(await put('/pos/transaction/settle-range', { locationId: op.locationId, countedCash: 10, cashBreakdown: { '5': 1 } }, k(op)), 400);
    const zb = await put('/pos/transaction/settle-range', { locationId: op.locationId, drawerId: 'till-B' }, k(op));
    expect(zb.body).toMatchObject({ zReportNumber: 2, cashSales: 5.55, expectedCash: 5.55, countedCash: null, difference: null });
    expectError(await put('/pos/transaction/settle-range', {}, k(op)), 400, 'validation_failed');
  });
});

describe('POS payment provider endpoints', () => {
  it('creates intents in cents (destination charges with a fee), charges a saved card, connected accounts and links', async () => {
    const op = await createOperator();
    expectError(await post('/pos/create_payment', { amount: 12.5 }, k(op)), 400, 'validation_failed');
    expectError(await post('/pos/create_payment', { amount: -5 }, k(op)), 400, 'validation_failed');
    const acct = await post('/pos/account', { country: 'CA', stripeRegion: 'CA' }, k(op));
    expect(acct.status, acct.text).toBe(200);
    expect(acct.body).toMatchObject({ country: 'CA', stripeRegion: 'CA', charges_enabled: false, details_submitted: false });
    const pi = await post('/pos/create_payment_intent', { amount: 5000, connected_account_id: acct.body.id, fee_in_cents: 250 }, k(op));
    expect(pi.status, pi.text).toBe(200);
    expect(pi.body).toMatchObject({ amount: 5000, application_fee_amount: 250, transfer_destination: acct.body.id, status: 'requires_payment_method' });
    expectError(await post('/pos/create_payment_intent', { amount: 100, fee_in_cents: 500, connected_account_id: acct.body.id }, k(op)), 400);
    const link = await post('/pos/account_link', { account: acct.body.id, stripeRegion: 'CA' }, k(op));
    expect(link.body.url).toMatch(/^https:\/\//);
    expect((await post('/pos/account_session', { account: acct.body.id }, k(op))).body.client_secret).toMatch(/_secret_/);
    expect((await post('/pos/dashboard_link', { account: acct.body.id }, k(op))).body.url).toMatch(/^https:\/\//);
    expect((await post('/pos/connection_token', {}, k(op))).body.secret).toMatch(/^pst_/);
    const other = await createOperator();
    expectError(await post('/pos/account_link', { account: acct.body.id }, k(other)), 404, 'not_found');
    expectError(await post('/pos/account_link', { account: acct.body.id, stripeRegion: 'EU' }, k(op)), 400, 'validation_failed');
    const cust = await payments(env).createCustomer({ email: 'walkin@example.test' });
    const ch = await post('/pos/charge_customer', { amount: 1234, stripe_customer_id: cust.id, payment_method: 'pm_card_visa' }, k(op));
    expect(ch.status, ch.text).toBe(200);
    expect(ch.body).toMatchObject({ status: 'succeeded', amount: 1234 });
    expectError(
      await post('/pos/charge_customer', { amount: 1234, stripe_customer_id: cust.id, payment_method: 'pm_card_chargeDeclined' }, k(op)),
      402,
      'payment_failed',
    );
    const ev = await eventsOf(op.customerId, 'payment.completed');
    expect(ev.map((e) => [e.payload.data.kind, e.payload.data.amountCents])).toEqual([['pos_charge', 1234]]);
  });
});

describe('POS security', () => {
  it('every route: no credentials 401, another operator 404/403, staff without the pos permission 403 on writes', async () => {
    const op = await createOperator();
    const p = await product(op, { quantity: 5 });
    const s = await sale(op, { items: [{ itemId: p.itemId }] });
    const f = (await post('/pos/folders', { locationId: op.locationId, name: 'F', tillId: 't1' }, k(op))).body;
    const L = op.locationId;
    const v = p.variants[0].variantId;
    const cases: { method: string; path: string; body?: unknown; otherStatus?: 404 | 403; write?: boolean }[] = [
      { method: 'GET', path: `/pos/inventory?locationId=${L}`, otherStatus: 404 },
      { method: 'POST', path: '/pos/inventory', body: { locationId: L, name: 'X' }, otherStatus: 404, write: true },
      { method: 'PUT', path: '/pos/inventory', body: { locationId: L, itemId: p.itemId, name: 'Y' }, otherStatus: 404, write: true },
      { method: 'PATCH', path: '/pos/inventory', body: { locationId: L, itemId: p.itemId, variantId: v, quantity: 1 }, otherStatus: 404, write: true },
      { method: 'DELETE', path: '/pos/inventory', body: { locationId: L, itemId: 'pitm_x' }, otherStatus: 404, write: true },
      { method: 'GET', path: `/pos/gas-price?locationId=${L}`, otherStatus: 404 },
      {
        method: 'PATCH',
        path: '/pos/inventory/till',
        body: { locationId: L, itemId: p.itemId, variantId: v, tillId: 't', quantity: 1 },
        otherStatus: 404,
        write: true,
      },
      { method: 'GET', path: `/pos/folders?locationId=${L}`, otherStatus: 404 },
      { method: 'POST', path: '/pos/folders', body: { locationId: L, name: 'Z' }, otherStatus: 404, write: true },
      { method: 'PUT', path: '/pos/folders', body: { locationId: L, folderId: f.folderId, name: 'Q' }, otherStatus: 404, write: true },
      { method: 'DELETE', path: '/pos/folders', body: { locationId: L, folderId: 'pfld_x' }, otherStatus: 404, write: true },
      { method: 'PUT', path: '/pos/folders/reorder', body: { locationId: L, folderOrder: [f.folderId] }, otherStatus: 404, write: true },
      { method: 'POST', path: '/pos/folders/duplicate', body: { locationId: L, sourceTillId: 't1', targetTillId: 't2' }, otherStatus: 404, write: true },
      { method: 'GET', path: `/pos/transaction?locationId=${L}`, otherStatus: 404 },
      { method: 'POST', path: '/pos/transaction', body: { locationId: L, userId: op.adminId, items: [{ itemId: p.itemId }] }, otherStatus: 404, write: true },
      { method: 'GET', path: `/pos/transaction/${s.body.transactionId}`, otherStatus: 404 },
      { method: 'GET', path: '/pos/transactions/rental/bk_x', otherStatus: 404 },
      {
        method: 'POST',
        path: '/pos/transaction/refund',
        body: { transactionId: s.body.transactionId, refundType: 'partial', amount: 0.01 },
        otherStatus: 404,
        write: true,
      },
      { method: 'PUT', path: `/pos/transaction/settle?transactionId=ptx_x`, otherStatus: 404, write: true },
      { method: 'PUT', path: '/pos/transaction/settle-range', body: { locationId: L }, otherStatus: 404, write: true },
      { method: 'POST', path: '/pos/create_payment', body: { amount: 100 }, write: true },
      { method: 'POST', path: '/pos/account_link', body: { account: 'acct_x' }, otherStatus: 404, write: true },
      { method: 'POST', path: '/pos/charge_customer', body: { amount: 100, stripe_customer_id: 'cus_x', payment_method: 'pm_card_visa' }, write: true },
      { method: 'POST', path: '/pos/account', body: {}, write: true },
      { method: 'POST', path: '/pos/account_session', body: { account: 'acct_x' }, otherStatus: 404, write: true },
      { method: 'POST', path: '/pos/dashboard_link', body: { account: 'acct_x' }, otherStatus: 404, write: true },
      { method: 'POST', path: '/pos/connection_token', body: {}, write: true },
      { method: 'POST', path: '/pos/create_payment_intent', body: { amount: 100 }, write: true },
    ];
    const staff = await op.addUser({ role: 'staff' });
    for (const c of cases) {
      await checkSecurity(op, { method: c.method, path: c.path, body: c.body, otherStatus: c.otherStatus });
      if (c.write) expectError(await (await import('../../harness')).api(c.method, c.path, { body: c.body, key: staff.key }), 403, 'forbidden');
    }
  });
});
