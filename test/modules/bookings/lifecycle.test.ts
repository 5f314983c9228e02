/** Booking operations: cancel, reschedule, confirm, check-in, check-out, no-show; exactly-once under races. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { systemCtx } from '../../../src/lib/context';
import { cancelBooking } from '../../../src/modules/bookings/service';
import type { CapacityReleased } from '../../../src/lib/hooks';
import type { Hooks } from '../../../src/lib/context';
import { assetOverlaps, at, book, bookBody, eventsOf, rentalItem, seatsByDeparture, tourItem } from './factories';

const act = (op: Operator, rentalId: string, what: string, body: unknown = {}, key = op.adminKey) => post(`/coreBooking/${rentalId}/${what}`, body, { key });

async function booked(
  op: Operator,
  o: { assets?: number; day?: number; from?: string; to?: string; extra?: Record<string, unknown>; paymentMethodId?: string | null } = {},
) {
  const item = await rentalItem(op, { assets: o.assets ?? 1 });
  const r = await book(op, {
    ...bookBody({
      inventoryId: item.id,
      startTime: at(op.timezone, o.day ?? 5, o.from ?? '10:00'),
      endTime: at(op.timezone, o.day ?? 5, o.to ?? '12:00'),
      paymentMethodId: o.paymentMethodId,
    }),
    ...(o.extra ?? {}),
  });
  expect(r.status, r.text).toBe(201);
  return { item, b: r.body };
}

const ledgerSum = async (rentalId: string) =>
  Number(
    (await env.DB.prepare('SELECT COALESCE(SUM(amount),0) AS s FROM ledger_entries WHERE rental_id = ? AND affects_balance = 1').bind(rentalId).first<any>()).s,
  );
const activeAllocs = async (rentalId: string) =>
  Number((await env.DB.prepare('SELECT COUNT(*) AS n FROM allocations WHERE source_id = ? AND active = 1').bind(rentalId).first<any>()).n);

describe('cancel', () => {
  it('releases capacity, reverses charges and points, refunds, voids the deposit, e-mails and fires events', async () => {
    const op = await createOperator();
    const { item, b } = await booked(op, { extra: { depositInformation: { amount: 100 } } });
    const r = await act(op, b.rentalId, 'cancel', { reason: 'Weather' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'cancelled', alreadyCancelled: false, cancellationReason: 'Weather', refund: { status: 'succeeded', amount: 200 } });
    expect(r.body.pricing.amountPaid).toBe(0);
    expect(await activeAllocs(b.rentalId)).toBe(0);
    expect(await ledgerSum(b.rentalId)).toBe(0);
    const types = await env.DB.prepare('SELECT entry_type, amount FROM ledger_entries WHERE rental_id = ? ORDER BY created_at').bind(b.rentalId).all<any>();
    expect(types.results.map((t: any) => [t.entry_type, t.amount])).toEqual(
      expect.arrayContaining([
        ['revenue', 20000],
        ['revenue', -20000],
        ['payment', -20000],
        ['refund', 20000],
        ['deposit_hold', 10000],
        ['deposit_release', -10000],
      ]),
    );
    const renter = await env.DB.prepare('SELECT loyalty_points FROM renters WHERE id = ?').bind(b.renterId).first<any>();
    expect(renter.loyalty_points).toBe(0);
    const dep = await env.DB.prepare('SELECT status FROM deposits WHERE rental_id = ?').bind(b.rentalId).first<any>();
    expect(dep.status).toBe('released');
    const refunds = await env.DB.prepare('SELECT amount FROM sim_refunds WHERE payment_intent_id = ?').bind(b.paymentIntentId).all<any>();
    expect(refunds.results).toEqual([{ amount: 20000 }]);
    const ev = (await eventsOf(op.customerId)).map((e) => e.type);
    expect(ev).toEqual(expect.arrayContaining(['booking.cancelled', 'booking.status_changed', 'payment.refunded']));
    const changed = (await eventsOf(op.customerId, 'booking.status_changed'))[0].payload.data;
    expect(changed).toMatchObject({ rentalId: b.rentalId, from: 'confirmed', to: 'cancelled' });
    const mail = await env.DB.prepare("SELECT COUNT(*) AS n FROM message_outbox WHERE customer_id = ? AND template = 'booking.cancelled'")
      .bind(op.customerId)
      .first<any>();
    expect(mail.n).toBe(1);
    // The slot is free again.
    expect((await book(op, bookBody({ inventoryId: item.id, startTime: b.startTime, endTime: b.endTime }))).status).toBe(201);
  });

  it('cancelling twice, even concurrently, releases and refunds once', async () => {
    const op = await createOperator();
    const { b } = await booked(op);
    const rs = await Promise.all(Array.from({ length: 6 }, () => act(op, b.rentalId, 'cancel', {})));
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expect(rs.filter((r) => r.body.alreadyCancelled === false)).toHaveLength(1);
    const refunds = await env.DB.prepare('SELECT COUNT(*) AS n FROM sim_refunds WHERE payment_intent_id = ?').bind(b.paymentIntentId).first<any>();
    expect(refunds.n).toBe(1);
    expect(await ledgerSum(b.rentalId)).toBe(0);
    expect((await eventsOf(op.customerId, 'booking.cancelled')).length).toBe(1);
    expect((await eventsOf(op.customerId, 'payment.refunded')).length).toBe(1);
    const again = await act(op, b.rentalId, 'cancel', {});
    expect(again.body).toMatchObject({ alreadyCancelled: true, status: 'cancelled' });
  });

  it('refund false keeps the money as credit; checked-in bookings are not cancellable', async () => {
    const op = await createOperator();
    const { b } = await booked(op);
    const r = await act(op, b.rentalId, 'cancel', { refund: false });
    expect(r.body.refund).toMatchObject({ status: 'none' });
    expect(await ledgerSum(b.rentalId)).toBe(-20000);
    const { b: b2 } = await booked(op);
    expect((await act(op, b2.rentalId, 'check-in')).status).toBe(200);
    const no = await act(op, b2.rentalId, 'cancel', {});
    expectError(no, 409, 'not_cancellable');
  });

  it('tour seats go back to the departure and the released-capacity hook runs once', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const start = at(op.timezone, 5, '10:00');
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 3 } }));
    expect(r.status).toBe(201);
    const seen: CapacityReleased[] = [];
    const hooks: Hooks = {
      emit: async (_ctx, name, e) => {
        if (name === 'capacity.released' && (e as CapacityReleased).rentalId === r.body.rentalId) seen.push(e as CapacityReleased);
      },
    };
    const ctx = systemCtx(env, { customerId: op.customerId, hooks });
    const [x, y] = await Promise.all([cancelBooking(ctx, r.body.rentalId, { reason: 'sick' }), cancelBooking(ctx, r.body.rentalId, {})]);
    expect([x.alreadyCancelled, y.alreadyCancelled].sort()).toEqual([false, true]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ seats: 3, itemId: tour.id, reason: 'cancelled' });
    expect(await seatsByDeparture(tour.id)).toEqual([]);
  });

  it('needs the bookings permission; other operators get 404', async () => {
    const op = await createOperator();
    const { b } = await booked(op);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await act(op, b.rentalId, 'cancel', {}, staff.key), 403, 'forbidden');
    const helper = await op.addUser({ role: 'staff', permissions: ['bookings'] });
    expect((await act(op, b.rentalId, 'cancel', {}, helper.key)).status).toBe(200);
    await checkSecurity(op, { method: 'POST', path: `/coreBooking/${b.rentalId}/cancel`, body: {}, otherStatus: 404 });
    expectError(await act(op, 'bk_unknown', 'cancel', {}), 404, 'not_found');
  });
});

describe('reschedule', () => {
  it('moves a rental inside the lock, keeping its boat when free; fires updated and rescheduled', async () => {
    const op = await createOperator();
    const { item, b } = await booked(op, { assets: 2 });
    const r = await act(op, b.rentalId, 'reschedule', { startTime: at(op.timezone, 6, '13:00'), endTime: at(op.timezone, 6, '15:00') });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ startTime: new Date(at(op.timezone, 6, '13:00')).toISOString(), assetIds: b.assetIds, version: 2 });
    const allocs = await env.DB.prepare('SELECT start, active FROM allocations WHERE source_id = ? ORDER BY active').bind(b.rentalId).all<any>();
    expect(allocs.results.map((a: any) => a.active)).toEqual([0, 1]);
    expect(allocs.results[1].start).toBe(Date.parse(at(op.timezone, 6, '13:00')));
    const types = (await eventsOf(op.customerId)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['booking.updated', 'booking.rescheduled']));
    // Overlapping its own old time is fine; a window taken by both boats is not.
    expect((await act(op, b.rentalId, 'reschedule', { startTime: at(op.timezone, 6, '14:00'), endTime: at(op.timezone, 6, '16:00') })).status).toBe(200);
    await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 7, '10:00'), endTime: at(op.timezone, 7, '12:00'), quantity: 2 }));
    const taken = await act(op, b.rentalId, 'reschedule', { startTime: at(op.timezone, 7, '11:00'), endTime: at(op.timezone, 7, '12:00') });
    expectError(taken, 409, 'unavailable');
    expect(await assetOverlaps(item.id)).toEqual([]);
  });

  it('a reschedule racing bookings for the same new slot: one wins', async () => {
    const op = await createOperator();
    const { item, b } = await booked(op, { assets: 1 });
    const target = { startTime: at(op.timezone, 9, '10:00'), endTime: at(op.timezone, 9, '12:00') };
    const rs = await Promise.all([
      act(op, b.rentalId, 'reschedule', target),
      book(op, bookBody({ inventoryId: item.id, ...target })),
      book(op, bookBody({ inventoryId: item.id, ...target })),
    ]);
    expect(rs.filter((r) => r.status === 200 || r.status === 201)).toHaveLength(1);
    expect(await assetOverlaps(item.id)).toEqual([]);
  });

  it('tours move their seats to another departure; bad input and states are refused', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 2 });
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 5, '10:00'), tickets: { Adult: 2 } }));
    const moved = await act(op, r.body.rentalId, 'reschedule', { startTime: at(op.timezone, 5, '14:00') });
    expect(moved.status, moved.text).toBe(200);
    expect(await seatsByDeparture(tour.id)).toEqual([{ start: Date.parse(at(op.timezone, 5, '14:00')), seats: 2, capacity: 2 }]);
    expectError(await act(op, r.body.rentalId, 'reschedule', { startTime: at(op.timezone, 5, '12:00') }), 409, 'unavailable');
    expectError(await act(op, r.body.rentalId, 'reschedule', {}), 400, 'validation_failed');
    await act(op, r.body.rentalId, 'cancel', {});
    expectError(await act(op, r.body.rentalId, 'reschedule', { startTime: at(op.timezone, 6, '10:00') }), 409, 'invalid_state');
    await checkSecurity(op, {
      method: 'POST',
      path: `/coreBooking/${r.body.rentalId}/reschedule`,
      body: { startTime: at(op.timezone, 6, '10:00') },
      otherStatus: 404,
    });
  });
});

describe('confirm, check-in, check-out, no-show', () => {
  it('confirm is compare-and-swap and can collect the balance', async () => {
    const op = await createOperator();
    const { b } = await booked(op, { paymentMethodId: null });
    expect(b.status).toBe('pending');
    expectError(await act(op, b.rentalId, 'confirm', { paymentMethodId: 'pm_card_chargeDeclined' }), 402, 'payment_failed');
    expect((await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey })).body.status).toBe('pending');
    const rs = await Promise.all([
      act(op, b.rentalId, 'confirm', { paymentMethodId: 'pm_card_visa' }),
      act(op, b.rentalId, 'confirm', { paymentMethodId: 'pm_card_visa' }),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([200, 409]);
    const ok = rs.find((r) => r.status === 200)!;
    expect(ok.body).toMatchObject({ status: 'confirmed', pricing: { amountPaid: 200, balanceDue: 0 } });
    expect(await ledgerSum(b.rentalId)).toBe(0);
    // The losing confirmation's charge (if it got that far) was refunded: money in equals one balance.
    const net = await env.DB.prepare('SELECT COALESCE(SUM(amount_received - amount_refunded),0) AS n FROM sim_payment_intents WHERE metadata LIKE ?')
      .bind(`%${b.rentalId}%`)
      .first<any>();
    expect(net.n).toBe(20000);
    expectError(await act(op, b.rentalId, 'confirm', {}), 409, 'not_pending');
    expect((await eventsOf(op.customerId, 'booking.status_changed')).map((e) => e.payload.data.to)).toEqual(['confirmed']);
  });

  it('check-in then check-out; an early return frees the rest of the window', async () => {
    const op = await createOperator();
    const { item, b } = await booked(op, { day: 1 });
    const ci = await act(op, b.rentalId, 'check-in', { notes: 'Fuel full' });
    expect(ci.status, ci.text).toBe(200);
    expect(ci.body.status).toBe('checked_in');
    expect(ci.body.checkedInAt).toBeTruthy();
    expectError(await act(op, b.rentalId, 'check-in'), 409, 'invalid_state');
    expectError(await act(op, b.rentalId, 'confirm'), 409, 'not_pending');
    const co = await act(op, b.rentalId, 'check-out', {});
    expect(co.body).toMatchObject({ status: 'completed' });
    expect(co.body.checkedOutAt).toBeTruthy();
    // Returned before its end: the boat is free for the rest of the booked window.
    const again = await book(op, bookBody({ inventoryId: item.id, startTime: b.startTime, endTime: b.endTime }));
    expect(again.status, again.text).toBe(201);
    const types = (await eventsOf(op.customerId)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['booking.checked_in', 'booking.checked_out']));
    expect((await eventsOf(op.customerId, 'booking.status_changed')).map((e) => e.payload.data.to)).toEqual(['checked_in', 'completed']);
    expectError(await act(op, b.rentalId, 'check-out'), 409, 'invalid_state');
    const activity = await env.DB.prepare('SELECT event_type, content FROM booking_events WHERE rental_id = ? ORDER BY id').bind(b.rentalId).all<any>();
    expect(activity.results.map((a: any) => a.event_type)).toEqual(['booking.created', 'booking.checked_in', 'booking.completed']);
  });

  it('no-show releases the capacity and keeps the charges', async () => {
    const op = await createOperator();
    const { item, b } = await booked(op);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await act(op, b.rentalId, 'no-show', {}, staff.key), 403, 'forbidden');
    const r = await act(op, b.rentalId, 'no-show', {});
    expect(r.body.status).toBe('no_show');
    expect(await activeAllocs(b.rentalId)).toBe(0);
    expect(await ledgerSum(b.rentalId)).toBe(0);
    expect((await book(op, bookBody({ inventoryId: item.id, startTime: b.startTime, endTime: b.endTime }))).status).toBe(201);
    expectError(await act(op, b.rentalId, 'check-in'), 409, 'invalid_state');
  });

  it('security of every operation', async () => {
    const op = await createOperator();
    const { b } = await booked(op);
    for (const what of ['confirm', 'check-in', 'check-out', 'no-show']) {
      await checkSecurity(op, { method: 'POST', path: `/coreBooking/${b.rentalId}/${what}`, body: {}, otherStatus: 404 });
    }
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/${b.rentalId}`, otherStatus: 404 });
  });
});

describe('one response shape', () => {
  it('create, read, reschedule, confirm and cancel answer the same booking fields, timezone included', async () => {
    const op = await createOperator({ timezone: 'America/Chicago' });
    const { b } = await booked(op, { assets: 2, paymentMethodId: null, extra: { paymentPlan: { type: 'pay_later' } } });
    const fields = (o: Record<string, unknown>) =>
      Object.keys(o)
        .filter((k) => !['rentals', 'order', 'payment', 'deposit', 'customerCreated', 'alreadyCancelled', 'refund'].includes(k))
        .sort();
    expect(b.timezone).toBe('America/Chicago');
    const read = await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey });
    expect(read.status, read.text).toBe(200);
    expect(fields(read.body)).toEqual(fields(b));
    expect(read.body.timezone).toBe('America/Chicago');
    const moved = await act(op, b.rentalId, 'reschedule', { startTime: at(op.timezone, 6, '10:00'), endTime: at(op.timezone, 6, '12:00') });
    expect(moved.status, moved.text).toBe(200);
    expect(fields(moved.body)).toEqual(fields(b));
    const confirmed = await act(op, b.rentalId, 'confirm');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(fields(confirmed.body)).toEqual(fields(b));
    const cancelled = await act(op, b.rentalId, 'cancel');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(fields(cancelled.body)).toEqual(fields(b));
    expect(cancelled.body.timezone).toBe('America/Chicago');
  });
});
