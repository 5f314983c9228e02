/**
 * A reschedule reprices (issue 31, "Changes reprice"): the new window is priced like a new booking
 * (the booking's discounts kept), the ledger follows (the old charges reversed, the new ones written),
 * the difference is settled (a balance due, a charge to the card on file, a refund or a credit), the
 * old price is kept only when asked (`keepPrice`, reported on the booking), and the renter is e-mailed.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { formatLocalRange } from '../../../src/lib/local-time';
import { RescheduleResult } from '../../../src/modules/bookings/schemas';
import { at, book, bookBody, dateAhead, eventsOf, everyDay, ledgerBalance, rentalItem } from './factories';

/** Shoulder days (1-9 days ahead): 64.95 an hour. Summer days (10-40 ahead): 1,299.00 a full day (09:00-17:00). */
async function seasonalItem(op: Operator) {
  const tz = op.timezone;
  return rentalItem(op, {
    data: {
      operatingHours: everyDay({ open: '09:00', close: '17:00' }),
      seasons: [
        { name: 'Shoulder', startDate: dateAhead(tz, 1), endDate: dateAhead(tz, 9), dailyPrices: {}, hourlyPrices: everyDay({ basePrice: 64.95 }) },
        { name: 'Summer', startDate: dateAhead(tz, 10), endDate: dateAhead(tz, 40), dailyPrices: everyDay(1299), hourlyPrices: {} },
      ],
    },
  });
}

const shoulder = (op: Operator) => ({ startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '13:00') });
const summer = (op: Operator) => ({ startTime: at(op.timezone, 12, '09:00'), endTime: at(op.timezone, 12, '17:00') });

async function booked(op: Operator, window: { startTime: string; endTime: string }, extra: Record<string, unknown> = {}) {
  const item = await seasonalItem(op);
  const r = await book(op, { ...bookBody({ inventoryId: item.id, ...window }), ...extra });
  expect(r.status, r.text).toBe(201);
  return { item, b: r.body };
}

const reschedule = (op: Operator, rentalId: string, body: Record<string, unknown>) => post(`/coreBooking/${rentalId}/reschedule`, body, { key: op.adminKey });

const mailsOf = async (customerId: string) =>
  (
    await env.DB.prepare("SELECT * FROM message_outbox WHERE customer_id = ? AND template = 'booking.rescheduled' ORDER BY created_at")
      .bind(customerId)
      .all<{ to: string; subject: string; body: string }>()
  ).results;

const intent = (id: string) => env.DB.prepare('SELECT * FROM sim_payment_intents WHERE id = ?').bind(id).first<any>();

describe('a reschedule reprices', () => {
  it('3 shoulder hours moved to a full summer day cost the summer price; breakdown, ledger and read follow; a balance is due; the renter is told', async () => {
    const op = await createOperator();
    const { b } = await booked(op, shoulder(op));
    expect(b.pricing).toMatchObject({ total: 194.85, amountPaid: 194.85 });
    const to = summer(op);
    const r = await reschedule(op, b.rentalId, to);
    expect(r.status, r.text).toBe(200);
    expect(RescheduleResult.safeParse(r.body).success).toBe(true);
    expect(r.body.pricing).toMatchObject({ total: 1299, amountPaid: 194.85, balanceDue: 1104.15, subtotal: 1299 });
    expect(r.body.pricing.breakdown).toMatchObject({ unit: 'day', hours: 8, season: 'Summer', rental: 1299, total: 1299 });
    expect(r.body.pricing.change).toMatchObject({
      priceKept: false,
      previousTotal: 194.85,
      newTotal: 1299,
      difference: 1104.15,
      settlement: 'balance_due',
      amount: 1104.15,
    });

    const read = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(read.body.pricing).toMatchObject({ total: 1299, amountPaid: 194.85, balanceDue: 1104.15 });
    expect(read.body.pricing.breakdown).toMatchObject({ hours: 8, total: 1299 });
    expect(read.body.rentalDetails).toMatchObject({ startTime: new Date(to.startTime).toISOString(), endTime: new Date(to.endTime).toISOString() });
    expect(await ledgerBalance(b.rentalId)).toBe(110415);
    // The old charge is reversed where it was dated; the new one is dated at the new start.
    const revenue = (
      await env.DB.prepare("SELECT amount, occurred_at AS at FROM ledger_entries WHERE rental_id = ? AND entry_type = 'revenue' ORDER BY amount")
        .bind(b.rentalId)
        .all<{ amount: number; at: string }>()
    ).results;
    expect(revenue).toEqual([
      { amount: -19485, at: new Date(shoulder(op).startTime).toISOString() },
      { amount: 19485, at: new Date(shoulder(op).startTime).toISOString() },
      { amount: 129900, at: new Date(to.startTime).toISOString() },
    ]);

    const [mail] = await mailsOf(op.customerId);
    expect(mail.to).toBe(b.customerInfo.email);
    expect(mail.body).toContain(formatLocalRange(Date.parse(to.startTime), Date.parse(to.endTime), op.timezone));
    expect(mail.body).toContain(formatLocalRange(Date.parse(shoulder(op).startTime), Date.parse(shoulder(op).endTime), op.timezone));
    expect(mail.body).toContain('1299.00');
    expect(mail.body).toContain('Balance due: 1104.15');
    const moved = (await eventsOf(op.customerId, 'booking.rescheduled'))[0].payload.data;
    expect(moved.price).toMatchObject({ previousTotal: 194.85, newTotal: 1299, settlement: 'balance_due' });
  });

  it('chargeDifference: true charges the difference to the card on file, in the same write', async () => {
    const op = await createOperator();
    const { b } = await booked(op, shoulder(op));
    const r = await reschedule(op, b.rentalId, { ...summer(op), chargeDifference: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.pricing).toMatchObject({ total: 1299, amountPaid: 1299, balanceDue: 0 });
    expect(r.body.pricing.change).toMatchObject({ settlement: 'charged', amount: 1104.15 });
    const charged = await intent(r.body.pricing.change.paymentIntentId);
    expect(charged).toMatchObject({ amount: 110415, status: 'succeeded' });
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    const paid = (await eventsOf(op.customerId, 'payment.completed')).map((e) => e.payload.data);
    expect(paid.find((p) => p.kind === 'reschedule')).toMatchObject({ amountCents: 110415, rentalId: b.rentalId });
    expect((await mailsOf(op.customerId))[0].body).toContain('charged 1104.15');
  });

  it('a shorter window refunds the difference to the card; refundDifference: false keeps it as credit', async () => {
    const op = await createOperator();
    const { b } = await booked(op, summer(op));
    expect(b.pricing).toMatchObject({ total: 1299, amountPaid: 1299 });
    const r = await reschedule(op, b.rentalId, { startTime: at(op.timezone, 14, '09:00'), endTime: at(op.timezone, 14, '17:00') });
    expect(r.status, r.text).toBe(200);
    expect(r.body.pricing.change).toMatchObject({ difference: 0, settlement: 'none' });
    const back = await reschedule(op, b.rentalId, shoulder(op));
    expect(back.status, back.text).toBe(200);
    expect(back.body.pricing).toMatchObject({ total: 194.85, amountPaid: 194.85, balanceDue: 0 });
    expect(back.body.pricing.breakdown).toMatchObject({ hours: 3, unit: 'hour', season: 'Shoulder' });
    expect(back.body.pricing.change).toMatchObject({ difference: -1104.15, settlement: 'refunded', amount: 1104.15 });
    expect(back.body.pricing.change.refundId).toBeTruthy();
    expect((await intent(b.paymentIntentId)).amount_refunded).toBe(110415);
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    expect((await eventsOf(op.customerId, 'payment.refunded')).map((e) => e.payload.data.amountCents)).toEqual([110415]);
    expect((await mailsOf(op.customerId)).at(-1)!.body).toContain('refunding 1104.15');

    const op2 = await createOperator();
    const kept = await booked(op2, summer(op2));
    const credit = await reschedule(op2, kept.b.rentalId, { ...shoulder(op2), refundDifference: false });
    expect(credit.status, credit.text).toBe(200);
    expect(credit.body.pricing).toMatchObject({ total: 194.85, amountPaid: 1299, balanceDue: 0 });
    expect(credit.body.pricing.change).toMatchObject({ settlement: 'credit', amount: 1104.15, refundId: null });
    expect((await intent(kept.b.paymentIntentId)).amount_refunded).toBe(0);
    expect(await ledgerBalance(kept.b.rentalId)).toBe(-110415);
  });

  it('keepPrice: true keeps the old price and breakdown, and says so on the booking and in the e-mail', async () => {
    const op = await createOperator();
    const { b } = await booked(op, shoulder(op));
    const r = await reschedule(op, b.rentalId, { ...summer(op), keepPrice: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.pricing).toMatchObject({ total: 194.85, amountPaid: 194.85, balanceDue: 0 });
    expect(r.body.pricing.breakdown).toMatchObject({ hours: 3, total: 194.85 });
    expect(r.body.pricing.change).toMatchObject({ priceKept: true, keptReason: 'requested', difference: 0, settlement: 'none' });
    const read = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(read.body.extendedData).toMatchObject({ priceKept: true, channel: 'test' });
    expect(read.body.pricing.total).toBe(194.85);
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    expect((await mailsOf(op.customerId))[0].body).toContain('Your price stays 194.85');
    // Repriced later, the booking no longer says its price was kept.
    const again = await reschedule(op, b.rentalId, { startTime: at(op.timezone, 13, '09:00'), endTime: at(op.timezone, 13, '17:00') });
    expect(again.status, again.text).toBe(200);
    expect(again.body.pricing.total).toBe(1299);
    expect(again.body.extendedData.priceKept).toBeUndefined();
  });

  it("the booking's discounts keep applying to the new price", async () => {
    const op = await createOperator();
    const { b } = await booked(op, shoulder(op), { discountDetails: { discountPercentage: 10 } });
    expect(b.pricing.total).toBe(175.36);
    const r = await reschedule(op, b.rentalId, summer(op));
    expect(r.status, r.text).toBe(200);
    expect(r.body.pricing.breakdown.discounts).toEqual([{ type: 'manual', percent: 10, amount: 129.9 }]);
    expect(r.body.pricing).toMatchObject({ total: 1169.1, discountTotal: 129.9 });
  });

  it('bad input is 400 and changes nothing', async () => {
    const op = await createOperator();
    const { b } = await booked(op, shoulder(op));
    expectError(await reschedule(op, b.rentalId, { ...summer(op), keepPrice: 'yes' }), 400, 'validation_failed');
    expectError(await reschedule(op, b.rentalId, { ...summer(op), chargeDifference: 1 }), 400, 'validation_failed');
    const both = await reschedule(op, b.rentalId, { ...summer(op), keepPrice: true, chargeDifference: true });
    expectError(both, 400, 'validation_failed');
    expect(both.body.details).toEqual([expect.objectContaining({ field: 'chargeDifference' })]);
    // A window without a price: refused, with the way out named.
    const unpriced = await reschedule(op, b.rentalId, { startTime: at(op.timezone, 50, '10:00'), endTime: at(op.timezone, 50, '13:00') });
    expectError(unpriced, 400, 'bad_request');
    expect(unpriced.body.message).toMatch(/keepPrice/);
    const read = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(read.body).toMatchObject({ version: 1, startTime: new Date(shoulder(op).startTime).toISOString(), pricing: { total: 194.85 } });
    expect(await mailsOf(op.customerId)).toEqual([]);
  });

  it('/openapi.json documents the new request fields and the price change', async () => {
    const doc = (await get('/openapi.json')).body;
    const props = doc.components.schemas.RescheduleBooking.properties;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['keepPrice', 'chargeDifference', 'refundDifference']));
    const op = doc.paths['/coreBooking/{rentalId}/reschedule'].post;
    expect(op.description).toMatch(/keepPrice/);
  });
});
