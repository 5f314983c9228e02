/** Scheduled communications: send times, booking hooks, conditions and the processor (claimed once). */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, del, expectError, get, post, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, HOUR } from '../bookings/factories';
import { messagesOf, rental } from './helpers';

const MIN = 60_000;

async function booked(op: Operator, day = 3) {
  return rental(op, { start: at(op.timezone, day, '10:00'), end: at(op.timezone, day, '12:00') });
}

const schedule = (op: Operator, body: Record<string, unknown>) =>
  post(
    '/communication/schedule',
    { customerId: op.customerId, locationId: op.locationId, recipientEmail: 'guest@example.test', ...body },
    { key: op.adminKey },
  );

const scheduleRow = async (id: string) => env.DB.prepare('SELECT * FROM scheduled_communications WHERE id = ?').bind(id).first<any>();

describe('POST /communication/schedule', () => {
  it('computes the send time from the trigger; a time already past is skipped, on_cancel waits', async () => {
    const op = await createOperator();
    const r = await booked(op);
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    const end = Date.parse(at(op.timezone, 3, '12:00'));
    const before = Date.now();
    const now = await schedule(op, { templateId: 'gift_card', delayMinutes: 30 });
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({ status: 'pending', trigger: 'immediate', delayMinutes: 30, rentalId: null });
    expect(Date.parse(now.body.sendAt) - before).toBeGreaterThanOrEqual(30 * MIN);
    expect(Date.parse(now.body.sendAt) - Date.now()).toBeLessThanOrEqual(30 * MIN);

    const reminder = await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, trigger: 'before_start', delayMinutes: 24 * 60 });
    expect(reminder.body).toMatchObject({ status: 'pending', sendAt: new Date(start - 24 * HOUR).toISOString() });
    const after = await schedule(op, { templateId: 'booking_confirmation', rentalId: r.rentalId, trigger: 'after_end', delayMinutes: 90 });
    expect(after.body.sendAt).toBe(new Date(end + 90 * MIN).toISOString());
    const late = await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, trigger: 'before_start', delayMinutes: 10 * 24 * 60 });
    expect(late.body).toMatchObject({ status: 'skipped', sendAt: new Date(start - 10 * 24 * HOUR).toISOString() });
    expect(late.body.statusReason).toMatch(/^send_time_passed/);
    const onCancel = await schedule(op, { templateId: 'booking_cancellation', rentalId: r.rentalId, trigger: 'on_cancel' });
    expect(onCancel.body).toMatchObject({ status: 'waiting', sendAt: null });

    const list = await get(`/communication/schedule/rental/${r.rentalId}`, { key: op.adminKey });
    expect(list.body.data.map((s: any) => s.scheduleId)).toEqual([
      reminder.body.scheduleId,
      after.body.scheduleId,
      late.body.scheduleId,
      onCancel.body.scheduleId,
    ]);

    // Validation and tenancy.
    expectError(await schedule(op, { templateId: 'booking_reminder', trigger: 'before_start' }), 400, 'bad_request');
    expectError(await schedule(op, { templateId: 'booking_reminder' }), 400, 'bad_request'); // needs a booking
    expectError(await schedule(op, { templateId: 'gift_card', conditions: { paidInFull: true } }), 400);
    expectError(await schedule(op, { templateId: 'gift_card', rentalId: r.rentalId, conditions: { unknown: 1 } }), 400, 'validation_failed');
    expectError(await schedule(op, { templateId: 'nope' }), 400, 'validation_failed');
    expectError(await schedule(op, { templateId: 'gift_card', trigger: 'whenever' }), 400, 'validation_failed');
    expectError(await schedule(op, { templateId: 'gift_card', recipientEmail: 'not-an-email' }), 400, 'validation_failed');
    const other = await createOperator();
    expectError(await schedule(op, { templateId: 'gift_card', customerId: other.customerId }), 403);
    expectError(await schedule(op, { templateId: 'gift_card', locationId: other.locationId }), 404);
    expectError(await get(`/communication/schedule/rental/${r.rentalId}`, { key: other.adminKey }), 404);

    // Delete cancels; again answers it; a processed one is 409.
    const c1 = await del(`/communication/schedule/${now.body.scheduleId}`, undefined, { key: op.adminKey });
    expect(c1.body).toMatchObject({ status: 'cancelled' });
    expect((await del(`/communication/schedule/${now.body.scheduleId}`, undefined, { key: op.adminKey })).body.status).toBe('cancelled');
    expectError(await del(`/communication/schedule/${late.body.scheduleId}`, undefined, { key: op.adminKey }), 409, 'invalid_state');
    expectError(await del(`/communication/schedule/${reminder.body.scheduleId}`, undefined, { key: other.adminKey }), 404);

    await checkSecurity(op, {
      method: 'POST',
      path: '/communication/schedule',
      body: { customerId: op.customerId, locationId: op.locationId, templateId: 'gift_card', recipientEmail: 'a@b.test' },
      otherStatus: 403,
    });
    await checkSecurity(op, { method: 'DELETE', path: `/communication/schedule/${reminder.body.scheduleId}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/communication/schedule/rental/${r.rentalId}`, otherStatus: 404 });
  });
});

describe('booking lifecycle', () => {
  it("a cancelled booking's reminder is not sent; the other booking's is, once", async () => {
    const op = await createOperator();
    const kept = await booked(op);
    const gone = await booked(op);
    const remind = (rentalId: string) => schedule(op, { templateId: 'booking_reminder', rentalId, trigger: 'before_start', delayMinutes: 60 });
    const keptReminder = (await remind(kept.rentalId)).body;
    const goneReminder = (await remind(gone.rentalId)).body;
    const notice = (await schedule(op, { templateId: 'booking_cancellation', rentalId: gone.rentalId, trigger: 'on_cancel' })).body;
    expect(goneReminder.status).toBe('pending');

    const cancel = await post(`/coreBooking/${gone.rentalId}/cancel`, { reason: 'Weather' }, { key: op.adminKey });
    expect(cancel.status, cancel.text).toBe(200);
    expect(await scheduleRow(goneReminder.scheduleId)).toMatchObject({ status: 'cancelled' });
    expect((await scheduleRow(goneReminder.scheduleId)).status_reason).toMatch(/^booking_cancelled/);
    const started = await scheduleRow(notice.scheduleId);
    expect(started.status).toBe('pending'); // the cancellation was its trigger

    // The cancellation notice goes out now; the reminders are not due yet.
    const run = await post('/communication/process-scheduled', {}, { key: op.adminKey });
    expect(run.status, run.text).toBe(200);
    expect(run.body.scheduled).toMatchObject({ claimed: 1, sent: 1 });
    expect((await messagesOf(op.customerId, 'booking_cancellation')).map((m) => m.rental_id)).toEqual([gone.rentalId]);

    // The Cron Trigger at the reminders' time sends only the kept booking's.
    const due = new Date(Date.parse(keptReminder.sendAt) + 2 * MIN);
    await runCron('*/5 * * * *', due);
    await runCron('*/5 * * * *', due);
    const reminders = await messagesOf(op.customerId, 'booking_reminder');
    expect(reminders.map((m) => m.rental_id)).toEqual([kept.rentalId]);
    expect(reminders[0]).toMatchObject({ to: 'guest@example.test', status: 'sent' });
    expect(reminders[0].subject).toMatch(/^Reminder: Pontoon 22 on /);
    expect(await scheduleRow(keptReminder.scheduleId)).toMatchObject({ status: 'sent', message_id: reminders[0].id });
    expect(await scheduleRow(goneReminder.scheduleId)).toMatchObject({ status: 'cancelled', message_id: null });
  });

  it('a rescheduled booking moves its reminder', async () => {
    const op = await createOperator();
    const r = await booked(op);
    const s = (await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, trigger: 'before_start', delayMinutes: 120 })).body;
    const moved = await post(
      `/coreBooking/${r.rentalId}/reschedule`,
      { startTime: at(op.timezone, 4, '13:00'), endTime: at(op.timezone, 4, '15:00') },
      { key: op.adminKey },
    );
    expect(moved.status, moved.text).toBe(200);
    const row = await scheduleRow(s.scheduleId);
    expect(row).toMatchObject({ status: 'pending', send_at: new Date(Date.parse(at(op.timezone, 4, '13:00')) - 2 * HOUR).toISOString() });
  });

  it('checks conditions again right before sending', async () => {
    const op = await createOperator();
    const r = await booked(op);
    const unmet = (await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, conditions: { bookingStatus: ['checked_in'] } })).body;
    const met = (await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, conditions: { bookingStatus: ['confirmed'], checkedIn: false } }))
      .body;
    const run = await post('/communication/process-scheduled', {}, { key: op.adminKey });
    expect(run.body.scheduled).toMatchObject({ claimed: 2, sent: 1, skipped: 1 });
    const skipped = await scheduleRow(unmet.scheduleId);
    expect(skipped.status).toBe('skipped');
    expect(skipped.status_reason).toBe('condition_not_met: bookingStatus is confirmed, wanted checked_in');
    const msgs = await messagesOf(op.customerId, 'booking_reminder');
    expect(msgs.map((m) => m.status).sort()).toEqual(['sent', 'skipped']);
    expect(msgs.find((m) => m.status === 'skipped')!.id).toBe(skipped.message_id);
    expect(await scheduleRow(met.scheduleId)).toMatchObject({ status: 'sent' });
  });
});

describe('processor', () => {
  it('overlapping runs send each due message exactly once', async () => {
    const op = await createOperator();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const s = await schedule(op, { templateId: 'gift_card', recipientEmail: `g${i}@example.test` });
      ids.push(s.body.scheduleId);
    }
    const runs = await Promise.all([1, 2, 3].map(() => post('/communication/process-scheduled', {}, { key: op.adminKey })));
    for (const r of runs) expect(r.status, r.text).toBe(200);
    expect(runs.reduce((n, r) => n + r.body.scheduled.sent, 0)).toBe(6);
    expect(runs.reduce((n, r) => n + r.body.scheduled.claimed, 0)).toBe(6);
    const mails = await messagesOf(op.customerId, 'gift_card');
    expect(mails).toHaveLength(6);
    expect(new Set(mails.map((m) => JSON.parse(m.metadata!).scheduleId))).toEqual(new Set(ids));
    // The cron path, twice at once, finds nothing left.
    await Promise.all([runCron('*/5 * * * *'), runCron('*/5 * * * *')]);
    expect(await messagesOf(op.customerId, 'gift_card')).toHaveLength(6);
    for (const id of ids) expect((await scheduleRow(id)).status).toBe('sent');
  });

  it('skips a message found long after its time instead of sending it late', async () => {
    const op = await createOperator();
    const s = (await schedule(op, { templateId: 'gift_card', delayMinutes: 5 })).body;
    await runCron('*/5 * * * *', new Date(Date.parse(s.sendAt) + 3 * HOUR));
    const row = await scheduleRow(s.scheduleId);
    expect(row.status).toBe('skipped');
    expect(row.status_reason).toMatch(/^send_window_missed/);
    expect(await messagesOf(op.customerId, 'gift_card')).toHaveLength(0);
  });

  it('is admin only', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'POST', path: '/communication/process-scheduled', body: {}, adminOnly: true });
  });
});
