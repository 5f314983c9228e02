/**
 * Cancellation by the renter: the e-mailed 6-digit code (10 minutes, 5 attempts, one token per code),
 * the eligibility under the operator's policy, and the cancellation with the session token through the
 * booking lifecycle (refund per policy with `payment.refunded`, `booking.cancelled`, seats offered to
 * the waitlist, one refund under races). Reschedules also offer the freed seats to the waitlist.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post, type Operator } from '../../harness';
import { locations } from '../../../src/db/schema/locations';
import { at, book, bookBody, dateAhead, email, eventsOf, rentalItem, tourItem, HOUR } from '../bookings/factories';
import { ALL_DAY, ip, mailedCode, paidBooking, requestCode, sessionToken, verify } from './factories';
import { makeBooking, makeItem } from '../schedule/factories';

const cancel = (rentalId: string, token?: string, body: Record<string, unknown> = {}) =>
  post(`/public/bookings/${rentalId}/cancel`, body, { headers: token ? { 'x-renter-token': token } : {} });

const setPolicy = (locationId: string, cancellationPolicy: Record<string, unknown>) =>
  db().update(locations).set({ details: { cancellationPolicy } }).where(eq(locations.id, locationId));

describe('POST /public/bookings/{rentalId}/cancellation-otp and verify-cancellation-otp', () => {
  it("e-mails a 6-digit code to the booking's address and trades it for a 30-minute session token, once", async () => {
    const op = await createOperator();
    const { rentalId, transactionId, email: to } = await paidBooking(op);
    const sent = await requestCode(rentalId);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ rentalId, codeLength: 6, maxAttempts: 5 });
    expect(sent.body.sentTo).toMatch(/^r\*+@renter\.test$/);
    expect(sent.text).not.toContain(to);
    const ttl = Date.parse(sent.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9.9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    const mail = await mailedCode(op.customerId, sent.body.sessionId);
    expect(mail.to).toBe(to);
    expect(mail.code).toMatch(/^\d{6}$/);
    // The code is stored only as a keyed hash.
    const stored = await env.DB.prepare('SELECT code_hash FROM renter_otps WHERE id = ?').bind(sent.body.sessionId).first<{ code_hash: string }>();
    expect(stored!.code_hash).not.toContain(mail.code);

    const wrong = await verify(rentalId, sent.body.sessionId, mail.code === '000000' ? '111111' : '000000');
    expectError(wrong, 400, 'invalid_code');
    expect(wrong.body.attemptsLeft).toBe(4);
    const ok = await verify(rentalId, sent.body.sessionId, mail.code);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ tokenType: 'renter_session', rentalId, transactionId, scopes: ['cancel', 'manage', 'change'] });
    expect(ok.body.token).toMatch(/^rst_[A-Za-z0-9]{40}$/);
    const sessionTtl = Date.parse(ok.body.expiresAt) - Date.now();
    expect(sessionTtl).toBeGreaterThan(29.9 * 60_000);
    expect(sessionTtl).toBeLessThanOrEqual(30 * 60_000);
    // A code yields one token.
    expectError(await verify(rentalId, sent.body.sessionId, mail.code), 400, 'code_expired');
    // The code belongs to its booking.
    const other = await paidBooking(op);
    expectError(await verify(other.rentalId, sent.body.sessionId, mail.code), 400, 'invalid_code');
  });

  it('allows 5 attempts, then needs a new code, even against parallel guesses', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const a = await requestCode(rentalId);
    const { code } = await mailedCode(op.customerId, a.body.sessionId);
    const bad = code === '123456' ? '654321' : '123456';
    for (const left of [4, 3, 2, 1]) {
      const r = await verify(rentalId, a.body.sessionId, bad);
      expectError(r, 400, 'invalid_code');
      expect(r.body.attemptsLeft).toBe(left);
    }
    expectError(await verify(rentalId, a.body.sessionId, bad), 400, 'too_many_attempts');
    expectError(await verify(rentalId, a.body.sessionId, code), 400, 'too_many_attempts');
    // Parallel guesses on a fresh code: exactly five are counted, and the right code is refused after them.
    const b = await requestCode(rentalId);
    const fresh = (await mailedCode(op.customerId, b.body.sessionId)).code;
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => verify(rentalId, b.body.sessionId, String((Number(fresh) + 1 + i) % 1_000_000).padStart(6, '0'))),
    );
    expect(guesses.every((g) => g.status === 400)).toBe(true);
    const attempts = await env.DB.prepare('SELECT attempts FROM renter_otps WHERE id = ?').bind(b.body.sessionId).first<{ attempts: number }>();
    expect(attempts!.attempts).toBe(5);
    expectError(await verify(rentalId, b.body.sessionId, fresh), 400, 'too_many_attempts');
    // A third code works.
    expect(await sessionToken(op, rentalId)).toMatch(/^rst_/);
  });

  it('expires a code after 10 minutes', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const a = await requestCode(rentalId);
    const { code } = await mailedCode(op.customerId, a.body.sessionId);
    await env.DB.prepare('UPDATE renter_otps SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, a.body.sessionId)
      .run();
    expectError(await verify(rentalId, a.body.sessionId, code), 400, 'code_expired');
  });

  it('answers 404 for an unknown booking, 400 without a booking e-mail, 400 without sessionId and code', async () => {
    const op = await createOperator();
    expectError(await requestCode('bk_unknown_0000'), 404, 'not_found');
    const item = await makeItem(op);
    const noMail = await makeBooking(op, { item, start: Date.now() + 48 * HOUR, customerInfo: { firstName: 'Nomi' } });
    expectError(await requestCode(noMail.id), 400, 'no_booking_email');
    expectError(await post(`/public/bookings/${noMail.id}/verify-cancellation-otp`, {}), 400, 'validation_failed');
  });

  it('limits code requests per client address (429 with Retry-After) and sends at most 5 e-mails an hour to one address', { timeout: 60_000 }, async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const from = ip();
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await requestCode(rentalId, from));
    expect(answers.slice(0, 20).every((r) => r.status === 200)).toBe(true);
    expectError(answers[20], 429, 'rate_limited');
    expect(Number(answers[20].headers.get('retry-after'))).toBeGreaterThan(0);
    const sent = await env.DB.prepare(`SELECT COUNT(*) AS n FROM message_outbox WHERE customer_id = ? AND template = 'renter.code'`)
      .bind(op.customerId)
      .first<{ n: number }>();
    expect(sent!.n).toBe(5);
  });
});

describe('GET /public/bookings/{rentalId}/cancellation-eligibility', () => {
  it('answers the refund under the default policy: all of the card payment 24 hours or more before the start', async () => {
    const op = await createOperator();
    const { rentalId, transactionId } = await paidBooking(op, { day: 3 });
    const r = await get(`/public/bookings/${rentalId}/cancellation-eligibility`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId,
      transactionId,
      customerId: op.customerId,
      status: 'confirmed',
      cancellable: true,
      reason: null,
      timezone: op.timezone,
      policy: { source: 'default', cutoffHours: 0 },
      refund: { percent: 100, amount: 200, amountCents: 20000, paid: 200, fee: 0, feeCents: 0, currency: 'usd' },
    });
    expect(r.body.message).toBe('You can cancel now with a refund of $200.00.');
    // Each tier applies until its time: 100% until a day before the start, nothing after.
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    expect(r.body.refundSchedule).toEqual([
      { until: new Date(start - 24 * HOUR).toISOString(), refundPercent: 100 },
      { until: new Date(start).toISOString(), refundPercent: 0 },
    ]);
    expectError(await get('/public/bookings/bk_unknown_0000/cancellation-eligibility'), 404, 'not_found');
  });

  it("follows the location's tiers and cutoff, and says why a booking cannot be cancelled", async () => {
    const op = await createOperator();
    await setPolicy(op.locationId, {
      cutoffHours: 6,
      tiers: [
        { hoursBefore: 72, refundPercent: 100 },
        { hoursBefore: 24, refundPercent: 50 },
        { hoursBefore: 0, refundPercent: 10 },
      ],
    });
    const item = await rentalItem(op, { assets: 3, data: ALL_DAY });
    // 24 to 72 hours ahead: 50% of $200.
    const mid = await paidBooking(op, { item, day: 2 });
    expect((await get(`/public/bookings/${mid.rentalId}/cancellation-eligibility`)).body).toMatchObject({
      cancellable: true,
      refund: { percent: 50, amount: 100, fee: 100, feeCents: 10000 },
      policy: { source: 'location', cutoffHours: 6 },
    });
    // 3 hours ahead: past the 6-hour cutoff.
    const soon = await paidBooking(op, { item, start: new Date(Date.now() + 3 * HOUR).toISOString(), end: new Date(Date.now() + 5 * HOUR).toISOString() });
    const late = await get(`/public/bookings/${soon.rentalId}/cancellation-eligibility`);
    expect(late.body).toMatchObject({ cancellable: false, reason: 'past_cutoff', refund: { percent: 0, amount: 0 } });
    expect(late.body.message).toContain('6 hours');
    // Started, partner bookings, other statuses, cancelled, online cancellation off.
    const started = await makeBooking(op, { item, start: Date.now() - HOUR, total: 10000 });
    expect((await get(`/public/bookings/${started.id}/cancellation-eligibility`)).body.reason).toBe('started');
    const partner = await makeBooking(op, { item, start: Date.now() + 100 * HOUR, source: 'channel' });
    expect((await get(`/public/bookings/${partner.id}/cancellation-eligibility`)).body.reason).toBe('booked_through_partner');
    const done = await makeBooking(op, { item, start: Date.now() + 100 * HOUR, status: 'checked_in' });
    expect((await get(`/public/bookings/${done.id}/cancellation-eligibility`)).body.reason).toBe('not_cancellable_status');
    const gone = await makeBooking(op, { item, start: Date.now() + 100 * HOUR, status: 'cancelled' });
    expect((await get(`/public/bookings/${gone.id}/cancellation-eligibility`)).body.reason).toBe('already_cancelled');
    await setPolicy(op.locationId, { allowRenterCancellation: false });
    const off = await get(`/public/bookings/${mid.rentalId}/cancellation-eligibility`);
    expect(off.body).toMatchObject({ cancellable: false, reason: 'online_cancellation_disabled' });
  });

  it('refunds only what was paid by card: nothing for a booking paid later', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const r = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00'), quantity: 1, paymentMethodId: null }),
    );
    expect(r.status, r.text).toBe(201);
    const e = await get(`/public/bookings/${r.body.rentalId}/cancellation-eligibility`);
    expect(e.body).toMatchObject({ cancellable: true, refund: { percent: 100, amount: 0, paid: 0 } });
    expect(e.body.message).toBe('You can cancel now; nothing was charged.');
  });
});

describe('POST /public/bookings/{rentalId}/cancel', () => {
  /**
   * A renter whose paid booking (200.00) gave `credit` of goodwill to their account and who spent `spend` of it on a
   * later booking; the location refunds 50% a day or more before the start.
   */
  async function creditGivenAndSpent(credit: number, spend: number) {
    const op = await createOperator();
    await setPolicy(op.locationId, { tiers: [{ hoursBefore: 24, refundPercent: 50 }] });
    const paid = await paidBooking(op, { day: 2 });
    const c = await post(`/coreBooking/${paid.rentalId}/credits`, { amount: credit, reason: 'Late boat' }, { key: op.adminKey });
    expect(c.status, c.text).toBe(200);
    const later = await book(op, {
      ...bookBody({ inventoryId: paid.item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00'), email: paid.email }),
      accountCredit: { amount: spend },
    });
    expect(later.status, later.text).toBe(201);
    const renterId = later.body.renterId as string;
    const accountCredit = async () =>
      (await get(`/renters/${renterId}?includeAccounting=true`, { key: op.adminKey })).body.accounting.accountCreditCents as number;
    expect(await accountCredit()).toBe((credit - spend) * 100);
    const fees = async () =>
      (
        await env.DB.prepare(`SELECT entry_type, amount FROM ledger_entries WHERE rental_id = ? AND entry_type IN ('refund', 'cancellation_fee')`)
          .bind(paid.rentalId)
          .all<{ entry_type: string; amount: number }>()
      ).results
        .map((e) => [e.entry_type, e.amount])
        .sort();
    return { op, paid, accountCredit, fees };
  }

  it('credit the booking gave and the renter spent counts as given back: the card gets the policy refund less it, the fee is the policy’s', async () => {
    const { op, paid, accountCredit, fees } = await creditGivenAndSpent(30, 20);
    const quote = await get(`/public/bookings/${paid.rentalId}/cancellation-eligibility`);
    expect(quote.body.refund).toMatchObject({ percent: 50, amount: 80, paid: 200 });
    const r = await cancel(paid.rentalId, await sessionToken(op, paid.rentalId));
    expect(r.status, r.text).toBe(200);
    expect(r.body.refund).toMatchObject({ status: 'succeeded', amount: 80 });
    // 80.00 back to the card and 20.00 of credit spent: the policy's half. The fee is the policy's 100.00;
    // the 10.00 left went back from the account.
    expect(await fees()).toEqual([
      ['cancellation_fee', 10000],
      ['refund', 8000],
    ]);
    expect(await accountCredit()).toBe(0);
    expect((await get(`/coreBooking/${paid.rentalId}`, { key: op.adminKey })).body.pricing.balanceDue).toBe(0);
  });

  it('spent credit beyond the policy refund stays with the renter: nothing back to the card, a smaller fee, nothing owed', async () => {
    const { op, paid, accountCredit, fees } = await creditGivenAndSpent(150, 150);
    const r = await cancel(paid.rentalId, await sessionToken(op, paid.rentalId));
    expect(r.status, r.text).toBe(200);
    expect(r.body.refund).toMatchObject({ amount: 0 });
    expect(await fees()).toEqual([['cancellation_fee', 5000]]);
    expect(await accountCredit()).toBe(0);
    expect((await get(`/coreBooking/${paid.rentalId}`, { key: op.adminKey })).body.pricing.balanceDue).toBe(0);
  });

  it('cancels through the lifecycle with the policy refund (payment.refunded), keeps the rest as a fee, and uses the session up', async () => {
    const op = await createOperator();
    await setPolicy(op.locationId, {
      tiers: [
        { hoursBefore: 72, refundPercent: 100 },
        { hoursBefore: 24, refundPercent: 50 },
      ],
    });
    const { rentalId, transactionId } = await paidBooking(op, { day: 2 });
    expectError(await cancel(rentalId), 401, 'renter_session_invalid');
    expectError(await cancel(rentalId, 'rst_' + 'x'.repeat(40)), 401, 'renter_session_invalid');
    // A token of another booking's order does not cancel this one.
    const other = await paidBooking(op, { day: 2 });
    expectError(await cancel(rentalId, await sessionToken(op, other.rentalId)), 401, 'renter_session_invalid');

    const token = await sessionToken(op, rentalId);
    const r = await cancel(rentalId, token, { reason: 'Change of plans' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId,
      transactionId,
      status: 'cancelled',
      alreadyCancelled: false,
      refund: { status: 'succeeded', amount: 100, fee: 100, percent: 50, currency: 'usd' },
    });
    expect(r.body.refund.refundId).toEqual(expect.any(String));
    const booking = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
    expect(booking.body).toMatchObject({ status: 'cancelled', cancellationReason: 'Cancelled by the renter: Change of plans' });
    expect(booking.body.pricing.amountPaid).toBe(100);
    const refunded = await eventsOf(op.customerId, 'payment.refunded');
    expect(refunded).toHaveLength(1);
    expect(refunded[0].payload.data ?? refunded[0].payload).toMatchObject({ kind: 'renter_cancellation', amountCents: 10000, rentalId, method: 'card' });
    expect(await eventsOf(op.customerId, 'booking.cancelled')).toHaveLength(1);
    // The renter's e-mail states the policy's refund and fee, not the whole payment.
    const mail = await env.DB.prepare(`SELECT body FROM message_outbox WHERE rental_id = ? AND template = 'booking.cancelled'`)
      .bind(rentalId)
      .first<{ body: string }>();
    expect(mail!.body).toContain('We are refunding $100.00 to the card you paid with; $100.00 is kept as the cancellation fee of the policy.');
    const ledger = await env.DB.prepare(
      `SELECT entry_type, amount, source FROM ledger_entries WHERE rental_id = ? AND entry_type IN ('refund', 'cancellation_fee')`,
    )
      .bind(rentalId)
      .all<{ entry_type: string; amount: number; source: string }>();
    expect(ledger.results.map((e) => [e.entry_type, e.amount]).sort()).toEqual([
      ['cancellation_fee', 10000],
      ['refund', 10000],
    ]);
    // The session is used up; a new one answers alreadyCancelled and refunds nothing more.
    expectError(await cancel(rentalId, token), 401, 'renter_session_invalid');
    const again = await cancel(rentalId, await sessionToken(op, rentalId));
    expect(again.body).toMatchObject({ status: 'cancelled', alreadyCancelled: true, refund: null });
    expect(await eventsOf(op.customerId, 'payment.refunded')).toHaveLength(1);
  });

  it('refuses a booking that is not cancellable now (409 not_cancellable with the reason)', async () => {
    const op = await createOperator();
    await setPolicy(op.locationId, { cutoffHours: 48 });
    const { rentalId } = await paidBooking(op, { day: 1 });
    const r = await cancel(rentalId, await sessionToken(op, rentalId));
    expectError(r, 409, 'not_cancellable');
    expect(r.body.reason).toBe('past_cutoff');
    expect((await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body.status).toBe('confirmed');
  });

  it('two racing cancellations cancel and refund once', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op, { day: 3 });
    const [t1, t2] = [await sessionToken(op, rentalId), await sessionToken(op, rentalId)];
    const rs = await Promise.all([cancel(rentalId, t1), cancel(rentalId, t2)]);
    expect(rs.map((r) => r.status)).toEqual([200, 200]);
    expect(rs.filter((r) => r.body.alreadyCancelled === false)).toHaveLength(1);
    expect(await eventsOf(op.customerId, 'payment.refunded')).toHaveLength(1);
    expect(await eventsOf(op.customerId, 'booking.cancelled')).toHaveLength(1);
  });
});

describe('freed seats go to the waitlist', () => {
  async function soldOut(op: Operator) {
    const tour = await tourItem(op, { capacity: 2 });
    const start = at(op.timezone, 5, '10:00');
    const renterEmail = email('tour');
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 2 }, email: renterEmail }));
    expect(r.status, r.text).toBe(201);
    const joined = await post('/public/waitlist', {
      firstName: 'Wanda',
      lastName: 'Waiter',
      email: email('wait'),
      date: dateAhead(op.timezone, 5),
      time: '10:00',
      inventoryId: tour.id,
      locationId: tour.locationId,
      quantity: 2,
    });
    expect(joined.status, joined.text).toBe(201);
    return { tour, start, rentalId: r.body.rentalId as string, entryId: joined.body.entryId as string };
  }

  it("when the renter cancels: the waiting entry is offered the departure's seats", async () => {
    const op = await createOperator();
    const { start, rentalId, entryId } = await soldOut(op);
    expect((await cancel(rentalId, await sessionToken(op, rentalId))).status).toBe(200);
    const entry = await get(`/waitlist/${entryId}`, { key: op.adminKey });
    expect(entry.body).toMatchObject({ status: 'offered', offer: { startTime: start, quantity: 2 } });
  });

  it('when the operator reschedules the booking to another departure', async () => {
    const op = await createOperator();
    const { start, rentalId, entryId } = await soldOut(op);
    const moved = await post(`/coreBooking/${rentalId}/reschedule`, { startTime: at(op.timezone, 5, '14:00') }, { key: op.adminKey });
    expect(moved.status, moved.text).toBe(200);
    const entry = await get(`/waitlist/${entryId}`, { key: op.adminKey });
    expect(entry.body).toMatchObject({ status: 'offered', offer: { startTime: start, quantity: 2 } });
  });
});
