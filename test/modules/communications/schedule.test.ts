/** Scheduled communications: send times, booking hooks, conditions and the processor (claimed once). */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, createOperator, del, expectError, get, post, runCron, type Operator } from '../../harness';
import { dayAfter, pinnedClocks } from '../../clocks';
import { localDate, wallTimeToUtc } from '../../../src/lib/time';
import { formatLocalDay, ISO_TIMESTAMP, zoneAbbreviation } from '../../../src/lib/local-time';
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

// ------------------------------------------------------------------------------------------------
// On a sandbox test clock: messages go at their own time as the clock advances, and read local time.

const wall = (date: string, time: string, tz: string) => new Date(wallTimeToUtc(date, time, tz)).toISOString();
const sentAt = async (customerId: string, template: string) =>
  (
    await env.DB.prepare('SELECT created_at FROM message_outbox WHERE customer_id = ? AND template = ? ORDER BY created_at')
      .bind(customerId, template)
      .all<any>()
  ).results.map((m) => m.created_at as string);

describe('on a test clock', () => {
  it('a reminder goes at its send time and reads the booking in New York time ("…10:00–14:00 EST"), never an ISO timestamp', async () => {
    const NY = 'America/New_York';
    // Thu 14 Jan 2027, 12:00 in New York; the rental is Sat 16 Jan, 10:00–14:00 EST.
    const op = await createOperator({ clockAt: '2027-01-14T17:00:00.000Z', timezone: NY });
    const r = await rental(op, { start: wall('2027-01-16', '10:00', NY), end: wall('2027-01-16', '14:00', NY) });
    const s = (await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, trigger: 'before_start', delayMinutes: 24 * 60 })).body;
    expect(s).toMatchObject({ status: 'pending', sendAt: '2027-01-15T15:00:00.000Z' });

    // A minute before its time nothing is sent; past it, it was sent at its time exactly.
    expect((await advanceClock(op.clockId!, '2027-01-15T14:59:00.000Z', op.adminKey)).status).toBe('ready');
    expect(await messagesOf(op.customerId, 'booking_reminder')).toHaveLength(0);
    expect((await advanceClock(op.clockId!, '2027-01-15T18:00:00.000Z', op.adminKey)).status).toBe('ready');
    const [m] = await messagesOf(op.customerId, 'booking_reminder');
    expect(m).toMatchObject({ status: 'sent', to: 'guest@example.test', subject: 'Reminder: Pontoon 22 on Sat 16 Jan 2027' });
    expect(m.body).toContain('Pontoon 22 on Sat 16 Jan 2027, 10:00–14:00 EST (Eastern Standard Time) at Main dock');
    expect(m.html).toContain('Sat 16 Jan 2027, 10:00–14:00 EST');
    for (const text of [m.subject, m.body, m.html]) expect(text).not.toMatch(ISO_TIMESTAMP);
    expect(await sentAt(op.customerId, 'booking_reminder')).toEqual(['2027-01-15T15:00:00.000Z']);
    expect(await scheduleRow(s.scheduleId)).toMatchObject({ status: 'sent', processed_at: '2027-01-15T15:00:00.000Z' });
  });

  it('the wall-clock cron leaves a test-clock operator alone; its messages wait for its clock', async () => {
    const op = await createOperator({ clockAt: '2027-01-14T17:00:00.000Z' });
    const s = (await schedule(op, { templateId: 'gift_card', delayMinutes: 5 })).body;
    expect(s.sendAt).toBe('2027-01-14T17:05:00.000Z');
    await runCron('*/5 * * * *', new Date('2027-01-14T17:10:00.000Z'));
    expect((await scheduleRow(s.scheduleId)).status).toBe('pending');
    await advanceClock(op.clockId!, '2027-01-14T17:10:00.000Z', op.adminKey);
    expect(await scheduleRow(s.scheduleId)).toMatchObject({ status: 'sent', processed_at: '2027-01-14T17:05:00.000Z' });
  });
});

// Each pinned instant's test has an operator and a test clock of its own: they run concurrently, so one
// test's wait for its clock's advance (through the queue) overlaps another's work.
describe.concurrent.each(pinnedClocks())('reminders at $label', ({ timezone, at: now }) => {
  it("a reminder of tomorrow's 10:00–14:00 booking goes two hours before the start, in local time", async () => {
    const op = await createOperator({ clockAt: now, timezone });
    const day = dayAfter(localDate(Date.parse(now), timezone));
    const start = wall(day, '10:00', timezone);
    const r = await rental(op, { start, end: wall(day, '14:00', timezone) });
    const s = (await schedule(op, { templateId: 'booking_reminder', rentalId: r.rentalId, trigger: 'before_start', delayMinutes: 120 })).body;
    expect(s).toMatchObject({ status: 'pending', sendAt: wall(day, '08:00', timezone) });
    expect((await advanceClock(op.clockId!, wall(day, '09:00', timezone), op.adminKey)).status).toBe('ready');
    const [m] = await messagesOf(op.customerId, 'booking_reminder');
    expect(m.body).toContain(`${formatLocalDay(Date.parse(start), timezone)}, 10:00–14:00 ${zoneAbbreviation(Date.parse(start), timezone)}`);
    expect(`${m.subject} ${m.body} ${m.html}`).not.toMatch(ISO_TIMESTAMP);
    expect(await sentAt(op.customerId, 'booking_reminder')).toEqual([s.sendAt]);
  });
});

describe.concurrent.each(pinnedClocks())('scheduled messages at $label', ({ at: now }) => {
  it('a message scheduled 30 minutes ahead goes then, once', async () => {
    const op = await createOperator({ clockAt: now });
    const s = (await schedule(op, { templateId: 'gift_card', delayMinutes: 30 })).body;
    expect(s).toMatchObject({ status: 'pending', sendAt: new Date(Date.parse(now) + 30 * MIN).toISOString() });
    expect((await advanceClock(op.clockId!, Date.parse(now) + 29 * MIN, op.adminKey)).status).toBe('ready');
    expect((await scheduleRow(s.scheduleId)).status).toBe('pending');
    expect((await advanceClock(op.clockId!, Date.parse(now) + 40 * MIN, op.adminKey)).status).toBe('ready');
    expect(await scheduleRow(s.scheduleId)).toMatchObject({ status: 'sent', processed_at: s.sendAt });
    expect(await sentAt(op.customerId, 'gift_card')).toEqual([s.sendAt]);
  });
});
