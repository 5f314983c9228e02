/**
 * The operator's money actions on a booking (issue 33): POST /coreBooking/{rentalId}/refunds (a partial refund by
 * amount or by ledger line, never more than was paid, even racing), /credits (a goodwill credit: the balance due
 * drops, the rest goes to the renter's account credit) and /charge-balance (the balance to the card on file).
 * Every figure is checked against the money view and the ledger; each takes an Idempotency-Key.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { ChargeBalanceResult, CreditResult, PartialRefundResult } from '../../../src/modules/bookings/schemas';
import { addDays, localDate } from '../../../src/lib/time';
import { at, book, bookBody, eventsOf, ledgerBalance, rentalItem, type TestItem } from './factories';

let op: Operator;
let boat: TestItem;
let day = 2;
beforeAll(async () => {
  op = await createOperator();
  // 100 an hour; a booking of 10:00-12:00 is 200, the cooler add-on 20 more.
  boat = await rentalItem(op, { assets: 4, data: { addons: [{ addonId: 'cooler', name: 'Cooler', price: 20, priceType: 'flat' }] } });
});

const act = (rentalId: string, action: string, body?: unknown, key?: string) =>
  post(`/coreBooking/${rentalId}/${action}`, body, { key: op.adminKey, headers: key ? { 'idempotency-key': key } : {} });

async function bookBoat(extra: Record<string, unknown> = {}, paymentMethodId?: string | null) {
  const d = day++;
  const r = await book(
    op,
    bookBody({ inventoryId: boat.id, startTime: at(op.timezone, d, '10:00'), endTime: at(op.timezone, d, '12:00'), paymentMethodId, extra }),
  );
  expect(r.status, r.text).toBe(201);
  return r.body;
}

const sumOf = async (rentalId: string, type: string) =>
  Number(
    (
      await env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger_entries WHERE rental_id = ? AND entry_type = ?')
        .bind(rentalId, type)
        .first<{ s: number }>()
    )?.s ?? 0,
  );

describe('POST /coreBooking/{rentalId}/refunds', () => {
  it('an amount: refunded to the card, the price lowered by it, the booking kept; a replayed key refunds once; another body with it is 422', async () => {
    const b = await bookBoat();
    const key = `refund-${b.rentalId}`;
    const r = await act(b.rentalId, 'refunds', { amount: 50, reason: 'Engine trouble for an hour' }, key);
    expect(r.status, r.text).toBe(200);
    expect(PartialRefundResult.safeParse(r.body).success).toBe(true);
    expect(r.body.status).toBe('confirmed');
    expect(r.body.refund).toMatchObject({ status: 'succeeded', amount: 50, reason: 'Engine trouble for an hour' });
    expect(r.body.money).toMatchObject({ total: 150, paid: 200, refunded: 50, balance: 0, balanceDue: 0 });
    expect(r.body.money.lines).toContainEqual({ description: 'Partial refund: Engine trouble for an hour', type: 'refund_adjustment', amount: -50 });
    expect(r.body.pricing).toMatchObject({ total: 150, amountPaid: 150 });
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    const intent = await env.DB.prepare('SELECT amount_refunded FROM sim_payment_intents WHERE id = ?')
      .bind(b.paymentIntentId)
      .first<{ amount_refunded: number }>();
    expect(intent!.amount_refunded).toBe(5000);

    const again = await act(b.rentalId, 'refunds', { amount: 50, reason: 'Engine trouble for an hour' }, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(await act(b.rentalId, 'refunds', { amount: 60, reason: 'Engine trouble for an hour' }, key), 422, 'idempotency_key_reuse');
    const refunds = (await eventsOf(op.customerId, 'payment.refunded')).filter((e) => e.payload.data.rentalId === b.rentalId);
    expect(refunds.map((e) => e.payload.data)).toEqual([expect.objectContaining({ kind: 'booking_refund', amount: 50, reason: 'Engine trouble for an hour' })]);
  });

  it('by line: the add-on given back; more than is left of a line, an unknown line, both or neither of amount and lines are refused', async () => {
    const b = await bookBoat({ selectedBoatAddons: [{ addonId: 'cooler' }] });
    const cooler = await env.DB.prepare("SELECT id FROM ledger_entries WHERE rental_id = ? AND description = 'Add-on: Cooler'")
      .bind(b.rentalId)
      .first<{ id: string }>();
    const half = await act(b.rentalId, 'refunds', { lines: [{ entryId: cooler!.id, amount: 5 }], reason: 'Warm drinks' });
    expect(half.status, half.text).toBe(200);
    const r = await act(b.rentalId, 'refunds', { lines: [{ entryId: cooler!.id }], reason: 'Cooler broken' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.refund.amount).toBe(15);
    expect(r.body.money).toMatchObject({ total: 200, refunded: 20, balance: 0 });
    expect(r.body.money.lines.filter((l: { type: string }) => l.type === 'refund_adjustment').map((l: { amount: number }) => l.amount)).toEqual([-5, -15]);
    const over = await act(b.rentalId, 'refunds', { lines: [{ entryId: cooler!.id, amount: 1 }], reason: 'again' });
    expectError(over, 400, 'line_not_refundable');
    expect(over.body.details).toEqual([expect.objectContaining({ field: 'lines.0.amount' })]);
    expectError(await act(b.rentalId, 'refunds', { lines: [{ entryId: 'led_nope' }], reason: 'x' }), 400, 'line_not_refundable');
    expectError(await act(b.rentalId, 'refunds', { amount: 5, lines: [{ entryId: cooler!.id }], reason: 'x' }), 400, 'validation_failed');
    expectError(await act(b.rentalId, 'refunds', { reason: 'x' }), 400, 'validation_failed');
    expectError(await act(b.rentalId, 'refunds', { amount: 5 }), 400, 'validation_failed');
    expect(await sumOf(b.rentalId, 'refund')).toBe(2000);
  });

  it('parallel refunds never give back more than was paid: the claim lets through what fits, the rest answer 409', async () => {
    const b = await bookBoat();
    const rs = await Promise.all(Array.from({ length: 5 }, (_, i) => act(b.rentalId, 'refunds', { amount: 60, reason: `race ${i}` })));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 409, 'exceeds_refundable');
    expect(await sumOf(b.rentalId, 'refund')).toBe(18000);
    expect(await sumOf(b.rentalId, 'refund_hold')).toBe(0);
    const after = await act(b.rentalId, 'refunds', { amount: 20.01, reason: 'one cent too many' });
    expectError(after, 409, 'exceeds_refundable');
    expect(after.body.refundable).toBe(20);
    const m = (await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey })).body.money;
    expect(m).toMatchObject({ paid: 200, refunded: 180, total: 20, balance: 0 });
  });

  it('parallel refunds that lean on more than card money (a line, a credit) run one at a time: never a line twice, never a price below zero', async () => {
    const b = await bookBoat({ selectedBoatAddons: [{ addonId: 'cooler' }] });
    const cooler = await env.DB.prepare("SELECT id FROM ledger_entries WHERE rental_id = ? AND description = 'Add-on: Cooler'")
      .bind(b.rentalId)
      .first<{ id: string }>();
    const byLine = await Promise.all(
      Array.from({ length: 4 }, () => act(b.rentalId, 'refunds', { lines: [{ entryId: cooler!.id }], reason: 'Cooler broken' })),
    );
    expect(byLine.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of byLine.filter((x) => x.status !== 200)) expect(['refund_in_progress', 'line_not_refundable']).toContain(r.body.error);
    expect(await sumOf(b.rentalId, 'refund')).toBe(2000);

    expect((await act(b.rentalId, 'credits', { amount: 25, reason: 'Sorry' })).status).toBe(200);
    const rs = await Promise.all(Array.from({ length: 4 }, (_, i) => act(b.rentalId, 'refunds', { amount: 100, reason: `race ${i}` })));
    const m = (await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey })).body.money;
    expect(m.total).toBeGreaterThanOrEqual(0);
    expect(m.balance).toBe(0);
    expect(rs.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of rs.filter((x) => x.status !== 200)) expect(['refund_in_progress', 'exceeds_refundable']).toContain(r.body.error);
    expect(await sumOf(b.rentalId, 'refund_hold')).toBe(0);
  });

  it('a booking paid in full then cancelled: the earlier partial refund counts, the cancellation gives back the rest', async () => {
    const b = await bookBoat();
    expect((await act(b.rentalId, 'refunds', { amount: 30, reason: 'late start' })).status).toBe(200);
    const c = await act(b.rentalId, 'cancel', {});
    expect(c.status, c.text).toBe(200);
    expect(c.body.money).toMatchObject({ total: 0, paid: 200, refunded: 200, balance: 0 });
  });
});

describe('POST /coreBooking/{rentalId}/credits', () => {
  it("a booking that owes: the credit lowers the balance due; one paid in full: the credit goes to the renter's account credit", async () => {
    const owing = await bookBoat({}, null);
    const c1 = await act(owing.rentalId, 'credits', { amount: 30, reason: 'Rain delay' }, `credit-${owing.rentalId}`);
    expect(c1.status, c1.text).toBe(200);
    expect(CreditResult.safeParse(c1.body).success).toBe(true);
    expect(c1.body.credit).toMatchObject({ amount: 30, appliedToBooking: 30, toAccount: 0 });
    expect(c1.body.money).toMatchObject({ total: 170, paid: 0, credited: 0, balanceDue: 170 });
    expect(c1.body.money.lines).toContainEqual({ description: 'Goodwill credit: Rain delay', type: 'goodwill', amount: -30 });
    const replay = await act(owing.rentalId, 'credits', { amount: 30, reason: 'Rain delay' }, `credit-${owing.rentalId}`);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await ledgerBalance(owing.rentalId)).toBe(17000);

    const paid = await bookBoat();
    const c2 = await act(paid.rentalId, 'credits', { amount: 25, reason: 'Sorry for the wait' });
    expect(c2.status, c2.text).toBe(200);
    expect(c2.body.credit).toMatchObject({ appliedToBooking: 0, toAccount: 25, renterId: paid.renterId });
    expect(c2.body.money).toMatchObject({ total: 175, paid: 200, credited: 25, balance: 0 });
    expect(c2.body.pricing).toMatchObject({ total: 175, amountPaid: 175 });
    const renter = await get(`/renters/${paid.renterId}?includeAccounting=true`, { key: op.adminKey });
    expect(renter.body.accounting).toMatchObject({ accountCreditCents: 2500 });
    // What the credit gave to the account is not refunded to the card again: the price never goes below zero.
    const all = await act(paid.rentalId, 'refunds', { amount: 200, reason: 'everything' });
    expectError(all, 409, 'exceeds_refundable');
    expect(all.body.refundable).toBe(175);
    const updated = (await eventsOf(op.customerId, 'booking.updated')).filter((e) => e.payload.data.rentalId === paid.rentalId);
    expect(updated.map((e) => e.payload.data)).toEqual([expect.objectContaining({ change: 'credited', toAccount: 25 })]);
  });
});

describe('reports', () => {
  it("a partial refund and a goodwill credit lower analytics' revenue and the reports' net by their amounts, shown as adjustments", async () => {
    const own = await createOperator();
    const item = await rentalItem(own, { assets: 1 });
    const r = await book(own, bookBody({ inventoryId: item.id, startTime: at(own.timezone, 3, '10:00'), endTime: at(own.timezone, 3, '12:00') }));
    expect(r.status, r.text).toBe(201);
    const today = localDate(Date.now(), own.timezone);
    const window = `from=${addDays(today, -2)}&to=${addDays(today, 2)}`;
    const figures = async () => {
      const [m, j] = await Promise.all([
        get(`/analytics/metrics?locationIds=${own.locationId}&startDate=${addDays(today, -2)}&endDate=${addDays(today, 2)}`, { key: own.adminKey }),
        get(`/reports/sales-journal?locationId=${own.locationId}&${window}`, { key: own.adminKey }),
      ]);
      expect(m.status, m.text).toBe(200);
      expect(j.status, j.text).toBe(200);
      expect(j.body.totals.netCents, 'the report = analytics').toBe(m.body.totals.revenueCents);
      return j.body.totals;
    };
    const before = await figures();
    const act2 = (action: string, body: unknown) => post(`/coreBooking/${r.body.rentalId}/${action}`, body, { key: own.adminKey });
    expect((await act2('refunds', { amount: 25, reason: 'Late start' })).status).toBe(200);
    expect((await act2('credits', { amount: 10, reason: 'Rain' })).status).toBe(200);
    const after = await figures();
    expect(before.netCents - after.netCents).toBe(3500);
    expect(after.adjustmentsCents - before.adjustmentsCents).toBe(3500);
    expect(after.refundsCents - before.refundsCents).toBe(2500);
  });
});

describe('POST /coreBooking/{rentalId}/charge-balance', () => {
  it("no card: 409; the renter's declined card: 402 and nothing written; the renter's good card: the balance paid, once, even racing", async () => {
    const b = await bookBoat({}, null);
    expectError(await act(b.rentalId, 'charge-balance'), 409, 'no_card_on_file');
    const attach = (pm: string) => post(`/renters/${b.renterId}/payment-method`, { payment_method_id: pm }, { key: op.adminKey });
    expect((await attach('pm_card_chargeDeclined')).status).toBe(200);
    const rows = async () =>
      Number((await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_entries WHERE rental_id = ?').bind(b.rentalId).first<{ n: number }>())?.n);
    const before = await rows();
    expectError(await act(b.rentalId, 'charge-balance'), 402, 'payment_failed');
    expect(await rows()).toBe(before);
    expect((await attach('pm_card_visa')).status).toBe(200);
    const rs = await Promise.all([act(b.rentalId, 'charge-balance'), act(b.rentalId, 'charge-balance')]);
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 200)) expect(['version_conflict', 'nothing_to_charge']).toContain(r.body.error);
    expect(ChargeBalanceResult.safeParse(ok[0].body).success).toBe(true);
    expect(ok[0].body.charge).toMatchObject({ amount: 200, card: 'renter' });
    expect(ok[0].body.money).toMatchObject({ total: 200, paid: 200, balance: 0 });
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    const charged = await env.DB.prepare(
      "SELECT COALESCE(SUM(amount_received - amount_refunded), 0) AS n FROM sim_payment_intents WHERE json_extract(metadata, '$.rentalId') = ?",
    )
      .bind(b.rentalId)
      .first<{ n: number }>();
    expect(charged!.n).toBe(20000);
    const events = (await eventsOf(op.customerId, 'payment.completed')).filter((e) => e.payload.data.rentalId === b.rentalId);
    expect(events.map((e) => e.payload.data)).toEqual([expect.objectContaining({ kind: 'balance', amount: 200 })]);
    expectError(await act(b.rentalId, 'charge-balance'), 409, 'nothing_to_charge');
  });

  it("a change that raised the price: the difference charged to the booking's own card", async () => {
    const b = await bookBoat();
    expect((await act(b.rentalId, 'modify', { addons: [{ addonId: 'cooler' }] })).body.money.balanceDue).toBe(20);
    const r = await act(b.rentalId, 'charge-balance', undefined, `charge-${b.rentalId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.charge).toMatchObject({ amount: 20, card: 'booking' });
    expect(r.body.money).toMatchObject({ total: 220, paid: 220, balanceDue: 0 });
  });
});

describe('security and documentation', () => {
  it('each action needs credentials, the operator and the bookings permission', async () => {
    const b = await bookBoat();
    for (const [action, body] of [
      ['refunds', { amount: 1, reason: 'x' }],
      ['credits', { amount: 1, reason: 'x' }],
      ['charge-balance', undefined],
    ] as const)
      await checkSecurity(op, { method: 'POST', path: `/coreBooking/${b.rentalId}/${action}`, body, otherStatus: 404, adminOnly: true });
    expect((await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey })).body.money).toMatchObject({ refunded: 0, credited: 0, total: 200 });
    const doc = (await get('/openapi.json')).body;
    for (const action of ['refunds', 'credits', 'charge-balance'])
      expect(doc.paths[`/coreBooking/{rentalId}/${action}`].post.description).toMatch(/Idempotency-Key/);
  });
});
