import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { api, db, expectError, get, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { coveragePolicies, coverageQuotes } from '../../../src/db/schema/coverage';
import { simPaymentIntents } from '../../../src/db/schema/payments';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { locations } from '../../../src/db/schema/locations';
import { EXPERT, SOME, bearer, bookWith, buyCoverage, installNetwork, quote, restoreNetwork, window2h, world } from './helpers';
import { at } from '../bookings/factories';

beforeEach(installNetwork);
afterEach(restoreNetwork);

const k = (w: { op: { adminKey: string } }) => ({ key: w.op.adminKey });

describe('Coverage quotes', () => {
  it('quotes without renter identity: a card with the pinned, sanitised questions and the deposit effect', async () => {
    const w = await world({ behaviour: 'deposit=reduce_by_percent:50' });
    const win = window2h();
    const r = await quote(w, win);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unavailable).toEqual([]);
    const card = r.body.data[0];
    expect(card).toMatchObject({
      offeringId: w.offeringId,
      offering: { name: 'Harbor Boat Cover', supportEmail: 'claims@harbor-cover.test' },
      status: 'quoted',
      currency: 'usd',
      estimate: 12.5,
      premium: 12.5,
      priceChange: 'none',
      depositEffect: 'reduce_by_percent',
      depositEffectValue: 50,
      deposit: { withoutCoverage: 300, withCoverage: 150 },
      answersNeeded: true,
      startTime: win.startTime,
      endTime: win.endTime,
      quantity: 1,
    });
    expect(card.questions.map((q: any) => q.type)).toEqual(['date', 'dropdown', 'text', 'number', 'multiselect', 'address', 'checkbox', 'notice']);
    expect(card.questions.find((q: any) => q.id === 'license_number')).toMatchObject({
      pattern: '[A-Z]{2}[0-9]{6}',
      showIf: { field: 'experience', equals: 'expert' },
    });
    const sent = JSON.parse(w.host.calls('quote')[0].body);
    expect(sent).toMatchObject({
      currency: 'usd',
      location: { country: 'US' },
      product: { inventoryId: w.item.id, quantity: 1 },
      window: { start: win.startTime },
    });
    expect(JSON.stringify(sent)).not.toMatch(/Rita|renter|email/i);
    // The schema is fetched once per version and cached: a second quote asks /quote only.
    await quote(w, window2h(4));
    expect(w.host.calls('schema')).toHaveLength(1);
    expect(w.host.calls('quote')).toHaveLength(2);
    expect((await get(`/coverage/quotes/${card.quoteId}`, k(w))).body).toMatchObject({ quoteId: card.quoteId, status: 'quoted' });

    await checkSecurity(w.op, { method: 'POST', path: '/coverage/quotes', body: { inventoryId: w.item.id, ...win }, otherStatus: 404 });
    await checkSecurity(w.op, { method: 'GET', path: `/coverage/quotes/${card.quoteId}`, otherStatus: 404 });
    await checkSecurity(w.op, { method: 'POST', path: `/coverage/quotes/${card.quoteId}/answers`, body: { answers: SOME }, otherStatus: 404 });
    await checkSecurity(w.op, { method: 'POST', path: `/coverage/quotes/${card.quoteId}/accept`, body: { premium: 1 }, otherStatus: 404 });
  });

  it('is not asked where the location country is not licensed or the currency not priced', async () => {
    const w = await world();
    await db()
      .update(locations)
      .set({ details: { country: 'BR' } })
      .where(eq(locations.id, w.op.locationId));
    let r = await quote(w);
    expect(r.body.data).toEqual([]);
    expect(r.body.unavailable[0].reason).toBe('country_not_licensed: BR');
    // The country from the address when details.country is unset.
    await db().update(locations).set({ details: {}, address: '1 Ocean Drive, Miami, FL 33139, USA' }).where(eq(locations.id, w.op.locationId));
    expect((await quote(w)).body.data).toHaveLength(1);
    await db().update(locations).set({ currency: 'cad' }).where(eq(locations.id, w.op.locationId));
    r = await quote(w);
    expect(r.body.unavailable[0].reason).toBe('currency_not_priced: cad');
    // The partner's switch off: no card either.
    await db().update(locations).set({ currency: 'usd' }).where(eq(locations.id, w.op.locationId));
    await patch(`/partners/coverage/offerings/${w.offeringId}`, { enabled: false }, bearer(w.partner.token));
    expect((await quote(w)).body.unavailable[0].reason).toBe('offering_unavailable');
    expect(w.host.calls('quote')).toHaveLength(1);
  });

  it('a slow, failing or malformed quote shows no card, within the offering timeout (measured)', async () => {
    const w = await world({ behaviour: 'slow-quote=4000', body: { quoteTimeoutMs: 400 } });
    const t0 = Date.now();
    const r = await quote(w);
    const took = Date.now() - t0;
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.unavailable[0].reason).toMatch(/^timeout: no answer within 400 ms/);
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(3000);
    for (const [behaviour, reason] of [
      ['string-premium', /quote_rejected: premium is not a JSON number/],
      ['deposit=reduce_by', /quote_rejected: depositEffect reduce_by without a numeric depositEffectValue/],
      ['deposit=reduce_to', /quote_rejected: depositEffect reduce_to without/],
      ['deposit=waive', null],
      ['error-quote', /^http_error: HTTP 500/],
      ['down', /^http_error: HTTP 503/],
      ['schema=hostile', /schema_refused: the schema has 13 drawable fields|schema_refused: the pattern of code has a nested quantifier/],
    ] as const) {
      w.host.behave(behaviour);
      const q = await quote(w, window2h(5));
      if (reason) {
        expect(q.body.data, behaviour).toEqual([]);
        expect(q.body.unavailable[0].reason, behaviour).toMatch(reason);
      } else expect(q.body.data[0]).toMatchObject({ depositEffect: 'waive', deposit: { withoutCoverage: 300, withCoverage: 0 } });
    }
    const calls = await get(`/partners/coverage/offerings/${w.offeringId}/calls?limit=100`, bearer(w.partner.token));
    expect(calls.status).toBe(200);
    expect(calls.body.data.some((c: any) => c.endpoint === 'quote' && c.outcome === 'timeout' && c.durationMs >= 390)).toBe(true);
    expect(calls.body.data.some((c: any) => c.endpoint === 'quote:rejected' && /JSON number/.test(c.error))).toBe(true);
  });

  it('sanitises schemas: unsupported types dropped, tags stripped, a nested-quantifier pattern refused', async () => {
    const { sanitiseSchema, hasNestedQuantifier } = await import('../../../src/modules/coverage/service');
    const clean = sanitiseSchema({
      fields: [
        { id: 'name', type: 'text', label: '<b>Name</b><script>alert(1)</script>', required: true, help: '<img src=x onerror=alert(1)>Your name' },
        { id: 'sig', type: 'signature_pad', label: 'Sign' },
        { id: 'after', type: 'text', label: 'After signing', showIf: { field: 'sig', equals: 'x' } },
        { id: 'pick', type: 'dropdown', label: 'Pick', options: ['a', { value: 'b', label: '<i>B</i>' }] },
        { id: 'ack', type: 'notice', label: 'Terms', text: '<p>Read <a href="javascript:x">this</a></p>', required: true },
      ],
    });
    expect(clean.ok).toBe(true);
    if (!clean.ok) return;
    expect(clean.fields.map((f) => f.id)).toEqual(['name', 'pick', 'ack']);
    expect(clean.fields[0]).toMatchObject({ label: 'Name', help: 'Your name' });
    expect(clean.fields[1].options).toEqual([
      { value: 'a', label: 'a' },
      { value: 'b', label: 'B' },
    ]);
    expect(clean.fields[2]).toMatchObject({ required: false, text: 'Read this' });
    expect(clean.dropped.map((d) => d.id)).toEqual(['sig', 'after']);
    for (const p of ['(a+)+', '(\\d*)*$', '([a-z]+){2,}', '((ab)+c)*', '(?:x+)+y']) expect(hasNestedQuantifier(p), p).toBe(true);
    for (const p of ['[A-Z]{2}[0-9]{6}', '(ab)+', '(a+)?', '\\(a+\\)+', '[(a+)+]', 'a+b*c{2,}']) expect(hasNestedQuantifier(p), p).toBe(false);
    expect(sanitiseSchema({ fields: [{ id: 'x', type: 'text', label: 'X', pattern: '(a+)+$' }] })).toMatchObject({ ok: false });
    expect(sanitiseSchema({ fields: Array.from({ length: 13 }, (_, i) => ({ id: `q${i}`, type: 'checkbox', label: `Q${i}` })) })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/at most 12/),
    });
    expect(sanitiseSchema({ fields: Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, type: 'checkbox', label: `Q${i}` })) }).ok).toBe(true);
  });
});

describe('Answers and requote', () => {
  it('validates answers against the pinned schema before /requote (required, minAgeYears, pattern, options); hidden questions are not sent', async () => {
    const w = await world();
    const win = { startTime: at('America/New_York', 3, '10:00'), endTime: at('America/New_York', 3, '12:00') };
    const card = (await quote(w, win)).body.data[0];
    const send = (answers: Record<string, unknown>) => post(`/coverage/quotes/${card.quoteId}/answers`, { answers }, k(w));
    let r = await send({});
    expectError(r, 400, 'validation_failed');
    expect(r.body.details.map((d: any) => d.field).sort()).toEqual(['answers.experience', 'answers.skipper_dob']);
    const rentalDay = new Date(Date.parse(win.startTime) - 4 * 3600_000).toISOString().slice(0, 10);
    const twentyYearsAgo = `${Number(rentalDay.slice(0, 4)) - 21}${rentalDay.slice(4)}`;
    const aDayTooYoung = new Date(Date.parse(`${twentyYearsAgo}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    r = await send({ skipper_dob: aDayTooYoung, experience: 'some' });
    expectError(r, 400, 'validation_failed');
    expect(r.body.details[0]).toMatchObject({ field: 'answers.skipper_dob', message: expect.stringMatching(/21 years/) });
    r = await send({ skipper_dob: '1990-02-30', experience: 'some' });
    expect(r.body.details[0].message).toMatch(/YYYY-MM-DD/);
    r = await send({ skipper_dob: '1980-01-01', experience: 'expert', license_number: 'fl12' });
    expect(r.body.details[0]).toMatchObject({ field: 'answers.license_number', message: 'does not have the expected format' });
    r = await send({ skipper_dob: '1980-01-01', experience: 'expert' });
    expect(r.body.details[0]).toMatchObject({ field: 'answers.license_number', message: 'is required' });
    r = await send({ skipper_dob: '1980-01-01', experience: 'sailor' });
    expect(r.body.details[0].field).toBe('answers.experience');
    r = await send({ ...SOME, passengers: 40, activities: ['fishing', 'fishing'], shoe_size: 42 });
    expect(r.body.details.map((d: any) => d.field).sort()).toEqual(['answers.activities', 'answers.passengers', 'answers.shoe_size']);
    r = await send({ ...SOME, home_address: { line1: '1 Main St', city: 'Miami', country: 'USA' } });
    expect(r.body.details[0].field).toBe('answers.home_address');
    expect(w.host.calls('requote')).toHaveLength(0);

    // A license number given while "experience" is not "expert" was never shown: it is not sent.
    r = await send({ ...SOME, license_number: 'FL123456', activities: ['fishing'], home_address: { line1: '1 Main St', city: 'Miami', country: 'us' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', premium: 12.5, estimate: 12.5, priceChange: 'none', answersNeeded: false });
    const sent = JSON.parse(w.host.calls('requote')[0].body);
    expect(sent.answers).toEqual({
      skipper_dob: '1980-05-01',
      experience: 'some',
      activities: ['fishing'],
      home_address: { line1: '1 Main St', city: 'Miami', country: 'US' },
    });
    expect(sent.quoteId).toMatch(/^rq_/);
  });

  it('a lower final price proceeds at the new price; a higher one waits for explicit acceptance; declines and failures remove the coverage', async () => {
    const w = await world();
    const card = async () => (await quote(w)).body.data[0];
    const answer = (id: string, answers: Record<string, unknown>) => post(`/coverage/quotes/${id}/answers`, { answers }, k(w));

    const lower = await answer((await card()).quoteId, EXPERT);
    expect(lower.body).toMatchObject({ status: 'ready', estimate: 12.5, premium: 10, priceChange: 'lower' });

    const higherCard = await card();
    const higher = await answer(higherCard.quoteId, { skipper_dob: '1980-05-01', experience: 'none' });
    expect(higher.body).toMatchObject({ status: 'needs_acceptance', estimate: 12.5, premium: 17.5, priceChange: 'higher' });
    // Paying is blocked until the renter accepts; the booking is not written.
    const blocked = await post('/coverage/checkout', bookWith(w, window2h(), higherCard.quoteId), k(w));
    expectError(blocked, 409, 'coverage_price_changed');
    expect(blocked.body).toMatchObject({ estimate: 12.5, premium: 17.5 });
    expectError(await post(`/coverage/quotes/${higherCard.quoteId}/accept`, { premium: 12.5 }, k(w)), 409, 'coverage_price_changed');
    const accepted = await post(`/coverage/quotes/${higherCard.quoteId}/accept`, { premium: 17.5 }, k(w));
    expect(accepted.body).toMatchObject({ status: 'ready', premium: 17.5 });
    expectError(await post(`/coverage/quotes/${higherCard.quoteId}/accept`, { premium: 17.5 }, k(w)), 409, 'invalid_state');

    const declined = await answer((await card()).quoteId, { ...SOME, prior_claims: true });
    expect(declined.body).toMatchObject({ status: 'declined', reason: expect.stringMatching(/recent claim/) });
    expectError(await answer(declined.body.quoteId, SOME), 409, 'invalid_state');

    const c1 = await card();
    w.host.behave('error-requote');
    const failed = await answer(c1.quoteId, SOME);
    expect(failed.body).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^requote_failed: http_error/) });
    w.host.behave(undefined);
    const c2 = await card();
    w.host.behave('slow-requote=7000');
    const t0 = Date.now();
    const slow = await answer(c2.quoteId, SOME);
    expect(slow.body).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^requote_failed: timeout/) });
    expect(Date.now() - t0).toBeLessThan(6500);
    w.host.behave(undefined);
    // A decline or failure leaves the booking free to go on without coverage.
    const b = await post('/coverage/checkout', bookWith(w, window2h(), failed.body.quoteId), k(w));
    expect(b.status, b.text).toBe(201);
    expect(b.body.coverage).toMatchObject({ status: 'not_purchased', reason: expect.stringMatching(/^requote_failed/) });
  });

  it('an expired quote answers 410', async () => {
    const w = await world();
    const c = (await quote(w)).body.data[0];
    await db()
      .update(coverageQuotes)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(coverageQuotes.id, c.quoteId));
    expectError(await post(`/coverage/quotes/${c.quoteId}/answers`, { answers: SOME }, k(w)), 410, 'expired');
    // Expired while awaiting the renter's acceptance: the booking goes on without coverage.
    await db().update(coverageQuotes).set({ status: 'needs_acceptance', premium: 2000 }).where(eq(coverageQuotes.id, c.quoteId));
    const b = await post('/coverage/checkout', bookWith(w, window2h(), c.quoteId), k(w));
    expect(b.status, b.text).toBe(201);
    expect(b.body.coverage).toMatchObject({ status: 'not_purchased', reason: 'quote_expired' });
  });
});

describe('Checkout with coverage', () => {
  it('one payment covers rental plus premium; the deposit follows the deposit effect; the policy is written with the booking', async () => {
    const w = await world({ behaviour: 'deposit=reduce_by_percent:50' });
    const { policyId, booking } = await buyCoverage(w, { answers: EXPERT });
    expect(booking.order.total).toBe(210); // $200 rental + $10.00 final premium
    expect(booking.pricing).toMatchObject({ total: 210, feeTotal: 10, subtotal: 200, amountPaid: 210, balanceDue: 0 });
    expect(booking.order.amountPaid).toBe(210);
    expect(booking.coverage).toMatchObject({ status: 'purchased', premium: 10, currency: 'usd', policyId });
    const pi = await db().select().from(simPaymentIntents).where(eq(simPaymentIntents.id, booking.payment.paymentIntentId)).get();
    expect(pi!.amount).toBe(21000);
    expect(booking.deposit).toMatchObject({ amount: 150, status: 'authorized' });
    const depositPi = await db().select().from(simPaymentIntents).where(eq(simPaymentIntents.id, booking.deposit.paymentIntentId)).get();
    expect(depositPi!.amount).toBe(15000);
    const premium = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.rentalId, booking.rentalId), eq(ledgerEntries.entryType, 'coverage_premium')))
      .all();
    expect(premium).toHaveLength(1);
    expect(premium[0]).toMatchObject({ amount: 1000, affectsBalance: true, reference: policyId });
    const policy = await db().select().from(coveragePolicies).where(eq(coveragePolicies.id, policyId)).get();
    expect(policy).toMatchObject({ rentalId: booking.rentalId, transactionId: booking.order.transactionId, premium: 1000 });
    await checkSecurity(w.op, { method: 'POST', path: '/coverage/checkout', body: bookWith(w, window2h(6), null) });
  });

  it('never blocks the rental: unknown, used, unanswered, mismatched, pay-later quotes and a disabled offering book without coverage', async () => {
    const w = await world();
    const book = async (quoteId: string | null, win = window2h(), extra: Record<string, unknown> = {}) => {
      const r = await post('/coverage/checkout', bookWith(w, win, quoteId, extra), k(w));
      expect(r.status, r.text).toBe(201);
      return r.body;
    };
    expect((await book(null, window2h(11))).coverage).toMatchObject({ status: 'not_requested' });
    expect((await book('cq_does_not_exist', window2h(12))).coverage).toMatchObject({ status: 'not_purchased', reason: 'unknown_quote' });
    const unanswered = (await quote(w, window2h(13))).body.data[0];
    const r1 = await book(unanswered.quoteId, window2h(13));
    expect(r1.coverage.reason).toBe('questions_unanswered');
    expect(r1.order.total).toBe(200);
    const c = (await quote(w, window2h(2))).body.data[0];
    await post(`/coverage/quotes/${c.quoteId}/answers`, { answers: SOME }, k(w));
    expect((await book(c.quoteId, window2h(14))).coverage.reason).toBe('booking_differs_from_quote');
    // Quoted for one boat, booked for two: the rental goes ahead without the coverage.
    const one = (await quote(w, window2h(15))).body.data[0];
    await post(`/coverage/quotes/${one.quoteId}/answers`, { answers: SOME }, k(w));
    const two = await book(one.quoteId, window2h(15), { rentalDetails: { inventoryId: w.item.id, ...window2h(15), quantity: 2 } });
    expect(two.coverage.reason).toBe('booking_differs_from_quote');
    expect(two.order.total).toBe(400);
    const later = { paymentMethodId: undefined, paymentPlan: { type: 'pay_later' }, depositInformation: { amount: 0, required: false } };
    expect((await book(c.quoteId, window2h(2), later)).coverage.reason).toMatch(/^not_paid_now/);
    // A declined card writes nothing and leaves the quote buyable.
    const declined = await post('/coverage/checkout', bookWith(w, window2h(2), c.quoteId, { paymentMethodId: 'pm_card_chargeDeclined' }), k(w));
    expectError(declined, 402, 'payment_failed');
    expect((await db().select().from(coverageQuotes).where(eq(coverageQuotes.id, c.quoteId)).get())!.status).toBe('ready');
    const bought = await book(c.quoteId, window2h(2));
    expect(bought.coverage.status).toBe('purchased');
    expect((await book(c.quoteId, window2h(2))).coverage.reason).toBe('quote_already_used');
    // The operator stops offering the coverage between quote and checkout.
    const c2 = (await quote(w, window2h(7))).body.data[0];
    await post(`/coverage/quotes/${c2.quoteId}/answers`, { answers: SOME }, k(w));
    const en = (await get('/coverage/enablements', k(w))).body.data[0];
    await api('DELETE', `/coverage/enablements/${en.enablementId}`, k(w));
    expect((await book(c2.quoteId, window2h(7))).coverage.reason).toBe('offering_unavailable');
  });

  it('the underwriter down: no card, and the checkout completes', async () => {
    const w = await world({ behaviour: 'down' });
    const q = await quote(w, window2h(4));
    expect(q.body.data).toEqual([]);
    const r = await post('/coverage/checkout', bookWith(w, window2h(4), null), k(w));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'confirmed', coverage: { status: 'not_requested' } });
    expect(r.body.order.total).toBe(200);
  });

  it('one purchase per quote under parallel checkouts (and the same Idempotency-Key replays)', async () => {
    const w = await world();
    const c = (await quote(w, window2h(9))).body.data[0];
    await post(`/coverage/quotes/${c.quoteId}/answers`, { answers: SOME }, k(w));
    const win = window2h(9);
    const results = await Promise.all(Array.from({ length: 3 }, () => post('/coverage/checkout', bookWith(w, win, c.quoteId), k(w))));
    for (const r of results) expect(r.status, r.text).toBe(201);
    expect(results.filter((r) => r.body.coverage.status === 'purchased')).toHaveLength(1);
    const policies = await db().select().from(coveragePolicies).where(eq(coveragePolicies.quoteId, c.quoteId)).all();
    expect(policies).toHaveLength(1);
    const ledger = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.customerId, w.op.customerId), eq(ledgerEntries.entryType, 'coverage_premium')))
      .all();
    expect(ledger).toHaveLength(1);
    // Idempotency-Key: a retry of the same checkout answers the first result again.
    const c2 = (await quote(w, window2h(10))).body.data[0];
    await post(`/coverage/quotes/${c2.quoteId}/answers`, { answers: SOME }, k(w));
    const headers = { 'idempotency-key': `cov-${c2.quoteId}` };
    const body = bookWith(w, window2h(10), c2.quoteId);
    const first = await api('POST', '/coverage/checkout', { body, key: w.op.adminKey, headers });
    const again = await api('POST', '/coverage/checkout', { body, key: w.op.adminKey, headers });
    expect(first.status, first.text).toBe(201);
    expect(again.status, again.text).toBe(201);
    expect(again.body.coverage.policyId).toBe(first.body.coverage.policyId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('Coverage in the widget (public)', () => {
  it('quotes a public item, answers, accepts and books with coverage; the renter page shows the policy', async () => {
    const w = await world();
    const win = window2h(3);
    expectError(await post('/public/coverage/quotes', { customerId: 'cus_nobody', inventoryId: w.item.id, ...win }), 404);
    const q = await post('/public/coverage/quotes', { customerId: w.op.customerId, inventoryId: w.item.id, ...win });
    expect(q.status, q.text).toBe(200);
    const id = q.body.data[0].quoteId;
    expect((await get(`/public/coverage/quotes/${id}`)).body.status).toBe('quoted');
    const a = await post(`/public/coverage/quotes/${id}/answers`, { answers: { skipper_dob: '1980-05-01', experience: 'none' } });
    expect(a.body.status).toBe('needs_acceptance');
    const blocked = await post('/public/coverage/checkout', {
      customerId: w.op.customerId,
      inventoryId: w.item.id,
      ...win,
      quantity: 1,
      customerInfo: { firstName: 'Wes', lastName: 'Widget', email: 'wes@renter.test' },
      paymentMethodId: 'pm_card_visa',
      coverage: { quoteId: id },
    });
    expectError(blocked, 409, 'coverage_price_changed');
    expect((await post(`/public/coverage/quotes/${id}/accept`, { premium: 17.5 })).body.status).toBe('ready');
    const b = await post('/public/coverage/checkout', {
      customerId: w.op.customerId,
      inventoryId: w.item.id,
      ...win,
      quantity: 1,
      customerInfo: { firstName: 'Wes', lastName: 'Widget', email: 'wes@renter.test' },
      paymentMethodId: 'pm_card_visa',
      expectedTotal: 200,
      coverage: { quoteId: id },
    });
    expect(b.status, b.text).toBe(201);
    expect(b.body).toMatchObject({ total: 217.5, amountPaid: 217.5, coverage: { status: 'purchased', premium: 17.5 } });
    const page = await get(`/public/coverage?TransactionId=${b.body.transactionId}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.policies[0]).toMatchObject({ offeringName: 'Harbor Boat Cover', supportEmail: 'claims@harbor-cover.test', premium: 17.5 });
    expectError(await get('/public/coverage?TransactionId=txn_unknown'), 404);
    const bad = await api('GET', `/public/coverage?TransactionId=${b.body.transactionId}`, { key: 'brk_not_a_real_key_000000000000000000000' });
    expectError(bad, 401, 'unauthenticated');
  });
});
