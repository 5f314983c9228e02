/**
 * One money view of a booking (issue 31): `total` and `amountPaid` follow the booking's ledger
 * (bookings/ledger.ts `moneyFromLedgerStmt`), so the booking's read, the schedule and every other
 * view show the ledger's figures: balance due = the sum of the entries that affect the balance.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, get, post, type Operator } from '../../harness';
import { at, book, bookBody, ledgerBalance, rentalItem } from './factories';

async function paidBooking(op: Operator, day: number, extra: Record<string, unknown> = {}) {
  const item = await rentalItem(op, { assets: 1 });
  const r = await book(op, {
    ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00') }),
    ...extra,
  });
  expect(r.status, r.text).toBe(201);
  return { item, b: r.body };
}

describe('one money view of a booking', () => {
  it('a cancelled booking refunded in full owes nothing, in its read and in the schedule, and its deposit reads released', async () => {
    const op = await createOperator();
    const { item, b } = await paidBooking(op, 6, { depositInformation: { amount: 100 } });
    // The create answers the money view of the entries it wrote: the same as the read's.
    const fresh = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(b.money).toEqual(fresh.body.money);
    expect(b.money.deposit).toBeDefined();
    const cancelled = await post(`/coreBooking/${b.rentalId}/cancel`, { reason: 'Weather' }, { key: op.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.pricing).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0 });

    const read = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(read.status, read.text).toBe(200);
    expect(read.body.pricing).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0 });
    expect(read.body.depositInformation).toMatchObject({ status: 'released' });
    expect(await ledgerBalance(b.rentalId)).toBe(0);

    const schedule = await get(`/schedule/by-location-status?location_id=${item.locationId}&status=cancelled`, { key: op.adminKey });
    expect(schedule.status, schedule.text).toBe(200);
    const mine = (schedule.body.data as { rentalId: string; total: number; amountPaid: number; balanceDue: number }[]).find((x) => x.rentalId === b.rentalId);
    expect(mine).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0, depositInformation: { status: 'released' } });
  });

  it('a cancellation kept as credit (no refund) shows the payment as a credit, not a balance due', async () => {
    const op = await createOperator();
    const { b } = await paidBooking(op, 7);
    const cancelled = await post(`/coreBooking/${b.rentalId}/cancel`, { refund: false }, { key: op.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    // Charges reversed (total 0), the 200 paid stays with the operator as the renter's credit.
    expect(cancelled.body.pricing).toMatchObject({ total: 0, amountPaid: 200, balanceDue: 0 });
    expect(await ledgerBalance(b.rentalId)).toBe(-20000);
  });

  it('the booking read agrees with its ledger after booking, paying later and cancelling', async () => {
    const op = await createOperator();
    const { b } = await paidBooking(op, 8, { paymentMethodId: undefined, paymentPlan: { type: 'pay_later' } });
    const first = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(Math.round(first.body.pricing.balanceDue * 100)).toBe(await ledgerBalance(b.rentalId));
    await post(`/coreBooking/${b.rentalId}/cancel`, {}, { key: op.adminKey });
    const after = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(after.body.pricing).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0 });
    expect(await ledgerBalance(b.rentalId)).toBe(0);
  });
});
