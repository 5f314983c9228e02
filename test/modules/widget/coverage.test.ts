/**
 * Coverage in the widget's checkout (POST /public/widget/checkout with `coverage.quoteId`): the
 * premium in the one card payment beside the widget's own rows (renter session, funnel event, gift
 * card), the deposit effect, the higher price that stops the payment until accepted, and coverage
 * that never blocks the booking (declined, unanswered, another time, the underwriter down). The
 * underwriter is the reference underwriter (test/modules/coverage/helpers.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { eventually, expectError, get, post } from '../../harness';
import { SOME, installNetwork, restoreNetwork, window2h, world, type World } from '../coverage/helpers';
import { email } from '../bookings/factories';

beforeEach(installNetwork);
afterEach(restoreNetwork);

let ipSeq = 0;
const ip = () => ({ headers: { 'cf-connecting-ip': `10.78.${Math.floor(Math.random() * 250)}.${++ipSeq % 250}` } });

const count = (sql: string, customerId: string) =>
  env.DB.prepare(sql)
    .bind(customerId)
    .first<{ n: number }>()
    .then((r) => r!.n);
const bookings = (customerId: string) => count('SELECT COUNT(*) AS n FROM bookings WHERE customer_id = ?', customerId);
const sessions = (customerId: string) => count('SELECT COUNT(*) AS n FROM renter_sessions WHERE customer_id = ?', customerId);
const booked = (customerId: string) => count("SELECT COUNT(*) AS n FROM widget_events WHERE customer_id = ? AND event = 'booked'", customerId);

/** The card of the world's item for a window (the widget's quote: public item, no credentials). */
async function card(w: World, win = window2h()) {
  const q = await post('/public/coverage/quotes', { customerId: w.op.customerId, inventoryId: w.item.id, ...win }, ip());
  expect(q.status, q.text).toBe(200);
  return q.body;
}

/** The renter's page once the policy of the order is issued (the bind runs from the queue). */
const issued = (transactionId: string) =>
  eventually(async () => {
    const p = await get(`/public/coverage?TransactionId=${transactionId}`);
    return p.body.policies?.[0]?.status === 'issued' ? p.body : undefined;
  });

const order = (w: World, win: { startTime: string; endTime: string }, extra: Record<string, unknown> = {}) => ({
  customerId: w.op.customerId,
  inventoryId: w.item.id,
  ...win,
  customerInfo: { firstName: 'Wes', lastName: 'Widget', email: email('widget-cover') },
  paymentMethodId: 'pm_card_visa',
  expectedTotal: 200,
  sessionId: 'visit_coverage_01',
  ...extra,
});

describe('coverage in the widget checkout', () => {
  it('books with the card: one card payment for rental plus premium, the deposit effect, the policy beside the widget rows, then issued', async () => {
    const w = await world({ behaviour: 'deposit=reduce_by_percent:50' });
    const win = window2h(4);
    const q = await card(w, win);
    expect(q.unavailable).toEqual([]);
    expect(q.data[0]).toMatchObject({ status: 'quoted', estimate: 12.5, answersNeeded: true, deposit: { withoutCoverage: 300, withCoverage: 150 } });
    const quoteId = q.data[0].quoteId;
    const a = await post(`/public/coverage/quotes/${quoteId}/answers`, { answers: SOME }, ip());
    expect(a.body).toMatchObject({ status: 'ready', premium: 12.5, priceChange: 'none' });

    const r = await post('/public/widget/checkout', order(w, win, { coverage: { quoteId } }), ip());
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      status: 'confirmed',
      total: 212.5,
      amountPaid: 212.5,
      balanceDue: 0,
      coverage: { status: 'purchased', reason: null, quoteId, premium: 12.5, currency: 'usd', policyId: expect.stringMatching(/^cpl_/) },
    });
    expect(r.body.links.coverage).toBe(`http://berth.test/public/coverage?TransactionId=${r.body.transactionId}`);
    expect(r.body.links.manage).toBe(`http://berth.test/widget?manage=${r.body.rentalId}&customer=${w.op.customerId}`);
    // The widget's rows were written in the same batch as the booking and the policy.
    expect(await sessions(w.op.customerId)).toBe(1);
    expect(await booked(w.op.customerId)).toBe(1);
    const b = (await get(`/coreBooking/${r.body.rentalId}`, { key: w.op.adminKey })).body;
    expect(b).toMatchObject({ source: 'widget', transactionId: r.body.transactionId, depositInformation: { amount: 150, status: 'authorized' } });
    // The renter's booking page: issued with its number and https document once /bind confirmed it.
    const page = await issued(r.body.transactionId);
    expect(page.policies[0]).toMatchObject({
      rentalId: r.body.rentalId,
      offeringName: 'Harbor Boat Cover',
      premium: 12.5,
      policyNumber: expect.stringMatching(/^RUW-/),
      documentUrl: expect.stringMatching(/^https:\/\//),
    });
    // The quote was used: a second order with it books without coverage.
    const again = await post('/public/widget/checkout', order(w, window2h(5), { coverage: { quoteId } }), ip());
    expect(again.status, again.text).toBe(201);
    expect(again.body.coverage).toMatchObject({ status: 'not_purchased', reason: 'quote_already_used' });
    expect(again.body.total).toBe(200);
  });

  it('a higher final price stops the payment until the renter accepts it; nothing is written before', async () => {
    const w = await world();
    const win = window2h(4);
    const quoteId = (await card(w, win)).data[0].quoteId;
    const a = await post(`/public/coverage/quotes/${quoteId}/answers`, { answers: { skipper_dob: '1980-05-01', experience: 'none' } }, ip());
    expect(a.body).toMatchObject({ status: 'needs_acceptance', estimate: 12.5, premium: 17.5, priceChange: 'higher' });
    const blocked = await post('/public/widget/checkout', order(w, win, { coverage: { quoteId } }), ip());
    expectError(blocked, 409, 'coverage_price_changed');
    expect(blocked.body).toMatchObject({ quoteId, estimate: 12.5, premium: 17.5 });
    expect(await bookings(w.op.customerId)).toBe(0);
    expect(await sessions(w.op.customerId)).toBe(0);
    expect(await booked(w.op.customerId)).toBe(0);
    // Accepting must name the price shown.
    expectError(await post(`/public/coverage/quotes/${quoteId}/accept`, { premium: 12.5 }, ip()), 409, 'coverage_price_changed');
    expect((await post(`/public/coverage/quotes/${quoteId}/accept`, { premium: 17.5 }, ip())).body.status).toBe('ready');
    const r = await post('/public/widget/checkout', order(w, win, { coverage: { quoteId } }), ip());
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ total: 217.5, amountPaid: 217.5, coverage: { status: 'purchased', premium: 17.5 } });
    expect((await issued(r.body.transactionId)).policies[0].premium).toBe(17.5);
  });

  it('never blocks the booking: a declined, unanswered or other-time card and an unknown quote book without coverage', async () => {
    const w = await world();
    const win = window2h(4);
    const [declined, unanswered, other] = [(await card(w, win)).data[0], (await card(w, win)).data[0], (await card(w, window2h(6))).data[0]];
    const d = await post(`/public/coverage/quotes/${declined.quoteId}/answers`, { answers: { ...SOME, prior_claims: true } }, ip());
    expect(d.body).toMatchObject({ status: 'declined', reason: expect.stringMatching(/recent claim/) });
    expect((await post(`/public/coverage/quotes/${other.quoteId}/answers`, { answers: SOME }, ip())).body.status).toBe('ready');
    const cases: [string, RegExp][] = [
      [declined.quoteId, /^declined: A recent claim/],
      [unanswered.quoteId, /^questions_unanswered$/],
      [other.quoteId, /^booking_differs_from_quote$/],
      ['cq_unknown_000000000000', /^unknown_quote$/],
    ];
    for (const [i, [quoteId, reason]] of cases.entries()) {
      const r = await post('/public/widget/checkout', order(w, window2h(8 + i), { coverage: { quoteId } }), ip());
      expect(r.status, r.text).toBe(201);
      expect(r.body.coverage.status).toBe('not_purchased');
      expect(r.body.coverage.reason).toMatch(reason);
      expect(r.body).toMatchObject({ total: 200, amountPaid: 200 });
    }
    expect(await bookings(w.op.customerId)).toBe(4);
    const none = await post('/public/widget/checkout', order(w, window2h(13)), ip());
    expect(none.body.coverage).toEqual({ status: 'not_requested', reason: null, quoteId: null, policyId: null, premium: null, currency: null });
  });

  it('with the underwriter down the widget shows no card and books at once', async () => {
    const w = await world({ behaviour: 'down' });
    const win = window2h(4);
    const q = await card(w, win);
    expect(q.data).toEqual([]);
    expect(q.unavailable).toEqual([expect.objectContaining({ offeringId: w.offeringId, reason: expect.stringMatching(/^http_error/) })]);
    const r = await post('/public/widget/checkout', order(w, win), ip());
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'confirmed', total: 200, coverage: { status: 'not_requested' } });
  });

  it('a gift card pays part of the rental plus premium; the card the rest', async () => {
    const w = await world();
    const win = window2h(4);
    const code = `COVER${Date.now().toString(36).toUpperCase()}`;
    const gc = await post(
      '/promoGiftCards',
      { customerId: w.op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { $Discount: 205, type: 'gift_card' } },
      { key: w.op.adminKey },
    );
    expect(gc.status, gc.text).toBe(201);
    const quoteId = (await card(w, win)).data[0].quoteId;
    expect((await post(`/public/coverage/quotes/${quoteId}/answers`, { answers: SOME }, ip())).body.status).toBe('ready');
    const r = await post('/public/widget/checkout', order(w, win, { promoCode: code, coverage: { quoteId } }), ip());
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ total: 212.5, amountPaid: 212.5, coverage: { status: 'purchased', premium: 12.5 } });
    const balance = await get(`/promoGiftCards/balance?customerId=${w.op.customerId}&promoCode=${code}`, { key: w.op.adminKey });
    expect(balance.body.balance).toBe(0);
    await issued(r.body.transactionId);
  });
});
