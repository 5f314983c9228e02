/**
 * The read and money side against bookings made by the real booking commit (POST /coreBooking/book):
 * schedule, activity log, deposits taken with the booking, the public order and the renter's edit,
 * and the booking lifecycle continuing after a public edit.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, get, patch, post } from '../../harness';
import { at, book, bookBody, email, rentalItem } from '../bookings/factories';

describe('read and money side on committed bookings', () => {
  it('schedules, logs, deposits, public views and lifecycle agree on one booking', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const renterEmail = email('e2e');
    const body = bookBody({
      inventoryId: item.id,
      startTime: at(op.timezone, 4, '10:00'),
      endTime: at(op.timezone, 4, '12:00'),
      email: renterEmail,
      extra: { depositInformation: { amount: 200 } },
    });
    const r = await book(op, body);
    expect(r.status, r.text).toBe(201);
    const rentalId = r.body.rentalId;
    const txn = r.body.order.transactionId;
    expect(r.body.deposit).toMatchObject({ amount: 200, status: 'authorized' });

    // schedule of the item and search by the renter's e-mail
    const s = await get(`/schedule/schedule?inventory_id=${item.id}`, { key: op.adminKey });
    expect(s.body.data.map((e: any) => e.rentalId)).toEqual([rentalId]);
    expect(s.body.data[0].renter).toMatchObject({ firstName: 'Rita', lastName: 'Renter', email: renterEmail });
    const found = await get(`/schedule/schedule/search?inventory_id=${item.id}&email=${encodeURIComponent(renterEmail.slice(0, 10))}`, { key: op.adminKey });
    expect(found.body.total).toBe(1);

    // the booking commit's activity is in the log
    const ev = await get(`/events?transactionid=${txn}`, { key: op.adminKey });
    expect(ev.body.data.map((e: any) => e.eventType)).toContain('booking.created');

    // the deposit taken with the booking is audited in sync and can be partly captured
    const audit = await get(`/preAuth/audit-preauths/${rentalId}`, { key: op.adminKey });
    expect(audit.body.deposits).toHaveLength(1);
    expect(audit.body.deposits[0]).toMatchObject({ status: 'authorized', inSync: true, amount: 200 });
    const cap = await post(
      '/preAuth/capture-deposit',
      { rentalId, paymentIntentId: r.body.deposit.paymentIntentId, captureAmount: 75, claimType: 'fuel' },
      { key: op.adminKey },
    );
    expect(cap.status, cap.text).toBe(200);
    expect(cap.body).toMatchObject({ status: 'partially_captured', capturedAmount: 75, releasedAmount: 125 });

    // public order and renter view; the renter edits a note, then the operator cancels (versions line up)
    const order = await get(`/public/order/${rentalId}`);
    expect(order.body).toMatchObject({ matchedAs: 'rental', transactionId: txn });
    expect(order.text).not.toContain(renterEmail);
    const edit = await patch('/public/booking', { rentalId, data: { 'extendedData.notes': 'Two kids aboard', 'customerInfo.phone': '+15555550333' } });
    expect(edit.status, edit.text).toBe(200);
    const view = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
    expect(view.body.extendedData).toMatchObject({ channel: 'test', notes: 'Two kids aboard' });
    const cancel = await post(`/coreBooking/${rentalId}/cancel`, { reason: 'weather' }, { key: op.adminKey });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await patch('/public/booking', { rentalId, data: { 'extendedData.notes': 'late' } })).status).toBe(409);
    const counts = await get(`/schedule/schedules/count?filters=${encodeURIComponent(JSON.stringify({ inventoryId: item.id }))}`, { key: op.adminKey });
    expect(counts.body.byStatus).toEqual({ cancelled: 1 });
  });
});
