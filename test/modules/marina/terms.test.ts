/**
 * Marina terms and money (issue 31): seasonal and annual prices follow the term (whole terms, the
 * rest pro-rated by its days), each rate type needs at least one of its periods, recognised revenue
 * is reversed on cancellation, a contract whose terms change goes back to unsigned and is resent with
 * the new terms, a bill counts a deposit already paid, a reservation's balance is what its ledger
 * shows, and a checked-out stay that owes stays in billing (its check-out warns).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eventually, expectError, get, post, put } from '../../harness';
import { boat, day, makeSlip, marinaOperator, reserve, setClock, today } from './helpers';

/** The tests that name calendar dates of 2027 pin their operator's clock before them. */
const EARLY_2027 = '2027-01-05T15:00:00Z';
const key = (op: { adminKey: string }) => ({ key: op.adminKey });

/** Sums of the reservation's ledger entries by type (balance entries and memo entries alike). */
async function ledgerByType(reservationId: string): Promise<Record<string, number>> {
  const rows = await env.DB.prepare('SELECT entry_type AS t, sum(amount) AS s FROM ledger_entries WHERE transaction_id = ? GROUP BY entry_type')
    .bind(reservationId)
    .all<{ t: string; s: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.t, r.s]));
}

/** What the ledger says the renter owes on a reservation (entries that affect the balance). */
async function ledgerBalance(reservationId: string): Promise<number> {
  const row = await env.DB.prepare('SELECT coalesce(sum(amount), 0) AS s FROM ledger_entries WHERE transaction_id = ? AND affects_balance = 1')
    .bind(reservationId)
    .first<{ s: number }>();
  return row!.s;
}

describe('term prices', () => {
  it('an annual stay of 731 nights is two years; a year and three months bills the three months by their days', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 40, maxLoaFt: 45 });
    const annual = (arrivalDate: string, departureDate: string) =>
      reserve(op, s.id, { rateType: 'annual', arrivalDate, departureDate, boat: boat({ loaFt: 40 }), ratePerFootCents: 16000, taxRatePercent: 0 });
    // 1 Feb 2027 to 1 Feb 2029: 365 + 366 nights (2028 is a leap year), two whole years of 16000 × 40.
    const two = await annual('2027-02-01', '2029-02-01');
    expect(two.status, two.text).toBe(201);
    expect(two.body).toMatchObject({ nights: 731, baseCents: 1_280_000, totalCents: 1_280_000 });
    expect(two.body.pricing.lines.filter((l: any) => l.kind === 'base').map((l: any) => [l.quantity, l.amountCents])).toEqual([[2, 1_280_000]]);
    await post(`/slip-reservations/${two.body.id}/cancel`, {}, key(op));
    // A year, then 1 Feb to 1 May 2028: 90 nights of the 366 of the year that starts on 1 Feb 2028.
    const more = await annual('2027-02-01', '2028-05-01');
    expect(more.status, more.text).toBe(201);
    // 640000 + 640000 × 90 / 366 = 640000 + 157377.05.
    expect(more.body.pricing.lines.filter((l: any) => l.kind === 'base').map((l: any) => l.amountCents)).toEqual([640_000, 157_377]);
    expect(more.body).toMatchObject({ baseCents: 797_377, totalCents: 797_377 });
  });

  it('a season is six months: a two-night season is refused, a season and a month bills the month by its days', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 50 });
    const season = (arrivalDate: string, departureDate: string) =>
      reserve(op, s.id, { rateType: 'seasonal', arrivalDate, departureDate, boat: boat({ loaFt: 48 }), ratePerFootCents: 9000, taxRatePercent: 0 });
    const short = await season('2027-05-01', '2027-05-03');
    expectError(short, 400, 'stay_too_short');
    expect(short.body).toMatchObject({ minimumDepartureDate: '2027-11-01', details: [{ field: 'departureDate' }] });
    const held = await env.DB.prepare('SELECT count(*) AS n FROM slip_reservations WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(held!.n).toBe(0);
    // 1 May to 1 Nov is the season (450000); 1 Nov to 1 Dec is 30 of the 182 nights of the next six months.
    const longer = await season('2027-05-01', '2027-12-01');
    expect(longer.status, longer.text).toBe(201);
    expect(longer.body.pricing.lines.filter((l: any) => l.kind === 'base').map((l: any) => l.amountCents)).toEqual([450_000, 74_176]);
    expect(longer.body.totalCents).toBe(524_176);
  });

  it('the monthly rate needs a month: three nights are refused when created and when changed to monthly', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 40 });
    const three = await reserve(op, s.id, { rateType: 'monthly', arrivalDate: '2027-03-10', departureDate: '2027-03-13' });
    expectError(three, 400, 'stay_too_short');
    expect(three.body.minimumDepartureDate).toBe('2027-04-10');
    // 31 January plus a month is the last day of February.
    const clamped = await reserve(op, s.id, { rateType: 'monthly', arrivalDate: '2027-01-31', departureDate: '2027-02-28' });
    expect(clamped.status, clamped.text).toBe(201);
    const nightly = await reserve(op, s.id, { arrivalDate: '2027-03-10', departureDate: '2027-03-13' });
    expect(nightly.status, nightly.text).toBe(201);
    expectError(await put(`/slip-reservations/${nightly.body.id}`, { rateType: 'monthly' }, key(op)), 400, 'stay_too_short');
    expectError(await put(`/slip-reservations/${clamped.body.id}`, { departureDate: '2027-02-20' }, key(op)), 400, 'stay_too_short');
  });
});

describe('money of a reservation', () => {
  it('cancelling an annual stay after recognition reverses the recognition: deferred and recognised revenue both end at zero', async () => {
    const op = await marinaOperator(20, { clockAt: '2027-04-20T15:00:00Z' });
    const s = await makeSlip(op, { lengthFt: 50 });
    const r = await reserve(op, s.id, {
      rateType: 'annual',
      arrivalDate: '2027-05-01',
      departureDate: '2028-05-01',
      boat: boat({ loaFt: 48 }),
      ratePerFootCents: 16000,
      taxRatePercent: 0,
    });
    expect(r.status, r.text).toBe(201);
    await setClock(op, '2027-07-01T15:00:00Z');
    const rec = await post(`/slip-reservations/${r.body.id}/recognize-revenue`, {}, key(op));
    expect(rec.body.recognized.map((m: any) => m.month)).toEqual(['2027-05', '2027-06', '2027-07']);
    const cancel = await post(`/slip-reservations/${r.body.id}/cancel`, { reason: 'sold the boat' }, key(op));
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'cancelled', recognizedThrough: null, balanceCents: 0 });
    expect(await ledgerByType(r.body.id)).toMatchObject({ deferred_revenue: 0, revenue: 0 });
    expectError(await post(`/slip-reservations/${r.body.id}/recognize-revenue`, {}, key(op)), 409, 'invalid_state');

    // A term re-typed monthly after recognition: its revenue posts at once, the recognition is taken back (never counted twice).
    const s2 = await makeSlip(op, { lengthFt: 50 });
    const r2 = await reserve(op, s2.id, {
      rateType: 'annual',
      arrivalDate: '2027-07-01',
      departureDate: '2028-07-01',
      boat: boat({ loaFt: 48 }),
      ratePerFootCents: 16000,
      taxRatePercent: 0,
    });
    expect((await post(`/slip-reservations/${r2.body.id}/recognize-revenue`, {}, key(op))).body.recognized).toHaveLength(1);
    const monthly = await put(`/slip-reservations/${r2.body.id}`, { rateType: 'monthly', ratePerFootCents: 2000 }, key(op));
    expect(monthly.status, monthly.text).toBe(200);
    expect(await ledgerByType(r2.body.id)).toMatchObject({ deferred_revenue: 0, revenue: monthly.body.baseCents });
  });

  it("a cancelled reservation's balance is its ledger's: the money still held is a credit", async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, { boat: boat({ loaFt: 40 }), ratePerFootCents: 500, taxRatePercent: 0 });
    expect(r.body).toMatchObject({ status: 'confirmed', totalCents: 60000, balanceCents: 60000 });
    await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 11823, method: 'cash' }, key(op));
    const c = await post(`/slip-reservations/${r.body.id}/cancel`, {}, key(op));
    expect(c.body.balanceCents).toBe(-11823);
    expect(await ledgerBalance(r.body.id)).toBe(-11823);
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.balanceCents).toBe(-11823);
    const listed = await get(`/slip-reservations?slipId=${s.id}`, key(op));
    expect(listed.body.data.find((x: any) => x.id === r.body.id).balanceCents).toBe(-11823);
    // Refunded, it owes and is owed nothing; nothing is billed.
    const refund = await post(`/slip-reservations/${r.body.id}/refund`, {}, key(op));
    expect(refund.body.reservation.balanceCents).toBe(0);
    expect(await ledgerBalance(r.body.id)).toBe(0);
  });

  it('a bill counts the deposit already paid: the deposit secures the unit, no hold timer, the rest is due', async () => {
    const op = await marinaOperator();
    await put(`/slip-settings/${op.locationId}`, { deposit: { policy: 'percent', percent: 25 }, taxRatePercent: 0 }, key(op));
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, { status: 'pending', boat: boat({ loaFt: 38 }), ratePerFootCents: 500 });
    expect(r.body).toMatchObject({ totalCents: 60000, depositCents: 15000 });
    await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 15000, method: 'cash' }, key(op));
    const bill = await post(`/slip-reservations/${r.body.id}/send-bill`, { holdHours: 1 }, key(op));
    expect(bill.status, bill.text).toBe(200);
    expect(bill.body).toMatchObject({ status: 'confirmed', hold: null, balanceCents: 45000 });
    const mail = await env.DB.prepare(
      "SELECT body, metadata FROM message_outbox WHERE customer_id = ? AND template = 'slip_reservation.bill' ORDER BY created_at DESC",
    )
      .bind(op.customerId)
      .first<{ body: string; metadata: string }>();
    expect(mail!.body).toContain('Deposit of $150.00 received');
    expect(mail!.body).toContain('Due: $450.00');
    expect(mail!.body).not.toContain('held for you until');
    expect(JSON.parse(mail!.metadata)).toMatchObject({ dueNowCents: 45000 });
    // Its charges are on the ledger like any confirmed stay's.
    expect(await ledgerBalance(r.body.id)).toBe(45000);
  });

  it('check-out warns about a balance, and the stay stays in billing until it is paid', async () => {
    const op = await marinaOperator(20, { clockAt: '2027-03-10T15:00:00Z' });
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, {
      arrivalDate: today(op),
      departureDate: day(op, 2),
      boat: boat({ loaFt: 40 }),
      ratePerFootCents: 500,
      taxRatePercent: 0,
    });
    expect(r.body.totalCents).toBe(40000);
    await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 10000, method: 'cash' }, key(op));
    expect((await post(`/slip-reservations/${r.body.id}/check-in`, {}, key(op))).body.status).toBe('checked_in');
    const out = await post(`/slip-reservations/${r.body.id}/check-out`, {}, key(op));
    expect(out.status, out.text).toBe(200);
    expect(out.body).toMatchObject({ status: 'checked_out', balanceCents: 30000 });
    expect(out.body.warnings).toEqual([{ code: 'balance_due', message: expect.stringContaining('$300.00'), balanceCents: 30000 }]);
    const due = async () => (await get(`/slip-reservations/due-billing?locationId=${op.locationId}`, key(op))).body.data.map((x: any) => x.id);
    expect(await due()).toContain(r.body.id);
    const bill = await post(`/slip-reservations/${r.body.id}/send-bill`, {}, key(op));
    expect(bill.status, bill.text).toBe(200);
    expect(bill.body).toMatchObject({ status: 'checked_out', hold: null });
    await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 30000, method: 'cash' }, key(op));
    expect(await due()).not.toContain(r.body.id);
    // Paid up, a check-out warns about nothing.
    const r2 = await reserve(op, s.id, {
      arrivalDate: today(op),
      departureDate: day(op, 1),
      boat: boat({ loaFt: 40 }),
      ratePerFootCents: 500,
      taxRatePercent: 0,
    });
    await post(`/slip-reservations/${r2.body.id}/record-payment`, { amountCents: 20000, method: 'cash' }, key(op));
    await post(`/slip-reservations/${r2.body.id}/check-in`, {}, key(op));
    expect((await post(`/slip-reservations/${r2.body.id}/check-out`, {}, key(op))).body.warnings).toEqual([]);
  });
});

describe('contracts follow the terms', () => {
  it('a signed contract goes back to unsigned when the dates and rate change, and is resent with the new terms', async () => {
    const op = await marinaOperator(20, { clockAt: EARLY_2027 });
    const s = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, s.id, {
      arrivalDate: '2027-03-10',
      departureDate: '2027-03-13',
      boat: boat({ loaFt: 40 }),
      ratePerFootCents: 500,
      taxRatePercent: 0,
    });
    await post(
      '/slip-contracts/templates',
      {
        name: 'Std',
        title: 'Agreement {{reservation.number}}',
        body: 'From {{reservation.arrivalDate}} to {{reservation.departureDate}}: {{reservation.total}}.',
        isDefault: true,
      },
      key(op),
    );
    const g = await post('/slip-contracts/generate', { reservationId: r.body.id }, key(op));
    expect(g.body.body).toBe('From Wed 10 Mar 2027 to Sat 13 Mar 2027: $600.00.');
    await post('/slip-contracts/send', { contractId: g.body.id }, key(op));
    const signed = await post(
      '/slip-contracts/sign',
      { contractId: g.body.id, signerName: 'Søren Ødegård', signature: 'Søren Ødegård', agreed: true },
      key(op),
    );
    expect(signed.status, signed.text).toBe(200);

    // Notes are not terms: the signed contract stands.
    expect((await put(`/slip-reservations/${r.body.id}`, { notes: 'Bow line on the left' }, key(op))).body.contract.status).toBe('signed');

    const up = await put(`/slip-reservations/${r.body.id}`, { departureDate: '2027-03-15', ratePerFootCents: 550 }, key(op));
    expect(up.status, up.text).toBe(200);
    expect(up.body.totalCents).toBe(110000);
    expect(up.body.contract).toMatchObject({ status: 'pending', signedAt: null });

    // Both contracts are made at the pinned instant: find them by status, not by order.
    const { fresh, old } = await eventually(async () => {
      const list = (await get(`/slip-contracts/reservation/${r.body.id}`, key(op))).body.data;
      const sent = list.find((c: any) => c.status === 'sent');
      return list.length === 2 && sent ? { fresh: sent, old: list.find((c: any) => c.id === g.body.id) } : null;
    });
    expect(fresh.body).toBe('From Wed 10 Mar 2027 to Mon 15 Mar 2027: $1,100.00.');
    expect(old).toMatchObject({ status: 'voided', voidReason: expect.stringContaining('terms') });
    // The signature record of the old contract stays with it.
    expect(old.signature).toMatchObject({ signerName: 'Søren Ødegård' });
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.contract).toMatchObject({ status: 'sent', contractId: fresh.id });
    const mails = await env.DB.prepare("SELECT body FROM message_outbox WHERE customer_id = ? AND template = 'slip_contract.sign_request'")
      .bind(op.customerId)
      .all<{ body: string }>();
    expect(mails.results).toHaveLength(2);
    const resent = mails.results.find((m) => m.body.includes(`contractId=${fresh.id}`));
    expect(resent!.body).toContain('changed');
  });
});
