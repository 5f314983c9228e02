/**
 * The items of a POS transaction as documented (issue 31, "Contract"): every read answers each line
 * with the fields `PosTransactionLine` requires (`itemId`, `variantId`, `taxRate`, prices, tax,
 * total), also for a sale stored with fewer fields (imported or seeded history: a name, quantity and
 * subtotal), whose lines are completed from the transaction. Checked against `/openapi.json` with a
 * JSON Schema validator, and by the figures.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { createOperator, db, get, post, type Operator } from '../../harness';
import { posTransactions } from '../../../src/db/schema/pos';

let op: Operator;
let list: ValidateFunction;
let one: ValidateFunction;
const k = () => ({ key: op.adminKey });
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const okSchema = (path: string) => ({ $ref: `openapi.json#/${pointer('paths', path, 'get', 'responses', '200', 'content', 'application/json', 'schema')}` });

beforeAll(async () => {
  op = await createOperator();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajv.addSchema((await get('/openapi.json')).body as object, 'openapi.json');
  list = ajv.compile(okSchema('/pos/transaction'));
  one = ajv.compile(okSchema('/pos/transaction/{transactionId}'));
});

/** A sale stored as imported history is: a name, a quantity and a subtotal per line (cents), with the tax on the transaction. */
async function legacySale() {
  const id = `ptx_legacy_${op.customerId.slice(-8)}`;
  await db()
    .insert(posTransactions)
    .values({
      id,
      customerId: op.customerId,
      locationId: op.locationId,
      userId: op.adminId,
      kind: 'sale',
      paymentType: 'cash',
      lines: [
        { name: 'Ice bag', quantity: 2, subtotal: 799 },
        { name: 'Sunscreen', quantity: 1, subtotal: 1250 },
      ],
      subtotal: 2049,
      taxTotal: 143,
      total: 2192,
      createdAt: '2030-01-02T15:00:00.000Z',
    })
    .run();
  return id;
}

const expectValid = (validate: ValidateFunction, body: unknown) => expect(validate(body) ? [] : validate.errors).toEqual([]);

describe('POS transaction items as documented', () => {
  it('answers itemId, variantId and taxRate on every line, from a sale and from imported history', async () => {
    const product = await post(
      '/pos/inventory',
      { locationId: op.locationId, name: 'Soda', taxRate: 7.5, variants: [{ name: 'Can', price: 1.5, quantity: 10 }] },
      k(),
    );
    expect(product.status, product.text).toBe(201);
    const sale = await post(
      '/pos/transaction',
      { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: product.body.itemId, quantity: 2 }] },
      k(),
    );
    expect(sale.status, sale.text).toBe(201);
    const legacyId = await legacySale();

    const r = await get(`/pos/transaction?locationId=${op.locationId}`, k());
    expect(r.status, r.text).toBe(200);
    expectValid(list, r.body);
    const byId = new Map<string, any>(r.body.data.map((t: any) => [t.transactionId, t]));
    expect(byId.get(sale.body.transactionId).items).toEqual([
      {
        itemId: product.body.itemId,
        variantId: product.body.variants[0].variantId,
        name: 'Soda / Can',
        quantity: 2,
        unitPrice: 1.5,
        subtotal: 3,
        discount: 0,
        taxRate: 7.5,
        tax: 0.23,
        total: 3.23,
        giftCard: null,
      },
    ]);
    const legacy = byId.get(legacyId);
    expect(legacy.items).toEqual([
      {
        itemId: null,
        variantId: null,
        name: 'Ice bag',
        quantity: 2,
        unitPrice: 3.995,
        subtotal: 7.99,
        discount: 0,
        taxRate: 7.01,
        tax: 0.56,
        total: 8.55,
        giftCard: null,
      },
      {
        itemId: null,
        variantId: null,
        name: 'Sunscreen',
        quantity: 1,
        unitPrice: 12.5,
        subtotal: 12.5,
        discount: 0,
        taxRate: 6.96,
        tax: 0.87,
        total: 13.37,
        giftCard: null,
      },
    ]);
    // The lines add up to the transaction.
    const cents = (v: number) => Math.round(v * 100);
    expect(legacy.items.reduce((s: number, l: any) => s + cents(l.total), 0)).toBe(cents(legacy.total));
    expect(legacy.items.reduce((s: number, l: any) => s + cents(l.tax), 0)).toBe(cents(legacy.taxTotal));

    for (const id of [sale.body.transactionId, legacyId]) {
      const t = await get(`/pos/transaction/${id}`, k());
      expect(t.status, t.text).toBe(200);
      expectValid(one, t.body);
      expect(t.body.items).toEqual(byId.get(id).items);
    }
  });
});
