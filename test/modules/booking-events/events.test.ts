import { describe, it, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { auditLogs } from '../../../src/db/schema/accounts';
import { dayAt, makeBooking, makeItem } from '../schedule/factories';

async function setup() {
  const op = await createOperator();
  const item = await makeItem(op);
  const txn = 'txn_events_' + op.customerId.slice(-8);
  const r1 = await makeBooking(op, { item, start: dayAt(1), transactionId: txn });
  const r2 = await makeBooking(op, { item, start: dayAt(1, 18), transactionId: txn });
  const r3 = await makeBooking(op, { item, start: dayAt(4) });
  return { op, item, txn, r1, r2, r3 };
}

describe('POST /events', () => {
  it('stores an activity entry with the caller as actor and fills the transaction from the rental', async () => {
    const { op, txn, r1 } = await setup();
    const r = await post(
      '/events',
      {
        rentalId: r1.id,
        event_type: 'status_change',
        event_change: 'pending → confirmed',
        eventLabel: 'Confirmed',
        content: 'Paid at the desk',
        details: { by: 'desk' },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId: r1.id,
      transactionid: txn,
      eventType: 'status_change',
      event_type: 'status_change',
      event_change: 'pending → confirmed',
      eventLabel: 'Confirmed',
      content: 'Paid at the desk',
      details: { by: 'desk' },
      actorName: 'Test Admin',
      actorId: op.adminId,
      customerId: op.customerId,
    });
    expect(r.body.id).toMatch(/^bev_/);
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, op.customerId), eq(auditLogs.action, 'booking_event.create')))
      .all();
    expect(audit).toHaveLength(1);
    const t = await post('/events', { transactionid: 'txn_not_yet_booked', eventType: 'cart', actorName: 'Widget', actorId: 'widget' }, { key: op.adminKey });
    expect(t.body).toMatchObject({ transactionid: 'txn_not_yet_booked', rentalId: null, actorName: 'Widget', actorId: 'widget' });
  });

  it('refuses empty entries, conflicting fields, foreign rentals and a foreign customerId', async () => {
    const { op, r1 } = await setup();
    const key = op.adminKey;
    expectError(await post('/events', {}, { key }), 400, 'validation_failed');
    expectError(await post('/events', { eventType: 'a', event_type: 'b' }, { key }), 400, 'validation_failed');
    expectError(await post('/events', { rentalId: r1.id, transactionid: 'txn_other' }, { key }), 400, 'validation_failed');
    expectError(await post('/events', { content: 'x', details: { blob: 'x'.repeat(40_000) } }, { key }), 400);
    expectError(await post('/events', { content: 'x', details: 'not an object' }, { key }), 400);
    expectError(await post('/events', { rentalId: 'bk_nope', content: 'x' }, { key }), 404);
    const intruder = await otherOperator();
    expectError(await post('/events', { content: 'x', customerId: intruder.customerId }, { key }), 403, 'forbidden');
    expectError(await post('/events', { rentalId: r1.id, content: 'x' }, { key: intruder.adminKey }), 404);
  });

  it('passes the security checks', async () => {
    const { op, r1 } = await setup();
    await checkSecurity(op, { method: 'POST', path: '/events', body: { rentalId: r1.id, content: 'hello' }, otherStatus: 404 });
  });
});

describe('GET /events', () => {
  it("lists by transaction (with its rentals' entries) and by rental ids, oldest first, only the caller's", async () => {
    const { op, txn, r1, r2, r3 } = await setup();
    const key = op.adminKey;
    const e1 = await post('/events', { transactionid: txn, content: 'order note' }, { key });
    const e2 = await post('/events', { rentalId: r1.id, content: 'r1 note' }, { key });
    const e3 = await post('/events', { rentalId: r2.id, content: 'r2 note' }, { key });
    const e4 = await post('/events', { rentalId: r3.id, content: 'r3 note' }, { key });
    const intruder = await otherOperator();
    await post('/events', { transactionid: txn, content: 'intruder note' }, { key: intruder.adminKey });

    const byTxn = await get(`/events?transactionid=${txn}`, { key });
    expect(byTxn.status, byTxn.text).toBe(200);
    expect(byTxn.body.data.map((e: any) => e.id)).toEqual([e1.body.id, e2.body.id, e3.body.id]);
    expect(byTxn.body.total).toBe(3);

    const byRentals = await get(`/events?rentalIds=${r3.id},${r2.id}`, { key });
    expect(byRentals.body.data.map((e: any) => e.id)).toEqual([e3.body.id, e4.body.id]);

    const both = await get(`/events?transactionid=${txn}&rentalIds=${r3.id}&limit=2&offset=1`, { key });
    expect(both.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(both.body.data.map((e: any) => e.id)).toEqual([e2.body.id, e3.body.id]);

    const theirs = await get(`/events?transactionid=${txn}`, { key: intruder.adminKey });
    expect(theirs.body.data.map((e: any) => e.content)).toEqual(['intruder note']);
  });

  it('answers 400 with neither transactionid nor rentalIds', async () => {
    const { op } = await setup();
    const r = await get('/events', { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    expect(r.body.details.map((d: any) => d.field)).toEqual(['transactionid', 'rentalIds']);
    expectError(await get('/events?rentalIds=,,', { key: op.adminKey }), 400);
    expectError(await get(`/events?rentalIds=${Array.from({ length: 101 }, (_, i) => `bk_${i}`).join(',')}`, { key: op.adminKey }), 400);
  });

  it('passes the security checks', async () => {
    const { op, txn } = await setup();
    await checkSecurity(op, { method: 'GET', path: `/events?transactionid=${txn}` });
  });
});
