/**
 * Slip reservations through HTTP: per-foot and pro-rated pricing against hand-computed cents,
 * racing reservations and transfers into one unit (exactly one wins), the trigger backstop, the
 * bill hold and its expiry (on the wall clock, and as a test clock advances at every pinned
 * instant), the past refused in the location's calendar, the lifecycle, payments and refunds (never
 * more than paid), revenue recognition (never ahead of the current month).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, api, appHooks, expectError, get, post, put, runCron } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { formatCalendarRange, formatLocalDateTime, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { addDays } from '../../../src/lib/time';
import slipReservationsModule from '../../../src/modules/slip-reservations/module';
import { boat, day, makeSlip, marinaOperator, renter, reserve, setClock, today } from './helpers';

/** The tests that name calendar dates of 2027 pin their operator's clock before them. */
const EARLY_2027 = '2027-01-05T15:00:00Z';

const key = (op: { adminKey: string }) => ({ key: op.adminKey });
const events = (customerId: string, type: string) =>
  env.DB.prepare('SELECT payload FROM webhook_events WHERE customer_id = ? AND type = ?')
    .bind(customerId, type)
    .all<{ payload: string }>()
    .then((r) => r.results.map((x) => JSON.parse(x.payload)));

describe('slip pricing', () => {
  it('nightly: rate per foot × max(LOA, slip length) × nights, fees, utilities, discount, tax in cents', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 40, maxLoaFt: 45, widthFt: 16 });
    const r = await reserve(op, s.id, {
      arrivalDate: '2027-03-10',
      departureDate: '2027-03-13',
      boat: boat({ loaFt: 42, beamFt: 12 }),
      ratePerFootCents: 350,
      fees: [{ name: 'Dock fee', amountCents: 1500, per: 'stay' }],
      utilities: [{ name: 'Power 30A', amountCents: 799, per: 'night', taxable: false }],
      discountCents: 1000,
      taxRatePercent: 7,
    });
    expect(r.status, r.text).toBe(201);
    // 350 × 42 × 3 = 44100; tax 7% of (44100 + 1500 - 1000) = 3122; utilities 3 × 799 = 2397 untaxed.
    expect(r.body).toMatchObject({
      nights: 3,
      baseCents: 44100,
      feesCents: 1500,
      utilitiesCents: 2397,
      discountCents: 1000,
      taxCents: 3122,
      totalCents: 50119,
    });
    expect(r.body.pricing.billableLengthFt).toBe(42);
    // A boat shorter than the slip pays for the slip: 333 × 32.5 ft (slip 30, boat 32.5) = 10822.5 → 10823.
    const s2 = await makeSlip(op, { lengthFt: 30, maxLoaFt: 35 });
    const r2 = await reserve(op, s2.id, {
      arrivalDate: '2027-03-10',
      departureDate: '2027-03-11',
      boat: boat({ loaFt: 32.5 }),
      ratePerFootCents: 333,
      taxRatePercent: 0,
    });
    expect(r2.body.baseCents).toBe(10823);
    const s3 = await makeSlip(op, { lengthFt: 50 });
    const r3 = await reserve(op, s3.id, {
      arrivalDate: '2027-03-10',
      departureDate: '2027-03-11',
      boat: boat({ loaFt: 32.5 }),
      ratePerFootCents: 333,
      taxRatePercent: 0,
    });
    expect(r3.body.baseCents).toBe(16650); // 333 × 50
  });

  it('monthly pro-rates partial months by their days; seasonal bills the term once', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 32, maxLoaFt: 34 });
    const m = await reserve(op, s.id, {
      rateType: 'monthly',
      arrivalDate: '2027-01-15',
      departureDate: '2027-03-01',
      boat: boat({ loaFt: 30 }),
      ratePerFootCents: 2000,
      utilities: [{ name: 'Water', amountCents: 3000, per: 'month' }],
      taxRatePercent: 0,
    });
    expect(m.status, m.text).toBe(201);
    // January 17/31: 2000 × 32 × 17 / 31 = 35096.77 → 35097; February full: 64000. Water 3000 × 17/31 = 1645.16 → 1645, + 3000.
    expect(m.body.pricing.lines.filter((l: any) => l.kind === 'base').map((l: any) => l.amountCents)).toEqual([35097, 64000]);
    expect(m.body).toMatchObject({ baseCents: 99097, utilitiesCents: 4645, totalCents: 103742 });
    const s2 = await makeSlip(op, { lengthFt: 50 });
    const season = await reserve(op, s2.id, {
      rateType: 'seasonal',
      arrivalDate: '2027-05-01',
      departureDate: '2027-11-01',
      boat: boat({ loaFt: 48 }),
      ratePerFootCents: 9000,
      taxRatePercent: 0,
    });
    expect(season.body).toMatchObject({ baseCents: 450000, totalCents: 450000, nights: 184 });
  });

  it('recalculate-total picks up a re-measured slip; PUT re-prices new dates', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 30, maxLoaFt: 40 });
    const r = await reserve(op, s.id, {
      arrivalDate: '2027-04-01',
      departureDate: '2027-04-03',
      boat: boat({ loaFt: 28 }),
      ratePerFootCents: 400,
      taxRatePercent: 0,
    });
    expect(r.body.totalCents).toBe(24000);
    await put(`/slips/${s.id}`, { lengthFt: 35 }, key(op));
    const re = await post(`/slip-reservations/${r.body.id}/recalculate-total`, {}, key(op));
    expect(re.status, re.text).toBe(200);
    expect(re.body).toMatchObject({ previousTotalCents: 24000, totalCents: 28000 });
    const up = await put(`/slip-reservations/${r.body.id}`, { departureDate: '2027-04-04' }, key(op));
    expect(up.status, up.text).toBe(200);
    expect(up.body.totalCents).toBe(42000);
  });
});

describe('one unit, racing writers', () => {
  it('parallel reservations of one slip for overlapping nights: exactly one wins', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => reserve(op, s.id, { arrivalDate: day(op, 20 + (i % 2)), departureDate: day(op, 24), renter: renter(`race${i}`) })),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'unavailable');
    const held = await env.DB.prepare("SELECT count(*) AS n FROM slip_reservations WHERE slip_id = ? AND status IN ('pending','confirmed')")
      .bind(s.id)
      .first<{ n: number }>();
    expect(held!.n).toBe(1);
    // Nights that do not overlap are fine: departure day = next arrival day.
    const after = await reserve(op, s.id, { arrivalDate: day(op, 24), departureDate: day(op, 26) });
    expect(after.status, after.text).toBe(201);
  });

  it('parallel transfers into one slip: exactly one wins', async () => {
    const op = await marinaOperator();
    const [a, b, c] = [await makeSlip(op), await makeSlip(op), await makeSlip(op)];
    const ra = await reserve(op, a.id);
    const rb = await reserve(op, b.id);
    const [x, y] = await Promise.all([
      post(`/slip-reservations/${ra.body.id}/transfer`, { slipId: c.id }, key(op)),
      post(`/slip-reservations/${rb.body.id}/transfer`, { slipId: c.id }, key(op)),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const loser = x.status === 409 ? x : y;
    expectError(loser, 409, 'unavailable');
    const onC = await get(`/slip-reservations?slipId=${c.id}`, key(op));
    expect(onC.body.total).toBe(1);
  });

  it('the database trigger refuses an overlapping write that bypasses the lock', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id);
    const row = await env.DB.prepare('SELECT * FROM slip_reservations WHERE id = ?').bind(r.body.id).first<any>();
    const cols = Object.keys(row);
    const copy = { ...row, id: `${row.id}_x`, reservation_number: `${row.reservation_number}X` };
    await expect(
      env.DB.prepare(`INSERT INTO slip_reservations (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`)
        .bind(...cols.map((c) => copy[c]))
        .run(),
    ).rejects.toThrow(/slip_conflict/);
    // Moving another reservation onto those nights by UPDATE is refused too.
    const other = await makeSlip(op);
    const r2 = await reserve(op, other.id);
    await expect(env.DB.prepare('UPDATE slip_reservations SET slip_id = ? WHERE id = ?').bind(s.id, r2.body.id).run()).rejects.toThrow(/slip_conflict/);
  });

  it('a date change goes through the lock', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r1 = await reserve(op, s.id, { arrivalDate: day(op, 10), departureDate: day(op, 12) });
    await reserve(op, s.id, { arrivalDate: day(op, 12), departureDate: day(op, 14) });
    expectError(await put(`/slip-reservations/${r1.body.id}`, { departureDate: day(op, 13) }, key(op)), 409, 'unavailable');
    expect((await put(`/slip-reservations/${r1.body.id}`, { arrivalDate: day(op, 9) }, key(op))).status).toBe(200);
  });
});

describe('the past, in the location calendar', () => {
  it('a reservation, or a new arrival date, before today at the location answers 400 in_the_past; today is fine', async () => {
    // 00:05 on 14 January in Kiritimati (UTC+14) is 10:05 on 13 January in UTC.
    const op = await marinaOperator(20, { clockAt: '2027-01-13T10:05:00Z', timezone: 'Pacific/Kiritimati' });
    expect(today(op)).toBe('2027-01-14');
    const s = await makeSlip(op);
    const past = await reserve(op, s.id, { arrivalDate: '2027-01-13', departureDate: '2027-01-16' });
    expectError(past, 400, 'in_the_past');
    expect(past.body).toMatchObject({ today: '2027-01-14', details: [{ field: 'arrivalDate' }] });
    const r = await reserve(op, s.id, { arrivalDate: '2027-01-14', departureDate: '2027-01-16' });
    expect(r.status, r.text).toBe(201);
    expectError(await put(`/slip-reservations/${r.body.id}`, { arrivalDate: '2027-01-13' }, key(op)), 400, 'in_the_past');
    const held = await env.DB.prepare('SELECT count(*) AS n FROM slip_reservations WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(held!.n).toBe(1);
    // A day later the arrival is past and may stay so: the stay can still be extended.
    await setClock(op, '2027-01-14T12:00:00Z');
    const longer = await put(`/slip-reservations/${r.body.id}`, { departureDate: '2027-01-17' }, key(op));
    expect(longer.status, longer.text).toBe(200);
    expect(longer.body).toMatchObject({ arrivalDate: '2027-01-14', departureDate: '2027-01-17' });
  });
});

describe('bill hold', () => {
  it('send-bill holds the slip until paid or the timer runs out; the hold releases by itself and the sweep marks it expired', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id, { status: 'pending' });
    const bill = await post(`/slip-reservations/${r.body.id}/send-bill`, { holdHours: 2 }, key(op));
    expect(bill.status, bill.text).toBe(200);
    expect(bill.body.status).toBe('awaiting_payment');
    expect(bill.body.hold.expired).toBe(false);
    const mail = await env.DB.prepare("SELECT body FROM message_outbox WHERE customer_id = ? AND template = 'slip_reservation.bill'")
      .bind(op.customerId)
      .first<any>();
    expect(mail.body).toContain(r.body.reservationNumber);
    expectError(await reserve(op, s.id), 409, 'unavailable');
    // The timer runs out: the unit is free at once, before any sweep.
    await env.DB.prepare('UPDATE slip_reservations SET hold_expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1000, r.body.id)
      .run();
    const other = await reserve(op, s.id);
    expect(other.status, other.text).toBe(201);
    await runCron('*/5 * * * *');
    const after = await get(`/slip-reservations/${r.body.id}`, key(op));
    expect(after.body.status).toBe('expired');
    const told = await env.DB.prepare("SELECT count(*) AS n FROM message_outbox WHERE customer_id = ? AND template = 'slip_reservation.hold_expired'")
      .bind(op.customerId)
      .first<any>();
    expect(told.n).toBe(1);
    // Its nights are taken now: confirming or billing it again is refused.
    expectError(await post(`/slip-reservations/${r.body.id}/confirm`, {}, key(op)), 409, 'unavailable');
    expectError(await post(`/slip-reservations/${r.body.id}/send-bill`, {}, key(op)), 409, 'unavailable');
  });

  it('paying the deposit of a billed reservation confirms it', async () => {
    const op = await marinaOperator();
    await put(`/slip-settings/${op.locationId}`, { deposit: { policy: 'percent', percent: 25 }, taxRatePercent: 0 }, key(op));
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, { status: 'pending', boat: boat({ loaFt: 38 }), ratePerFootCents: 500 });
    expect(r.body).toMatchObject({ totalCents: 60000, depositCents: 15000 });
    await post(`/slip-reservations/${r.body.id}/send-bill`, {}, key(op));
    const part = await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 10000, method: 'cash' }, key(op));
    expect(part.body.reservation.status).toBe('awaiting_payment');
    const rest = await post(`/slip-reservations/${r.body.id}/charge-card`, { amountCents: 5000, paymentMethodId: 'pm_card_visa' }, key(op));
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.reservation).toMatchObject({ status: 'confirmed', amountPaidCents: 15000, balanceCents: 45000, hold: null });
    expect((await events(op.customerId, 'payment.completed')).map((e) => e.data.amountCents).sort()).toEqual([10000, 5000].sort());
  });
  it('a payment after the hold lapsed confirms only if the unit is still free, and charges nothing otherwise', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const lapse = (id: string) =>
      env.DB.prepare('UPDATE slip_reservations SET hold_expires_at = ? WHERE id = ?')
        .bind(Date.now() - 1000, id)
        .run();
    const free = await reserve(op, s.id, { status: 'pending', arrivalDate: day(op, 40), departureDate: day(op, 42) });
    await post(`/slip-reservations/${free.body.id}/send-bill`, {}, key(op));
    await lapse(free.body.id);
    const paid = await post(`/slip-reservations/${free.body.id}/charge-card`, { paymentMethodId: 'pm_card_visa' }, key(op));
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.reservation.status).toBe('confirmed');
    const late = await reserve(op, s.id, { status: 'pending', arrivalDate: day(op, 50), departureDate: day(op, 52) });
    await post(`/slip-reservations/${late.body.id}/send-bill`, {}, key(op));
    await lapse(late.body.id);
    await reserve(op, s.id, { arrivalDate: day(op, 51), departureDate: day(op, 53) });
    const before = await env.DB.prepare('SELECT count(*) AS n FROM sim_payment_intents').first<any>();
    expectError(await post(`/slip-reservations/${late.body.id}/charge-card`, { paymentMethodId: 'pm_card_visa' }, key(op)), 409, 'unavailable');
    const after = await env.DB.prepare('SELECT count(*) AS n FROM sim_payment_intents').first<any>();
    expect(after.n).toBe(before.n);
  });
});

describe('lifecycle and money', () => {
  it('confirm, check in, check out; cancel and delete', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id, { status: 'pending', arrivalDate: today(op), departureDate: day(op, 2) });
    expect(r.body.status).toBe('pending');
    expect((await events(op.customerId, 'customer.created')).length).toBe(1);
    expectError(await post(`/slip-reservations/${r.body.id}/check-in`, {}, key(op)), 409, 'invalid_state');
    expect((await post(`/slip-reservations/${r.body.id}/confirm`, {}, key(op))).body.status).toBe('confirmed');
    const ci = await post(`/slip-reservations/${r.body.id}/check-in`, {}, key(op));
    expect(ci.body.status).toBe('checked_in');
    expect((await get(`/slips/${s.id}`, key(op))).body.status).toBe('occupied');
    expectError(await post(`/slip-reservations/${r.body.id}/cancel`, {}, key(op)), 409, 'not_cancellable');
    expect((await post(`/slip-reservations/${r.body.id}/check-out`, {}, key(op))).body.status).toBe('checked_out');
    expect((await get(`/slips/${s.id}`, key(op))).body.status).toBe('available');

    const r2 = await reserve(op, s.id, { arrivalDate: day(op, 5), departureDate: day(op, 7) });
    const paid = await post(`/slip-reservations/${r2.body.id}/record-payment`, { amountCents: 1000, method: 'check', reference: 'CHK 1001' }, key(op));
    expect(paid.status, paid.text).toBe(201);
    expect((await post(`/slip-reservations/${r2.body.id}/cancel`, { reason: 'weather' }, key(op))).body.status).toBe('cancelled');
    const charges = await env.DB.prepare(
      "SELECT sum(amount) AS s, count(*) AS n FROM ledger_entries WHERE transaction_id = ? AND entry_type IN ('revenue','tax')",
    )
      .bind(r2.body.id)
      .first<any>();
    expect(charges.n).toBeGreaterThan(1);
    expect(charges.s).toBe(0);
    expectError(await api('DELETE', `/slip-reservations/${r2.body.id}`, key(op)), 409, 'has_payments');
    expect((await post(`/slip-reservations/${r2.body.id}/refund`, {}, key(op))).status).toBe(201);
    const d = await api('DELETE', `/slip-reservations/${r2.body.id}`, key(op));
    expect(d.status, d.text).toBe(200);
    expectError(await get(`/slip-reservations/${r2.body.id}`, key(op)), 404, 'not_found');
    const left = await env.DB.prepare('SELECT count(*) AS n FROM slip_payments WHERE reservation_id = ?').bind(r2.body.id).first<any>();
    expect(left.n).toBe(0);
  });

  it('card, terminal and refunds: a refund never exceeds what was paid, even when refunds race', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, { boat: boat({ loaFt: 40 }), ratePerFootCents: 1000, taxRatePercent: 0 });
    expect(r.body.totalCents).toBe(120000);
    expectError(
      await post(`/slip-reservations/${r.body.id}/charge-card`, { amountCents: 5000, paymentMethodId: 'pm_card_chargeDeclined' }, key(op)),
      402,
      'payment_failed',
    );
    const card = await post(`/slip-reservations/${r.body.id}/charge-card`, { amountCents: 5000, paymentMethodId: 'pm_card_visa' }, key(op));
    expect(card.status, card.text).toBe(201);
    expect(card.body.payment).toMatchObject({ method: 'card', amountCents: 5000 });
    const term = await post(`/slip-reservations/${r.body.id}/terminal-charge`, { amountCents: 7000, readerId: 'tmr_simulated' }, key(op));
    expect(term.status, term.text).toBe(201);
    const again = await post(`/slip-reservations/${r.body.id}/terminal-charge`, { paymentIntentId: term.body.payment.paymentIntentId }, key(op));
    expect(again.body.payment.id).toBe(term.body.payment.id);
    expectError(await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 200000, method: 'cash' }, key(op)), 400);
    const cash = await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 10000, method: 'cash' }, key(op));
    const racing = await Promise.all(
      [6000, 6000, 6000].map((amountCents) => post(`/slip-reservations/${r.body.id}/refund`, { paymentId: cash.body.payment.id, amountCents }, key(op))),
    );
    expect(racing.filter((x) => x.status === 201)).toHaveLength(1);
    for (const x of racing.filter((y) => y.status !== 201)) expectError(x, 409, 'refund_exceeds_paid');
    expectError(
      await post(`/slip-reservations/${r.body.id}/refund`, { paymentId: card.body.payment.id, amountCents: 5001 }, key(op)),
      409,
      'refund_exceeds_paid',
    );
    const cr = await post(`/slip-reservations/${r.body.id}/refund`, { paymentId: card.body.payment.id, amountCents: 5000, reason: 'goodwill' }, key(op));
    expect(cr.status, cr.text).toBe(201);
    expect(cr.body.refund.providerRefundId).toMatch(/^re_sim_/);
    const hist = await get(`/slip-reservations/${r.body.id}/payments`, key(op));
    expect(hist.body).toMatchObject({ paidCents: 22000, refundedCents: 11000, netCents: 11000 });
    expect((await events(op.customerId, 'payment.refunded')).map((e) => e.data.amountCents).sort()).toEqual([5000, 6000]);
    const ledger = await env.DB.prepare(
      'SELECT entry_type, sum(amount) AS s FROM ledger_entries WHERE transaction_id = ? GROUP BY entry_type ORDER BY entry_type',
    )
      .bind(r.body.id)
      .all<any>();
    expect(Object.fromEntries(ledger.results.map((x: any) => [x.entry_type, x.s]))).toMatchObject({ revenue: 120000, payment: -22000, refund: 11000 });
  });

  it('seasonal revenue is recognised month by month, once, and never ahead of the current month at the location', async () => {
    // New York: April 2027, before the season.
    const op = await marinaOperator(20, { clockAt: '2027-04-20T15:00:00Z' });
    const s = await makeSlip(op, { lengthFt: 50 });
    const r = await reserve(op, s.id, {
      rateType: 'seasonal',
      arrivalDate: '2027-05-01',
      departureDate: '2027-11-01',
      boat: boat({ loaFt: 48 }),
      ratePerFootCents: 9000,
      taxRatePercent: 0,
    });
    expect(r.status, r.text).toBe(201);
    const recognize = (throughMonth?: string) => post(`/slip-reservations/${r.body.id}/recognize-revenue`, throughMonth ? { throughMonth } : {}, key(op));
    // May has not begun: asking for it is refused, the default (April) recognises nothing.
    const ahead = await recognize('2027-06');
    expectError(ahead, 400, 'validation_failed');
    expect(ahead.body.details).toEqual([{ field: 'throughMonth', message: 'must not be after the current month (2027-04)' }]);
    expect((await recognize()).body).toMatchObject({ recognized: [], recognizedThrough: null, recognizedCents: 0 });
    // 1 July 02:00 UTC is still 30 June in New York: July is refused, June is the current month.
    await setClock(op, '2027-07-01T02:00:00Z');
    expectError(await recognize('2027-07'), 400, 'validation_failed');
    const first = await recognize();
    expect(first.status, first.text).toBe(200);
    // 450000 by nights: May 31/184 → 75815, June 30/184 → 73370.
    expect(first.body.recognized).toEqual([
      { month: '2027-05', amountCents: 75815 },
      { month: '2027-06', amountCents: 73370 },
    ]);
    expect((await recognize('2027-06')).body.recognized).toEqual([]);
    expectError(await recognize('2027-12'), 400, 'validation_failed');
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body).toMatchObject({ recognizedThrough: '2027-06' });
    await setClock(op, '2027-12-01T15:00:00Z');
    const rest = await recognize('2027-12');
    expect(rest.body.recognized.map((m: any) => m.amountCents)).toEqual([75815, 75815, 73370, 75815]);
    expect(rest.body).toMatchObject({ recognizedCents: 450000, remainingDeferredCents: 0, recognizedThrough: '2027-10' });
    const revenue = await env.DB.prepare("SELECT sum(amount) AS s FROM ledger_entries WHERE transaction_id = ? AND entry_type = 'revenue'")
      .bind(r.body.id)
      .first<any>();
    expect(revenue.s).toBe(450000);
    const nightly = await reserve(op, (await makeSlip(op)).id);
    expectError(await post(`/slip-reservations/${nightly.body.id}/recognize-revenue`, {}, key(op)), 409, 'invalid_state');
  });

  it('lists, stats, due billing, expiring, by number, messages', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id, { arrivalDate: day(op, 2), departureDate: day(op, 20), boat: boat({ vesselName: 'Ζωή' }) });
    expect((await get(`/slip-reservations?q=${encodeURIComponent('Ζωή')}`, key(op))).body.total).toBe(1);
    expect((await get(`/slip-reservations/by-number/${r.body.reservationNumber.toLowerCase()}`, key(op))).body.id).toBe(r.body.id);
    expect((await get(`/slip-reservations/due-billing?locationId=${op.locationId}`, key(op))).body.data.map((x: any) => x.id)).toContain(r.body.id);
    expect((await get(`/slip-reservations/expiring?withinDays=30`, key(op))).body.data.map((x: any) => x.id)).toContain(r.body.id);
    const st = await get(`/slip-reservations/stats?locationId=${op.locationId}`, key(op));
    expect(st.body).toMatchObject({ byStatus: { confirmed: 1 }, bookedCents: r.body.totalCents, outstandingCents: r.body.totalCents });
    const m = await post(`/slip-reservations/${r.body.id}/messages`, { body: 'Welcome aboard!' }, key(op));
    expect(m.status, m.text).toBe(201);
    await post(`/slip-reservations/${r.body.id}/messages`, { body: 'Needs a longer line', channel: 'note' }, key(op));
    const list = await get(`/slip-reservations/${r.body.id}/messages`, key(op));
    expect(list.body.data.map((x: any) => x.direction)).toEqual(['internal', 'outbound']);
    const cs = await post(`/slip-reservations/${r.body.id}/contract-signed`, {}, key(op));
    expect(cs.body.contract.status).toBe('signed');
  });
});

const mailsOf = (customerId: string, template: string) =>
  env.DB.prepare('SELECT subject, body FROM message_outbox WHERE customer_id = ? AND template = ? ORDER BY created_at DESC, id DESC')
    .bind(customerId, template)
    .all<{ subject: string; body: string }>()
    .then((r) => r.results);

describe('bill hold expiry on the clock', () => {
  it('the job reads its clock and scope: nextDue is the next expiry; a wall-clock run leaves a test-clock operator alone', async () => {
    const t0 = Date.parse('2027-02-01T15:00:00Z');
    const op = await marinaOperator(20, { clockAt: t0 });
    const s = await makeSlip(op);
    const r = await reserve(op, s.id, { status: 'pending' });
    expect((await post(`/slip-reservations/${r.body.id}/send-bill`, { holdHours: 3 }, key(op))).status).toBe(200);
    const job = slipReservationsModule.jobs!.find((j) => j.name === 'slip-reservations.expire_bill_holds')!;
    const expiry = t0 + 3 * 3_600_000;
    const on = (ms: number) => systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(ms, op.clockId) });
    expect(await job.nextDue!(on(t0))).toBe(expiry);
    expect(await job.nextDue!(on(expiry))).toBeNull();
    // The wall clock's run (even years ahead) works for live operators only.
    await job.run(systemCtx(env, { hooks: appHooks, clock: fixedClock(Date.parse('2030-01-01T00:00:00Z')) }));
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.status).toBe('awaiting_payment');
    expect(await job.run(on(expiry - 1))).toEqual({ expired: 0 });
    expect(await job.run(on(expiry))).toEqual({ expired: 1 });
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body).toMatchObject({ status: 'expired', expiredAt: new Date(expiry).toISOString() });
  });
});

describe.each(pinnedClocks())('bill hold at $label', ({ timezone, at }) => {
  it('refuses yesterday, holds from the clock, tells the renter in local time, expires as the clock advances', async () => {
    const t0 = Date.parse(at);
    const op = await marinaOperator(20, { clockAt: t0, timezone });
    const s = await makeSlip(op);
    const yesterday = addDays(today(op), -1);
    expectError(await reserve(op, s.id, { status: 'pending', arrivalDate: yesterday, departureDate: day(op, 1) }), 400, 'in_the_past');
    const r = await reserve(op, s.id, { status: 'pending', arrivalDate: today(op), departureDate: day(op, 2) });
    expect(r.status, r.text).toBe(201);
    const bill = await post(`/slip-reservations/${r.body.id}/send-bill`, { holdHours: 1 }, key(op));
    expect(bill.status, bill.text).toBe(200);
    const expiry = t0 + 3_600_000;
    expect(bill.body).toMatchObject({ status: 'awaiting_payment', hold: { expiresAt: new Date(expiry).toISOString(), expired: false } });
    const [mail] = await mailsOf(op.customerId, 'slip_reservation.bill');
    expect(mail.body).toContain(formatLocalDateTime(expiry, timezone));
    expect(mail.body).toContain(formatCalendarRange(today(op), day(op, 2)));
    expect(mail.body).not.toMatch(ISO_TIMESTAMP);
    const done = await advanceClock(op.clockId!, t0 + 2 * 3_600_000, op.adminKey);
    expect(done, JSON.stringify(done.failure)).toMatchObject({ status: 'ready' });
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body).toMatchObject({ status: 'expired', expiredAt: new Date(expiry).toISOString() });
    const told = await mailsOf(op.customerId, 'slip_reservation.hold_expired');
    expect(told).toHaveLength(1);
    expect(told[0].body).not.toMatch(ISO_TIMESTAMP);
  });
});
