/**
 * The renter's account credit pays a later booking (bookings/account-credit.ts): a goodwill credit on
 * a paid booking moves value to the renter's account; `accountCredit` on POST /coreBooking spends it
 * (after membership credits and a gift card, before the card), a cancellation gives it back, and two
 * bookings racing for one credit never spend it twice (the database guard of migration 0039). Cancelling
 * the booking that gave the credit takes back what is left of it and keeps the spent part from its
 * refund, so the account never goes below zero (the guard of migration 0040).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { at, book, bookBody, rentalItem, type TestItem } from './factories';
import { systemCtx } from '../../../src/lib/context';
import { createBooking } from '../../../src/modules/bookings/service';
import type { BookInput } from '../../../src/modules/bookings/schemas';

let op: Operator;
let item: TestItem;
let day = 3;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 6 });
});

const newEmail = () => `credit-${crypto.randomUUID().slice(0, 8)}@renter.test`;
/** A two-hour booking of the item (200.00), on a day of its own unless given. */
const body = (email: string, extra: Record<string, unknown> = {}, on = day++) => ({
  ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, on, '10:00'), endTime: at(op.timezone, on, '12:00'), email }),
  ...extra,
});

/** A renter holding `dollars` of account credit: a paid booking and a goodwill credit moved to the account. */
async function renterWithCredit(dollars: number): Promise<{ email: string; renterId: string; rentalId: string; transactionId: string }> {
  const email = newEmail();
  const paid = await book(op, body(email));
  expect(paid.status, paid.text).toBe(201);
  const c = await post(`/coreBooking/${paid.body.rentalId}/credits`, { amount: dollars, reason: 'Engine trouble' }, { key: op.adminKey });
  expect(c.status, c.text).toBe(200);
  expect(c.body.credit.toAccount).toBe(dollars);
  return { email, renterId: paid.body.renterId, rentalId: paid.body.rentalId, transactionId: paid.body.transactionId };
}

const accountCredit = async (renterId: string) =>
  (await get(`/renters/${renterId}?includeAccounting=true`, { key: op.adminKey })).body.accounting.accountCreditCents as number;

const ledgerOf = async (rentalId: string) =>
  (
    await env.DB.prepare(
      "SELECT entry_type AS type, source, amount FROM ledger_entries WHERE rental_id = ? AND entry_type IN ('payment', 'refund') ORDER BY id",
    )
      .bind(rentalId)
      .all<{ type: string; source: string; amount: number }>()
  ).results;

/** The payment provider's (offline simulator's) intent of a booking's sale. */
const intentOf = async (transactionId: string) =>
  env.DB.prepare('SELECT amount_received AS received, amount_refunded AS refunded FROM sim_payment_intents WHERE id = ?')
    .bind(`pi_sim_${transactionId}_payment`)
    .first<{ received: number; refunded: number }>();

describe('account credit pays a later booking', () => {
  it('spends as much as covers what is due by default: the card pays the rest, the ledger and the renter show it', async () => {
    const { email, renterId } = await renterWithCredit(25);
    expect(await accountCredit(renterId)).toBe(2500);
    const b = await book(op, body(email, { accountCredit: {} }));
    expect(b.status, b.text).toBe(201);
    expect(b.body.renterId).toBe(renterId);
    expect(b.body.pricing).toMatchObject({ total: 200, amountPaid: 200, balanceDue: 0 });
    expect(await ledgerOf(b.body.rentalId)).toEqual(
      expect.arrayContaining([
        { type: 'payment', source: 'account_credit', amount: -2500 },
        { type: 'payment', source: 'card', amount: -17500 },
      ]),
    );
    expect(await intentOf(b.body.transactionId)).toEqual({ received: 17500, refunded: 0 });
    expect(await accountCredit(renterId)).toBe(0);
    const money = await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey });
    expect(money.body.pricing).toMatchObject({ amountPaid: 200, balanceDue: 0 });
  });

  it('spends the amount asked; a cancellation gives the credit back and refunds the card its part', async () => {
    const { email, renterId } = await renterWithCredit(25);
    const b = await book(op, body(email, { accountCredit: { amount: 10 } }));
    expect(b.status, b.text).toBe(201);
    expect(await accountCredit(renterId)).toBe(1500);
    expect(await intentOf(b.body.transactionId)).toEqual({ received: 19000, refunded: 0 });
    const cancelled = await post(`/coreBooking/${b.body.rentalId}/cancel`, { reason: 'Plans changed' }, { key: op.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await accountCredit(renterId)).toBe(2500);
    expect(await intentOf(b.body.transactionId)).toEqual({ received: 19000, refunded: 19000 });
    const read = await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey });
    expect(read.body.pricing).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0 });
  });

  it('refuses more than the credit, a renter without credit and bad input (400), charging nothing', async () => {
    const { email, renterId } = await renterWithCredit(25);
    const over = await book(op, body(email, { accountCredit: { amount: 30 } }));
    expectError(over, 400, 'insufficient_account_credit');
    expect(over.body.details).toEqual([expect.objectContaining({ field: 'accountCredit' })]);
    expect(over.body.message).toContain('25.00 USD');
    expectError(await book(op, body(newEmail(), { accountCredit: { amount: 5 } })), 400, 'insufficient_account_credit');
    expectError(await book(op, body(email, { accountCredit: { amount: -5 } })), 400, 'validation_failed');
    expectError(await book(op, body(email, { accountCredit: 'all' })), 400, 'validation_failed');
    expect(await accountCredit(renterId)).toBe(2500);
    const bookings = await env.DB.prepare('SELECT count(*) AS n FROM bookings WHERE renter_id = ?').bind(renterId).first<{ n: number }>();
    expect(bookings?.n).toBe(1);
  });

  it('another operator never spends it: the same e-mail there has no credit', async () => {
    const { email } = await renterWithCredit(25);
    const other = await createOperator();
    const theirs = await rentalItem(other);
    const r = await post(
      '/coreBooking/book',
      { ...bookBody({ inventoryId: theirs.id, startTime: at(other.timezone, 3, '10:00'), endTime: at(other.timezone, 3, '12:00'), email }), accountCredit: {} },
      { key: other.adminKey },
    );
    expectError(r, 400, 'insufficient_account_credit');
  });

  it('two bookings racing for one credit never spend it twice: 20.00 pays two of five 10.00 asks, the rest answer 400 and are refunded', async () => {
    const { email, renterId } = await renterWithCredit(20);
    const on = day++;
    const rs = await Promise.all(Array.from({ length: 5 }, () => book(op, body(email, { accountCredit: { amount: 10 } }, on))));
    const codes = rs.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error}`)).sort();
    expect(codes).toEqual([201, 201, '400 insufficient_account_credit', '400 insufficient_account_credit', '400 insufficient_account_credit']);
    expect(await accountCredit(renterId)).toBe(0);
    const spent = await env.DB.prepare("SELECT coalesce(sum(amount), 0) AS s FROM ledger_entries WHERE renter_id = ? AND source = 'account_credit'")
      .bind(renterId)
      .first<{ s: number }>();
    expect(spent?.s).toBe(-2000);
    // No card money stays taken for a refused booking: every charge of the operator that was not refunded paid a booking.
    const intents = await env.DB.prepare('SELECT id, amount_received AS received, amount_refunded AS refunded FROM sim_payment_intents WHERE metadata LIKE ?')
      .bind(`%${op.customerId}%`)
      .all<{ id: string; received: number; refunded: number }>();
    const written = await env.DB.prepare('SELECT transaction_id AS t FROM bookings WHERE customer_id = ?').bind(op.customerId).all<{ t: string }>();
    const booked = new Set(written.results.map((r) => `pi_sim_${r.t}_payment`));
    const kept = intents.results.filter((i) => i.received > i.refunded);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.filter((i) => !booked.has(i.id))).toEqual([]);
    // The refused ones that had charged the card were refunded in full.
    const refused = intents.results.filter((i) => !booked.has(i.id));
    expect(refused.every((i) => i.refunded === i.received)).toBe(true);
  });

  it('is the operator API’s only: the widget does not take it (the credit stays), and another sales path asking for it is refused', async () => {
    const { email, renterId } = await renterWithCredit(25);
    const on = day++;
    const w = await post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: item.id,
      startTime: at(op.timezone, on, '10:00'),
      endTime: at(op.timezone, on, '12:00'),
      customerInfo: { firstName: 'Rita', lastName: 'Renter', email },
      paymentMethodId: 'pm_card_visa',
      accountCredit: {},
    });
    expect(w.status, w.text).toBeLessThan(300);
    expect(await accountCredit(renterId)).toBe(2500);
    // In the sale itself: a path other than the operator's asking for it is refused before anything is taken.
    const ctx = systemCtx(env, { customerId: op.customerId });
    const asked = { ...body(email), accountCredit: {} } as unknown as BookInput;
    await expect(createBooking(ctx, asked, { source: 'widget' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('accountCredit'),
    });
    expect(await accountCredit(renterId)).toBe(2500);
    const doc = JSON.stringify((await get('/openapi.json')).body.components.schemas);
    expect(doc).toContain('insufficient_account_credit');
  });

  it('cancelling the booking that gave the credit takes back what is left of it and keeps the part spent meanwhile from its refund', async () => {
    const { email, renterId, rentalId, transactionId } = await renterWithCredit(30);
    const later = await book(op, body(email, { accountCredit: { amount: 20 } }));
    expect(later.status, later.text).toBe(201);
    expect(await accountCredit(renterId)).toBe(1000);
    // The renter's own quote keeps the spent 20.00 as well.
    const quote = await get(`/public/bookings/${rentalId}/cancellation-eligibility`);
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.refund).toMatchObject({ amountCents: 18000, paid: 200 });
    const cancelled = await post(`/coreBooking/${rentalId}/cancel`, { reason: 'Weather' }, { key: op.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.refund).toMatchObject({ status: 'succeeded', amount: 180 });
    expect(cancelled.body.refund.lines[0]).toMatchObject({ kind: 'rental', paid: 200, refund: 180, kept: 20 });
    // The 10.00 left went back from the account; the 20.00 spent stays spent, and nothing is owed anywhere.
    expect(await accountCredit(renterId)).toBe(0);
    expect(await intentOf(transactionId)).toEqual({ received: 20000, refunded: 18000 });
    const after = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
    expect(after.body).toMatchObject({ status: 'cancelled', pricing: { balanceDue: 0 } });
  });

  it('with nothing spent, cancelling the booking that gave the credit takes it all back and refunds the card in full', async () => {
    const { renterId, rentalId, transactionId } = await renterWithCredit(30);
    const cancelled = await post(`/coreBooking/${rentalId}/cancel`, { reason: 'Weather' }, { key: op.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.refund).toMatchObject({ status: 'succeeded', amount: 200 });
    expect(await accountCredit(renterId)).toBe(0);
    expect(await intentOf(transactionId)).toEqual({ received: 20000, refunded: 20000 });
  });

  it('a cancellation racing a booking that spends the credit it gave: the account never goes below zero and every booking balances', async () => {
    // The cancellation starts as the booking starts, or a little after it (so either may write first).
    for (const delayMs of [0, 40, 80, 160, 320]) {
      const { email, renterId, rentalId, transactionId } = await renterWithCredit(30);
      const cancel = () => post(`/coreBooking/${rentalId}/cancel`, { reason: 'Weather' }, { key: op.adminKey });
      const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const [c, spend] = await Promise.all([later(delayMs).then(cancel), book(op, body(email, { accountCredit: { amount: 30 } }))]);
      // Refused by the guard (the spend was written first): nothing was written, and cancelling again works.
      const done = c.status === 409 ? (expectError(c, 409, 'account_credit_changed'), await cancel()) : c;
      expect(done.status, done.text).toBe(200);
      const spent = spend.status === 201;
      if (!spent) expectError(spend, 400, 'insufficient_account_credit');
      expect(await accountCredit(renterId)).toBe(0);
      expect(done.body.refund.amount).toBe(spent ? 170 : 200);
      expect(await intentOf(transactionId)).toEqual({ received: 20000, refunded: spent ? 17000 : 20000 });
      const after = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
      expect(after.body.pricing.balanceDue).toBe(0);
    }
  });

  it('the database refuses a take-back of goodwill credit beyond what the account holds (migration 0040)', async () => {
    const { renterId, rentalId } = await renterWithCredit(30);
    const takeBack = (amount: number) =>
      env.DB.prepare(
        `INSERT INTO ledger_entries (id, customer_id, renter_id, rental_id, entry_type, source, amount, currency, affects_balance, occurred_at, created_at)
         VALUES (?, ?, ?, ?, 'credit', 'goodwill', ?, 'usd', 1, '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z')`,
      )
        .bind(`led_test_${crypto.randomUUID()}`, op.customerId, renterId, rentalId, amount)
        .run();
    await expect(takeBack(-3001)).rejects.toThrow(/account_credit_changed/);
    expect(await accountCredit(renterId)).toBe(3000);
    await takeBack(-3000);
    expect(await accountCredit(renterId)).toBe(0);
  });
});
