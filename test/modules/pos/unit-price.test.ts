/**
 * Per-unit prices keep a tenth of a cent (issue 31): a fuel price of 5.899 a gallon is stored, answered
 * and sold at 5.899; a line is unit price × quantity rounded to the cent; finer prices are refused.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, post, put, type Operator } from '../../harness';

const k = (op: Operator) => ({ key: op.adminKey });

async function fuel(op: Operator, price: number) {
  return post(
    '/pos/inventory',
    {
      locationId: op.locationId,
      name: 'Diesel',
      category: 'fuel',
      taxRate: 0,
      variants: [{ name: 'Gallon', price, quantity: 1000, unit: 'gallon' }],
    },
    k(op),
  );
}

describe('POS unit prices to a tenth of a cent', () => {
  it('stores, answers and sells a fuel price of 5.899 as 5.899', async () => {
    const op = await createOperator();
    const c = await fuel(op, 5.899);
    expect(c.status, c.text).toBe(201);
    expect(c.body.variants[0].price).toBe(5.899);
    const g = await get(`/pos/gas-price?locationId=${op.locationId}`, k(op));
    expect(g.status, g.text).toBe(200);
    expect(g.body).toMatchObject({ price: 5.899, unit: 'gallon', variants: [{ price: 5.899 }] });
    const listed = await get(`/pos/inventory?locationId=${op.locationId}`, k(op));
    expect(listed.body.data[0].variants[0].price).toBe(5.899);
    // 3 gallons: 17.697, charged 17.70 (a line is rounded to the cent once).
    const s = await post(
      '/pos/transaction',
      { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: c.body.itemId, quantity: 3 }] },
      k(op),
    );
    expect(s.status, s.text).toBe(201);
    expect(s.body.items[0]).toMatchObject({ unitPrice: 5.899, subtotal: 17.7, total: 17.7 });
    expect(s.body.total).toBe(17.7);
    // An update keeps the precision too.
    const variantId = c.body.variants[0].variantId;
    const u = await put('/pos/inventory', { locationId: op.locationId, itemId: c.body.itemId, variants: [{ variantId, name: 'Gallon', price: 6.159 }] }, k(op));
    expect(u.status, u.text).toBe(200);
    expect((await get(`/pos/gas-price?locationId=${op.locationId}`, k(op))).body.price).toBe(6.159);
  });

  it('refuses a price finer than a tenth of a cent', async () => {
    const op = await createOperator();
    expectError(await fuel(op, 5.8999), 400, 'validation_failed');
  });
});
