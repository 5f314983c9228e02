import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { payments } from '../../../src/adapters/payments';
import { bookings, deposits, ledgerEntries } from '../../../src/db/schema/bookings';
import { webhookEvents, messageOutbox } from '../../../src/db/schema/events';
import { auditLogs } from '../../../src/db/schema/accounts';
import { dayAt, makeBooking, makeItem, makeLocation } from '../schedule/factories';

async function setup() {
  const op = await createOperator();
  const item = await makeItem(op);
  const rental = await makeBooking(op, { item, start: dayAt(2), customerInfo: { firstName: 'Dora', lastName: 'Deposit', email: 'dora@renter.test' } });
  return { op, item, rental };
}

const authorizeCard = (op: Operator, rentalId: string, extra: Record<string, unknown> = {}) =>
  post(
    '/preAuth/authorize-deposit',
    { rentalId, authorizeAmount: 250, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa', ...extra },
    { key: op.adminKey },
  );

const ledgerOf = (rentalId: string) => db().select().from(ledgerEntries).where(eq(ledgerEntries.rentalId, rentalId)).all();

describe('POST /preAuth/authorize-deposit', () => {
  it("holds a card deposit, writes a memo ledger entry and the rental's depositInformation", async () => {
    const { op, rental } = await setup();
    const r = await authorizeCard(op, rental.id, { notes: 'Jet ski', customerId: op.customerId });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId: rental.id,
      status: 'authorized',
      method: 'card',
      amount: 250,
      capturedAmount: 0,
      currency: 'usd',
      notes: 'Jet ski',
      clientSecret: null,
    });
    expect(r.body.provider).toMatchObject({ status: 'requires_capture', amountCapturable: 250, captureMethod: 'manual' });
    const ledger = await ledgerOf(rental.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ entryType: 'deposit_hold', amount: 25000, affectsBalance: false, reference: r.body.paymentIntentId });
    const b = await db().select().from(bookings).where(eq(bookings.id, rental.id)).get();
    expect(b!.depositInformation).toMatchObject({ paymentIntentId: r.body.paymentIntentId, status: 'authorized', amount: 250 });
    expect(b!.version).toBe(1);
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, op.customerId), eq(auditLogs.action, 'deposit.authorize')))
      .all();
    expect(audit).toHaveLength(1);
  });

  it('answers 402 for a declined card and for one that needs authentication (with its client secret)', async () => {
    const { op, rental } = await setup();
    const declined = await authorizeCard(op, rental.id, { paymentMethodId: 'pm_card_chargeDeclined' });
    expectError(declined, 402, 'payment_failed');
    expect(declined.body.declineCode).toBe('card_declined');
    const auth = await authorizeCard(op, rental.id, { paymentMethodId: 'pm_card_authenticationRequired' });
    expectError(auth, 402, 'payment_failed');
    expect(auth.body).toMatchObject({ declineCode: 'authentication_required' });
    expect(auth.body.clientSecret).toMatch(/_secret_/);
    expect(await db().select().from(deposits).where(eq(deposits.rentalId, rental.id)).all()).toEqual([]);
    expect(await ledgerOf(rental.id)).toEqual([]);
  });

  it('validates: required fields, method-specific fields, unknown method, foreign rental and customerId', async () => {
    const { op, rental } = await setup();
    const key = op.adminKey;
    expectError(await post('/preAuth/authorize-deposit', {}, { key }), 400, 'validation_failed');
    expectError(
      await post('/preAuth/authorize-deposit', { rentalId: rental.id, authorizeAmount: 100, paymentMethodType: 'card' }, { key }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/preAuth/authorize-deposit', { rentalId: rental.id, authorizeAmount: 100, paymentMethodType: 'terminal' }, { key }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/preAuth/authorize-deposit', { rentalId: rental.id, authorizeAmount: 100, paymentMethodType: 'bitcoin' }, { key }),
      400,
      'validation_failed',
    );
    expectError(await authorizeCard(op, rental.id, { authorizeAmount: -5 }), 400);
    expectError(await authorizeCard(op, rental.id, { authorizeAmount: 10.555 }), 400);
    expectError(await authorizeCard(op, rental.id, { paymentMethodId: 'pm_nonsense' }), 400, 'bad_request');
    expectError(await authorizeCard(op, 'bk_nope'), 404, 'not_found');
    const intruder = await otherOperator();
    expectError(await authorizeCard(op, rental.id, { customerId: intruder.customerId }), 403, 'forbidden');
    expectError(await authorizeCard(op, rental.id, { locationId: intruder.locationId }), 404);
  });

  it('refuses a deposit on a cancelled rental with 409', async () => {
    const { op, item } = await setup();
    const gone = await makeBooking(op, { item, start: dayAt(7), status: 'cancelled' });
    expectError(await authorizeCard(op, gone.id), 409, 'invalid_state');
  });

  it('passes the security checks', async () => {
    const { op, rental } = await setup();
    await checkSecurity(op, {
      method: 'POST',
      path: '/preAuth/authorize-deposit',
      body: { rentalId: rental.id, authorizeAmount: 10, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa' },
      otherStatus: 404,
    });
  });
});

describe('terminal deposits and POST /preAuth/post-deposit', () => {
  it('creates a pending reader hold that post-deposit records once the simulated reader approved it', async () => {
    const { op, rental } = await setup();
    const a = await post(
      '/preAuth/authorize-deposit',
      { rentalId: rental.id, authorizeAmount: 300, paymentMethodType: 'terminal', readerId: 'tmr_simulated' },
      { key: op.adminKey },
    );
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ status: 'pending', method: 'terminal', readerId: 'tmr_simulated' });
    expect(a.body.clientSecret).toMatch(/_secret_/);
    expect(a.body.provider.status).toBe('requires_capture');
    expect(await ledgerOf(rental.id)).toEqual([]);
    const p = await post('/preAuth/post-deposit', { rentalId: rental.id, intentId: a.body.paymentIntentId, authorizeAmount: 300 }, { key: op.adminKey });
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ status: 'authorized', depositId: a.body.depositId, amount: 300 });
    const again = await post('/preAuth/post-deposit', { rentalId: rental.id, intentId: a.body.paymentIntentId }, { key: op.adminKey });
    expect(again.body.status).toBe('authorized');
    expect((await ledgerOf(rental.id)).map((l) => l.entryType)).toEqual(['deposit_hold']);
  });

  it('answers 400 when the reader payment did not succeed, 402 when it was declined, 400 for an unknown reader', async () => {
    const { op, rental } = await setup();
    const idle = await post(
      '/preAuth/authorize-deposit',
      { rentalId: rental.id, authorizeAmount: 50, paymentMethodType: 'card_present', readerId: 'tmr_simulated_idle' },
      { key: op.adminKey },
    );
    expect(idle.body.provider.status).toBe('requires_payment_method');
    const p = await post('/preAuth/post-deposit', { rentalId: rental.id, intentId: idle.body.paymentIntentId }, { key: op.adminKey });
    expectError(p, 400, 'payment_not_successful');
    expect(p.body.providerStatus).toBe('requires_payment_method');
    const declined = await post(
      '/preAuth/authorize-deposit',
      { rentalId: rental.id, authorizeAmount: 50, paymentMethodType: 'terminal', readerId: 'tmr_simulated_declined' },
      { key: op.adminKey },
    );
    expectError(declined, 402, 'payment_failed');
    expectError(
      await post(
        '/preAuth/authorize-deposit',
        { rentalId: rental.id, authorizeAmount: 50, paymentMethodType: 'terminal', readerId: 'tmr_kitchen' },
        { key: op.adminKey },
      ),
      400,
      'bad_request',
    );
  });

  it("refuses a mismatching amount, another rental's intent, unknown intents and missing fields", async () => {
    const { op, item, rental } = await setup();
    const other = await makeBooking(op, { item, start: dayAt(5) });
    const a = await post(
      '/preAuth/authorize-deposit',
      { rentalId: rental.id, authorizeAmount: 300, paymentMethodType: 'terminal', readerId: 'tmr_simulated' },
      { key: op.adminKey },
    );
    expectError(
      await post('/preAuth/post-deposit', { rentalId: rental.id, intentId: a.body.paymentIntentId, authorizeAmount: 299 }, { key: op.adminKey }),
      400,
    );
    expectError(await post('/preAuth/post-deposit', { rentalId: other.id, intentId: a.body.paymentIntentId }, { key: op.adminKey }), 400);
    expectError(await post('/preAuth/post-deposit', { rentalId: rental.id, intentId: 'pi_sim_unknown' }, { key: op.adminKey }), 404);
    expectError(await post('/preAuth/post-deposit', {}, { key: op.adminKey }), 400, 'validation_failed');
    const intruder = await otherOperator();
    const foreign = await makeBooking(intruder, { item: await makeItem(intruder), start: dayAt(3) });
    expectError(await post('/preAuth/post-deposit', { rentalId: foreign.id, intentId: a.body.paymentIntentId }, { key: intruder.adminKey }), 404);
  });

  it('passes the security checks', async () => {
    const { op, rental } = await setup();
    const a = await post(
      '/preAuth/authorize-deposit',
      { rentalId: rental.id, authorizeAmount: 30, paymentMethodType: 'terminal', readerId: 'tmr_simulated' },
      { key: op.adminKey },
    );
    await checkSecurity(op, {
      method: 'POST',
      path: '/preAuth/post-deposit',
      body: { rentalId: rental.id, intentId: a.body.paymentIntentId },
      otherStatus: 404,
    });
  });
});

describe('POST /preAuth/capture-deposit and /preAuth/release-deposit', () => {
  it('captures part of a hold in dollars, releases the rest, fires payment.completed; a second capture is 400', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    const pi = a.body.paymentIntentId;
    const c = await post(
      '/preAuth/capture-deposit',
      { rentalId: rental.id, paymentIntentId: pi, captureAmount: 80.5, claimType: 'damage', feeInCents: 200 },
      { key: op.adminKey },
    );
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ status: 'partially_captured', capturedAmount: 80.5, claimType: 'damage', releasedAmount: 169.5, feeInCents: 200 });
    expect(c.body.provider).toMatchObject({ status: 'succeeded', amountReceived: 80.5 });
    const ledger = (await ledgerOf(rental.id)).map((l) => [l.entryType, l.amount, l.affectsBalance]);
    expect(ledger).toEqual(
      expect.arrayContaining([
        ['deposit_hold', 25000, false],
        ['deposit_capture', 8050, false],
        ['deposit_release', -16950, false],
      ]),
    );
    const evts = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.customerId, op.customerId), eq(webhookEvents.type, 'payment.completed')))
      .all();
    expect(evts).toHaveLength(1);
    expect(evts[0].payload.data).toMatchObject({ kind: 'deposit_capture', rentalId: rental.id, paymentIntentId: pi, amount: 80.5, amountCents: 8050 });
    const again = await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: pi, captureAmount: 10 }, { key: op.adminKey });
    expectError(again, 400, 'not_capturable');
    expectError(await post('/preAuth/release-deposit', { rentalId: rental.id, paymentIntentId: pi }, { key: op.adminKey }), 400, 'not_releasable');
  });

  it('captures a whole hold; refuses more than the hold', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    expectError(
      await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 250.01 }, { key: op.adminKey }),
      400,
      'not_capturable',
    );
    const c = await post(
      '/preAuth/capture-deposit',
      { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 250 },
      { key: op.adminKey },
    );
    expect(c.body).toMatchObject({ status: 'captured', capturedAmount: 250, releasedAmount: 0 });
  });

  it('releases a hold and e-mails the renter when customerId and locationId are given; capture after release is 400', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    const pi = a.body.paymentIntentId;
    expectError(await post('/preAuth/release-deposit', { rentalId: rental.id, paymentIntentId: pi, amount: 100 }, { key: op.adminKey }), 400);
    const r = await post(
      '/preAuth/release-deposit',
      { rentalId: rental.id, paymentIntentId: pi, amount: 250, customerId: op.customerId, locationId: op.locationId },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'released', notified: true, notifiedTo: 'dora@renter.test' });
    expect(r.body.provider.status).toBe('canceled');
    expect(r.body.releasedAt).toBeTruthy();
    const mails = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.customerId, op.customerId), eq(messageOutbox.template, 'deposit.released')))
      .all();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: 'email', to: 'dora@renter.test' });
    expect(mails[0].body).toContain('250.00 USD');
    expectError(
      await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: pi, captureAmount: 10 }, { key: op.adminKey }),
      400,
      'not_capturable',
    );
    expectError(await post('/preAuth/release-deposit', { rentalId: rental.id, paymentIntentId: pi }, { key: op.adminKey }), 400, 'not_releasable');
    expect((await ledgerOf(rental.id)).map((l) => [l.entryType, l.amount])).toEqual(
      expect.arrayContaining([
        ['deposit_hold', 25000],
        ['deposit_release', -25000],
      ]),
    );
  });

  it('releases without notification when customerId or locationId is missing; refuses a foreign customerId', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    const intruder = await otherOperator();
    expectError(
      await post(
        '/preAuth/release-deposit',
        { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, customerId: intruder.customerId, locationId: op.locationId },
        { key: op.adminKey },
      ),
      403,
      'forbidden',
    );
    const r = await post(
      '/preAuth/release-deposit',
      { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, locationId: op.locationId },
      { key: op.adminKey },
    );
    expect(r.body).toMatchObject({ status: 'released', notified: false, notifiedTo: null });
  });

  it("answers 404 for an unknown intent and 400 for another rental's intent", async () => {
    const { op, item, rental } = await setup();
    const other = await makeBooking(op, { item, start: dayAt(6) });
    const a = await authorizeCard(op, rental.id);
    expectError(
      await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: 'pi_sim_nope', captureAmount: 5 }, { key: op.adminKey }),
      404,
      'not_found',
    );
    expectError(await post('/preAuth/release-deposit', { rentalId: rental.id, paymentIntentId: 'pi_sim_nope' }, { key: op.adminKey }), 404, 'not_found');
    expectError(
      await post('/preAuth/capture-deposit', { rentalId: other.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 5 }, { key: op.adminKey }),
      400,
    );
    expectError(await post('/preAuth/capture-deposit', {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/preAuth/release-deposit', {}, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('capture needs the payments permission', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    const staff = await op.addUser({ role: 'staff' });
    expectError(
      await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 5 }, { key: staff.key }),
      403,
      'forbidden',
    );
    const cashier = await op.addUser({ role: 'staff', permissions: ['payments'] });
    expect(
      (await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 5 }, { key: cashier.key })).status,
    ).toBe(200);
  });

  it('passes the security checks', async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    await checkSecurity(op, {
      method: 'POST',
      path: '/preAuth/capture-deposit',
      body: { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId, captureAmount: 1 },
      otherStatus: 404,
    });
    await checkSecurity(op, {
      method: 'POST',
      path: '/preAuth/release-deposit',
      body: { rentalId: rental.id, paymentIntentId: a.body.paymentIntentId },
      otherStatus: 404,
    });
  });
});

describe('sync, audit and connection token', () => {
  async function providerOnlyHold(op: Operator, rentalId: string, metadata: Record<string, string> = {}) {
    return payments(env).createPaymentIntent({
      amount: 12_345,
      currency: 'usd',
      paymentMethodId: 'pm_card_visa',
      captureMethod: 'manual',
      confirm: true,
      metadata: { berthCustomerId: op.customerId, rentalId, ...metadata },
    });
  }

  it('records a hold the provider has and Berth lacks; idempotent; 404 for unknown or foreign intents', async () => {
    const { op, rental } = await setup();
    const pi = await providerOnlyHold(op, rental.id);
    const s = await post(`/preAuth/sync-missing-preauth/${pi.id}`, {}, { key: op.adminKey });
    expect(s.status, s.text).toBe(200);
    expect(s.body).toMatchObject({ synced: true, rentalId: rental.id, status: 'authorized', amount: 123.45, method: 'card' });
    const again = await post(`/preAuth/sync-missing-preauth/${pi.id}`, {}, { key: op.adminKey });
    expect(again.body).toMatchObject({ synced: false, depositId: s.body.depositId });
    expectError(await post('/preAuth/sync-missing-preauth/pi_sim_does_not_exist', {}, { key: op.adminKey }), 404);
    const intruder = await otherOperator();
    expectError(await post(`/preAuth/sync-missing-preauth/${pi.id}`, {}, { key: intruder.adminKey }), 404);
    // the synced hold can be captured like any other
    const c = await post('/preAuth/capture-deposit', { rentalId: rental.id, paymentIntentId: pi.id, captureAmount: 23.45 }, { key: op.adminKey });
    expect(c.body.status).toBe('partially_captured');
  });

  it('needs a rental for intents without rental metadata, and refuses automatic-capture intents', async () => {
    const { op, rental } = await setup();
    const bare = await payments(env).createPaymentIntent({ amount: 5000, paymentMethodId: 'pm_card_visa', captureMethod: 'manual', confirm: true });
    expectError(await post(`/preAuth/sync-missing-preauth/${bare.id}`, {}, { key: op.adminKey }), 400, 'validation_failed');
    const ok = await post(`/preAuth/sync-missing-preauth/${bare.id}`, { rentalId: rental.id }, { key: op.adminKey });
    expect(ok.body).toMatchObject({ synced: true, rentalId: rental.id, amount: 50 });
    const auto = await payments(env).createPaymentIntent({
      amount: 5000,
      paymentMethodId: 'pm_card_visa',
      confirm: true,
      metadata: { berthCustomerId: op.customerId, rentalId: rental.id },
    });
    expectError(await post(`/preAuth/sync-missing-preauth/${auto.id}`, {}, { key: op.adminKey }), 400);
  });

  it("audits a rental's holds against the provider and lists untracked ones", async () => {
    const { op, rental } = await setup();
    const a = await authorizeCard(op, rental.id);
    const b = await authorizeCard(op, rental.id, { authorizeAmount: 100 });
    await post('/preAuth/release-deposit', { rentalId: rental.id, paymentIntentId: b.body.paymentIntentId }, { key: op.adminKey });
    // the provider state changes behind Berth's back, and a hold is referenced but not recorded
    await payments(env).capturePaymentIntent(a.body.paymentIntentId, 1000);
    const stray = await providerOnlyHold(op, rental.id);
    await db()
      .update(bookings)
      .set({ depositInformation: { paymentIntentId: stray.id } })
      .where(eq(bookings.id, rental.id));
    const r = await get(`/preAuth/audit-preauths/${rental.id}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    const byIntent = Object.fromEntries(r.body.deposits.map((d: any) => [d.paymentIntentId, d]));
    expect(byIntent[a.body.paymentIntentId]).toMatchObject({ status: 'authorized', expectedStatus: 'partially_captured', inSync: false });
    expect(byIntent[b.body.paymentIntentId]).toMatchObject({ status: 'released', expectedStatus: 'released', inSync: true });
    expect(r.body.untracked).toEqual([{ paymentIntentId: stray.id, provider: expect.objectContaining({ status: 'requires_capture', amount: 123.45 }) }]);
    expect(r.body.totals).toMatchObject({ authorized: 250, released: 100, currency: 'usd' });
    expectError(await get('/preAuth/audit-preauths/bk_nope', { key: op.adminKey }), 404);
  });

  it("hands out a reader connection token, scoped to one of the caller's locations", async () => {
    const { op } = await setup();
    const r = await post('/preAuth/connection-token', {}, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.secret).toMatch(/^pst_sim_/);
    const loc = await makeLocation(op);
    expect((await post('/preAuth/connection-token', { locationId: loc }, { key: op.adminKey })).body.locationId).toBe(loc);
    const intruder = await otherOperator();
    expectError(await post('/preAuth/connection-token', { locationId: intruder.locationId }, { key: op.adminKey }), 404);
  });

  it('passes the security checks', async () => {
    const { op, rental } = await setup();
    const pi = await providerOnlyHold(op, rental.id);
    await checkSecurity(op, { method: 'POST', path: `/preAuth/sync-missing-preauth/${pi.id}`, body: {}, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/preAuth/audit-preauths/${rental.id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: '/preAuth/connection-token', body: { locationId: op.locationId }, otherStatus: 404 });
  });
});
