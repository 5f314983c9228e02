import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { api, db, eventually, expectError, get, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { coveragePolicies } from '../../../src/db/schema/coverage';
import { simTransfers, simPaymentIntents } from '../../../src/db/schema/payments';
import { bookings, ledgerEntries } from '../../../src/db/schema/bookings';
import { messageOutbox } from '../../../src/db/schema/events';
import { createReferenceUnderwriter } from '../../../examples/reference-underwriter/src/underwriter';
import { PLATFORM, bearer, buyCoverage, hmacHex, installNetwork, restoreNetwork, signedMessage, sweepAt, window2h, world, type World } from './helpers';

beforeEach(installNetwork);
afterEach(restoreNetwork);

const k = (w: World) => ({ key: w.op.adminKey });
const policyOf = (id: string) => db().select().from(coveragePolicies).where(eq(coveragePolicies.id, id)).get();
const bound = (id: string) => eventually(async () => ((await policyOf(id))?.status === 'bound' ? policyOf(id) : undefined));
const MIN = 60_000;

describe('Bind after payment', () => {
  it('binds from the queue with the renter identity; policy and https document on the renter page; premium transferred after the bind', async () => {
    const w = await world();
    const { policyId, booking } = await buyCoverage(w);
    const p = (await bound(policyId))!;
    expect(p.policyNumber).toMatch(/^RUW-[0-9A-F]{10}$/);
    expect(p.documentUrl).toMatch(/^https:\/\//);
    const bindCalls = w.host.calls('bind');
    expect(bindCalls).toHaveLength(1);
    const sent = JSON.parse(bindCalls[0].body);
    expect(sent).toMatchObject({ reference: policyId, premium: 12.5, currency: 'usd', policyholder: { firstName: 'Rita', lastName: 'Renter' } });
    expect(sent.policyholder.email).toMatch(/@renter\.test$/);
    // Only /bind carries renter identity.
    for (const c of w.host.calls()) if (c.endpoint !== 'bind') expect(c.body, c.endpoint).not.toContain('Rita');
    expect(p.transferStatus).toBe('done');
    const t = await db().select().from(simTransfers).where(eq(simTransfers.id, p.transferId!)).get();
    expect(t).toMatchObject({ amount: 1250, currency: 'usd', destination: expect.stringMatching(/^acct_sim_/), amountReversed: 0 });

    const page = await get(`/public/coverage?TransactionId=${booking.order.transactionId}`);
    expect(page.body.policies[0]).toMatchObject({
      status: 'issued',
      policyNumber: p.policyNumber,
      documentUrl: p.documentUrl,
      statusText: 'Your policy is issued.',
    });
    const detail = await get(`/coverage/policies/${policyId}`, k(w));
    expect(detail.body).toMatchObject({ policyId, status: 'bound', premium: 12.5, rentalId: booking.rentalId, transferStatus: 'done', amendments: [] });
    const list = await get(`/coverage/policies?rentalId=${booking.rentalId}`, k(w));
    expect(list.body).toMatchObject({ total: 1, data: [{ policyId }] });
    expect((await get('/coverage/policies?status=cancelled', k(w))).body.total).toBe(0);
    await checkSecurity(w.op, { method: 'GET', path: '/coverage/policies' });
    await checkSecurity(w.op, { method: 'GET', path: `/coverage/policies/${policyId}`, otherStatus: 404 });
    await checkSecurity(w.op, { method: 'POST', path: `/coverage/policies/${policyId}/bind`, otherStatus: 404 });
    await checkSecurity(w.op, { method: 'POST', path: `/coverage/policies/${policyId}/void`, body: { reason: 'x' }, otherStatus: 404 });
    expectError(await post(`/coverage/policies/${policyId}/bind`, {}, k(w)), 409, 'invalid_state');
  });

  it('retries a bind that answered 500 until it succeeds, without a second policy', async () => {
    const w = await world({ behaviour: 'error-bind=2' });
    const { policyId } = await buyCoverage(w);
    await eventually(async () => (await policyOf(policyId))?.bindAttempts === 1 && (await policyOf(policyId))?.nextBindAt);
    let p = (await policyOf(policyId))!;
    expect(p).toMatchObject({ status: 'pending', lastError: expect.stringMatching(/http_error: HTTP 500/) });
    expect(Date.parse(p.nextBindAt!) - Date.now()).toBeGreaterThan(5_000);
    await sweepAt(20_000);
    p = (await policyOf(policyId))!;
    expect(p).toMatchObject({ status: 'pending', bindAttempts: 2 });
    await sweepAt(60_000);
    p = (await policyOf(policyId))!;
    expect(p).toMatchObject({ status: 'bound', bindAttempts: 3, lastError: null });
    expect(w.host.calls('bind')).toHaveLength(3);
    expect(w.host.stats().policiesWritten).toBe(1);
    expect(new Set(w.host.calls('bind').map((c) => JSON.parse(c.body).quoteId)).size).toBe(1);
    const transfers = await db().select().from(simTransfers).where(eq(simTransfers.transferGroup, p.transactionId)).all();
    expect(transfers.map((t) => t.amount)).toEqual([1250]);
  });

  it('one bind at a time per policy under parallel retries', async () => {
    const w = await world({ behaviour: 'error-bind' });
    const { policyId } = await buyCoverage(w);
    await eventually(async () => (await policyOf(policyId))?.bindAttempts === 1);
    await sweepAt(21 * MIN);
    expect((await policyOf(policyId))!.status).toBe('not_issued');
    w.host.behave('slow-bind=300');
    const before = w.host.calls('bind').length;
    const results = await Promise.all(Array.from({ length: 6 }, () => post(`/coverage/policies/${policyId}/bind`, {}, k(w))));
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(w.host.calls('bind').length - before).toBe(1);
    expect(w.host.stats().policiesWritten).toBe(1);
    const p = (await policyOf(policyId))!;
    expect(p.status).toBe('bound');
    expect(await db().select().from(simTransfers).where(eq(simTransfers.id, p.transferId!)).all()).toHaveLength(1);
  });

  it('a bind still failing is flagged within 30 minutes (endpoint and e-mail); the booking stands; the renter page says not issued yet', async () => {
    const w = await world({ behaviour: 'error-bind' });
    const { policyId, booking } = await buyCoverage(w);
    await eventually(async () => (await policyOf(policyId))?.bindAttempts === 1);
    await sweepAt(10 * MIN);
    expect((await policyOf(policyId))!.status).toBe('pending');
    expect((await get('/coverage/flags', k(w))).body.total).toBe(0);
    const pending = await get(`/public/coverage?TransactionId=${booking.order.transactionId}`);
    expect(pending.body.policies[0]).toMatchObject({ status: 'not_issued_yet', statusText: expect.stringMatching(/has not issued yet/), policyNumber: null });
    await sweepAt(21 * MIN);
    const p = (await policyOf(policyId))!;
    expect(p).toMatchObject({ status: 'not_issued', transferStatus: 'none' });
    const flags = await get('/coverage/flags?open=true', k(w));
    expect(flags.body.data).toEqual([
      expect.objectContaining({ kind: 'bind_failed', policyId, rentalId: booking.rentalId, message: expect.stringMatching(/did not issue/), resolvedAt: null }),
    ]);
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.customerId, w.op.customerId), eq(messageOutbox.template, 'coverage.bind_failed')))
      .all();
    expect(mail).toHaveLength(1);
    expect(mail[0].to).toMatch(/^owner-/);
    await sweepAt(40 * MIN);
    expect((await get('/coverage/flags', k(w))).body.total).toBe(1);
    const b = await get(`/coverage/policies/${policyId}`, k(w));
    expect(b.body.status).toBe('not_issued');
    expect((await db().select().from(bookings).where(eq(bookings.id, booking.rentalId)).get())!.status).toBe('confirmed');
    const page = await get(`/public/coverage?TransactionId=${booking.order.transactionId}`);
    expect(page.body.policies[0]).toMatchObject({ status: 'not_issued_yet', statusText: expect.stringMatching(/has not issued yet/) });

    const flagId = flags.body.data[0].flagId;
    await checkSecurity(w.op, { method: 'GET', path: '/coverage/flags' });
    await checkSecurity(w.op, { method: 'POST', path: `/coverage/flags/${flagId}/resolve`, body: { resolution: 'x' }, otherStatus: 404 });
    const res = await post(`/coverage/flags/${flagId}/resolve`, { resolution: 'Called the underwriter' }, k(w));
    expect(res.body).toMatchObject({ flagId, resolution: 'Called the underwriter', resolvedAt: expect.any(String) });
    expect((await get('/coverage/flags?open=true', k(w))).body.total).toBe(0);
  });

  it('a bind answer with an http documentUrl or a 4xx is not retried: not issued, flagged at once', async () => {
    const w = await world({ behaviour: 'http-document' });
    const { policyId } = await buyCoverage(w);
    await eventually(async () => (await policyOf(policyId))?.status === 'not_issued');
    expect((await policyOf(policyId))!.lastError).toMatch(/https documentUrl/);
    expect((await get('/coverage/flags', k(w))).body.data[0].kind).toBe('bind_failed');
  });
});

describe('Reschedule', () => {
  it('an operator reschedule reaches /reschedule within the hour (the sweep), keyed on policy and window; a bare 200 accepts; a price is ignored', async () => {
    const w = await world({ behaviour: 'reschedule-price' });
    const { policyId, booking } = await buyCoverage(w);
    await bound(policyId);
    const to = window2h(5);
    const r = await post(`/coreBooking/${booking.rentalId}/reschedule`, to, k(w));
    expect(r.status, r.text).toBe(200);
    let d = await get(`/coverage/policies/${policyId}`, k(w));
    expect(d.body.amendments).toEqual([expect.objectContaining({ startTime: to.startTime, endTime: to.endTime, status: 'pending' })]);
    expect(w.host.calls('reschedule')).toHaveLength(0);
    await sweepAt(0);
    expect(w.host.calls('reschedule')).toHaveLength(0);
    await sweepAt(6 * MIN);
    d = await get(`/coverage/policies/${policyId}`, k(w));
    expect(d.body.amendments[0].status).toBe('accepted');
    expect(d.body.covered).toEqual(to);
    expect(d.body.premium).toBe(12.5);
    const sent = JSON.parse(w.host.calls('reschedule')[0].body);
    expect(sent).toMatchObject({
      policyNumber: d.body.policyNumber,
      window: { start: to.startTime, end: to.endTime },
      idempotencyKey: expect.stringContaining(policyId),
    });
    const calls = await get(`/partners/coverage/offerings/${w.offeringId}/calls?limit=100`, bearer(w.partner.token));
    expect(calls.body.data.some((c: any) => c.endpoint === 'reschedule:rejected' && /ignored/.test(c.error))).toBe(true);
    // Nothing more to send: the sweep does not call again.
    await sweepAt(20 * MIN);
    expect(w.host.calls('reschedule')).toHaveLength(1);

    // A bare 200 is acceptance too.
    w.host.behave('bare-reschedule');
    const back = window2h(6);
    await post(`/coreBooking/${booking.rentalId}/reschedule`, back, k(w));
    await sweepAt(6 * MIN);
    expect((await get(`/coverage/policies/${policyId}`, k(w))).body.covered).toEqual(back);

    // The underwriter down: the amendment waits and is retried; the policy stands meanwhile.
    w.host.behave('down');
    const third = window2h(7);
    await post(`/coreBooking/${booking.rentalId}/reschedule`, third, k(w));
    await sweepAt(6 * MIN);
    let last = (await get(`/coverage/policies/${policyId}`, k(w))).body;
    expect(last.status).toBe('bound');
    expect(last.amendments.at(-1)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/HTTP 503/) });
    w.host.behave(undefined);
    await sweepAt(10 * MIN);
    last = (await get(`/coverage/policies/${policyId}`, k(w))).body;
    expect(last.amendments.at(-1)).toMatchObject({ status: 'accepted', attempts: 2 });
    expect(last.covered).toEqual(third);
  });

  it('a date moved by any other path is found by the sweep; a decline is raised to the operator as paid renter no longer covered', async () => {
    const w = await world({ behaviour: 'decline-reschedule' });
    const { policyId, booking } = await buyCoverage(w);
    await bound(policyId);
    // A path that moves the dates without the hook (a reseller's or a renter's change written elsewhere): only the sweep sees it.
    const to = window2h(8);
    await db()
      .update(bookings)
      .set({ start: Date.parse(to.startTime), end: Date.parse(to.endTime) })
      .where(eq(bookings.id, booking.rentalId));
    await sweepAt(0);
    const swept = await sweepAt(6 * MIN);
    const d = await get(`/coverage/policies/${policyId}`, k(w));
    expect(d.body.status, JSON.stringify([swept['coverage.sweep'], d.body])).toBe('not_covered');
    expect(d.body.amendments[0]).toMatchObject({ status: 'declined', reason: expect.stringMatching(/outside the covered season/) });
    const flags = await get('/coverage/flags', k(w));
    expect(flags.body.data[0]).toMatchObject({ kind: 'not_covered', message: expect.stringMatching(/^Paid renter no longer covered/) });
    const mail = await db().select().from(messageOutbox).where(eq(messageOutbox.template, 'coverage.not_covered')).all();
    expect(mail.filter((m) => m.customerId === w.op.customerId)).toHaveLength(1);
    const page = await get(`/public/coverage?TransactionId=${booking.order.transactionId}`);
    expect(page.body.policies[0].status).toBe('not_covered');
  });

  it('immediate delivery (fixed at review) calls /reschedule at once; none never calls it', async () => {
    const w = await world();
    await post(`/partners/coverage/offerings/${w.offeringId}/submit`, {}, bearer(w.partner.token));
    await post(`/platform/coverage/offerings/${w.offeringId}/approve`, { rescheduleDelivery: 'immediate' }, PLATFORM);
    const { policyId, booking } = await buyCoverage(w);
    await bound(policyId);
    const to = window2h(4);
    await post(`/coreBooking/${booking.rentalId}/reschedule`, to, k(w));
    await eventually(async () => w.host.calls('reschedule').length === 1);
    await eventually(async () => (await get(`/coverage/policies/${policyId}`, k(w))).body.amendments[0]?.status === 'accepted');

    await patch(`/partners/coverage/offerings/${w.offeringId}`, { currencies: ['usd', 'eur'] }, bearer(w.partner.token));
    await post(`/platform/coverage/offerings/${w.offeringId}/approve`, { rescheduleDelivery: 'none' }, PLATFORM);
    await post(`/coreBooking/${booking.rentalId}/reschedule`, window2h(6), k(w));
    await sweepAt(0);
    const d = await get(`/coverage/policies/${policyId}`, k(w));
    expect(d.body.amendments.map((a: any) => a.status)).toEqual(['accepted', 'skipped']);
    expect(w.host.calls('reschedule')).toHaveLength(1);
  });
});

describe('Cancel and void', () => {
  it('cancelling the booking calls /cancel and reverses the transfer; the renter gets the premium back with the booking refund', async () => {
    const w = await world();
    const { policyId, booking } = await buyCoverage(w);
    const p = (await bound(policyId))!;
    const c = await post(`/coreBooking/${booking.rentalId}/cancel`, {}, k(w));
    expect(c.status, c.text).toBe(200);
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 212.5 });
    await eventually(async () => (await policyOf(policyId))?.cancelStatus === 'done');
    const after = (await policyOf(policyId))!;
    expect(after).toMatchObject({ status: 'cancelled', cancelReason: 'booking_cancelled', transferStatus: 'reversed' });
    expect((await db().select().from(simTransfers).where(eq(simTransfers.id, p.transferId!)).get())!.amountReversed).toBe(1250);
    const sent = JSON.parse(w.host.calls('cancel')[0].body);
    expect(sent).toMatchObject({ policyNumber: p.policyNumber, reference: policyId });
    expect(w.host.policies()[0].status).toBe('cancelled');
    expect((await get(`/public/coverage?TransactionId=${booking.order.transactionId}`)).body.policies[0].status).toBe('cancelled');
  });

  it('voiding the coverage keeps the booking, refunds the premium, reverses the transfer and calls /cancel (retried when it fails)', async () => {
    const w = await world();
    const { policyId, booking } = await buyCoverage(w);
    const p = (await bound(policyId))!;
    w.host.behave('error-cancel');
    const v = await post(`/coverage/policies/${policyId}/void`, { reason: 'Renter changed their mind' }, k(w));
    expect(v.status, v.text).toBe(200);
    expect(v.body).toMatchObject({ status: 'cancelled', premiumRefunded: true, transferStatus: 'reversed', cancelReason: 'Renter changed their mind' });
    expectError(await post(`/coverage/policies/${policyId}/void`, { reason: 'again' }, k(w)), 409, 'invalid_state');
    const pi = await db().select().from(simPaymentIntents).where(eq(simPaymentIntents.id, booking.payment.paymentIntentId)).get();
    expect(pi!.amountRefunded).toBe(1250);
    const b = (await db().select().from(bookings).where(eq(bookings.id, booking.rentalId)).get())!;
    expect(b).toMatchObject({ status: 'confirmed', total: 20000, amountPaid: 20000, feeTotal: 0 });
    const refund = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.rentalId, booking.rentalId), eq(ledgerEntries.entryType, 'refund')))
      .all();
    expect(refund.map((r) => r.amount)).toEqual([1250]);
    await eventually(async () => (await policyOf(policyId))?.cancelAttempts === 1);
    expect((await policyOf(policyId))!.cancelStatus).toBe('pending');
    w.host.behave(undefined);
    await sweepAt(2 * MIN);
    expect((await policyOf(policyId))!.cancelStatus).toBe('done');
    expect(p.transferId).toBeTruthy();
    // Cancelling the booking later refunds only the rental.
    const c = await post(`/coreBooking/${booking.rentalId}/cancel`, {}, k(w));
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 200 });
  });
});

describe('Message requests', () => {
  it('e-mails the renter for the four categories, once per category per policy, with the support address as reply-to and escaped text', async () => {
    const w = await world();
    const { policyId, booking } = await buyCoverage(w);
    const p = (await bound(policyId))!;
    const body = { policyNumber: p.policyNumber, category: 'policy_issued', text: 'Your policy <b>is</b> issued & ready.\nKeep it safe.' };
    const send = async (b: unknown, o: Parameters<typeof signedMessage>[3] = {}, secret = w.secret) =>
      api('POST', '/underwriter/v1/messages', await signedMessage(w.offeringId, secret, b, o));
    const first = await send(body);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ policyId, category: 'policy_issued', duplicate: false });
    const again = await send(body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ messageId: first.body.messageId, duplicate: true });
    const mail = (await db().select().from(messageOutbox).where(eq(messageOutbox.id, first.body.messageId)).get())!;
    expect(mail.to).toMatch(/@renter\.test$/);
    expect(mail.metadata).toMatchObject({ replyTo: 'claims@harbor-cover.test', policyId });
    expect(mail.body).toContain('Your policy <b>is</b> issued & ready.');
    expect(mail.html).toContain('Your policy &lt;b&gt;is&lt;/b&gt; issued &amp; ready.');
    expect(mail.html).not.toContain('<b>is</b>');
    expect(mail.subject).toBe('Harbor Boat Cover: Your coverage policy is issued');
    // By the underwriter's quote id too; the other categories; no custom category.
    const byQuote = await send({ quoteId: JSON.parse(w.host.calls('bind')[0].body).quoteId, category: 'claim_update', subject: 'Claim 12', text: 'Received.' });
    expect(byQuote.status, byQuote.text).toBe(201);
    for (const category of ['policy_document', 'policy_cancelled']) expect((await send({ ...body, category })).status).toBe(201);
    expectError(await send({ ...body, category: 'marketing' }), 400, 'validation_failed');
    expectError(await send({ category: 'claim_update', text: 'x' }), 400, 'validation_failed');
    expectError(await send({ ...body, policyNumber: 'RUW-NOPE' }), 404, 'not_found');
    // Parallel repeats of a new category: one message.
    const par = await Promise.all(Array.from({ length: 4 }, () => send({ ...body, category: 'policy_document', text: 'dup' })));
    expect(par.every((r) => r.status === 200 && r.body.duplicate)).toBe(true);
    const all = await db().select().from(messageOutbox).where(eq(messageOutbox.rentalId, booking.rentalId)).all();
    expect(all.filter((m) => m.template?.startsWith('coverage.'))).toHaveLength(4);

    // Unsigned, stale, wrongly signed: 401.
    expectError(await api('POST', '/underwriter/v1/messages', { body }), 401, 'unauthenticated');
    expectError(await send(body, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 401, 'unauthenticated');
    expectError(await send(body, { signature: 'ab'.repeat(32) }), 401, 'unauthenticated');
    expectError(await send(body, {}, 'cvs_not_the_secret'), 401, 'unauthenticated');
    const other = await world();
    expectError(await api('POST', '/underwriter/v1/messages', await signedMessage(other.offeringId, other.secret, { ...body, category: 'claim_update' })), 404);

    // Once the operator stops offering the coverage there, messages stop at once.
    const en = (await get('/coverage/enablements', k(w))).body.data[0];
    await api('DELETE', `/coverage/enablements/${en.enablementId}`, k(w));
    expectError(await send({ ...body, category: 'claim_update', text: 'later' }), 403, 'offering_disabled');
  });
});

describe('Signatures', () => {
  it('calls verify with an independent HMAC; a rotation signs with both secrets; the reference underwriter refuses unsigned and stale requests', async () => {
    const w = await world();
    await buyCoverage(w);
    for (const c of w.host.calls()) {
      const ts = c.headers['x-service-timestamp'];
      expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(120);
      expect(c.headers['x-service-signature']).toBe(await hmacHex(w.secret, `${ts}.${c.body}`));
      expect(c.headers['x-service-offering']).toBe(w.offeringId);
    }
    const rot = await post(`/partners/coverage/offerings/${w.offeringId}/secret`, {}, bearer(w.partner.token));
    // The underwriter has not installed the new secret yet: the old signature still verifies.
    await post('/coverage/quotes', { inventoryId: w.item.id, ...window2h(6) }, k(w));
    const c = w.host.calls('quote').pop()!;
    const ts = c.headers['x-service-timestamp'];
    expect(c.headers['x-service-signature']).toBe(`${await hmacHex(rot.body.signingSecret, `${ts}.${c.body}`)},${await hmacHex(w.secret, `${ts}.${c.body}`)}`);
    const res = await api('POST', '/coverage/quotes', { key: w.op.adminKey, body: { inventoryId: w.item.id, ...window2h(6) } });
    expect(res.body.data).toHaveLength(1);
    // Message requests signed with either secret are accepted during the overlap.
    const policy = (await db().select().from(coveragePolicies).where(eq(coveragePolicies.offeringId, w.offeringId)).get())!;
    await bound(policy.id);
    const p = (await policyOf(policy.id))!;
    const old = await api(
      'POST',
      '/underwriter/v1/messages',
      await signedMessage(w.offeringId, w.secret, { policyNumber: p.policyNumber, category: 'policy_issued', text: 'a' }),
    );
    expect(old.status, old.text).toBe(201);
    const fresh = await api(
      'POST',
      '/underwriter/v1/messages',
      await signedMessage(w.offeringId, rot.body.signingSecret, { policyNumber: p.policyNumber, category: 'claim_update', text: 'b' }),
    );
    expect(fresh.status).toBe(201);

    // The reference underwriter itself: unsigned, stale and wrong signatures are refused.
    const uw = createReferenceUnderwriter({ secrets: ['s3cret'] });
    const body = JSON.stringify({ window: { start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z' }, product: { quantity: 1 } });
    const call = async (headers: Record<string, string>) => uw.fetch(new Request('https://uw.test/quote', { method: 'POST', body, headers }));
    expect((await call({})).status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    expect((await call({ 'x-service-timestamp': String(now - 400), 'x-service-signature': await hmacHex('s3cret', `${now - 400}.${body}`) })).status).toBe(401);
    expect((await call({ 'x-service-timestamp': String(now), 'x-service-signature': await hmacHex('other', `${now}.${body}`) })).status).toBe(401);
    const good = await call({ 'x-service-timestamp': String(now), 'x-service-signature': await hmacHex('s3cret', `${now}.${body}`) });
    expect(good.status).toBe(200);
    expect(typeof (await good.json<any>()).premium).toBe('number');
    expect(uw.stats().refused).toBe(3);
  });
});
