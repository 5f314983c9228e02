/** Message automations: CRUD and checks, "N hours before" on a test clock, once per booking under parallel and repeated runs. */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, createOperator, del, expectError, get, patch, post, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { wallTimeToUtc } from '../../../src/lib/time';
import { at, book, bookBody, dateAhead, rentalItem } from '../bookings/factories';
import { messagesOf, rental } from './helpers';

const automate = (op: Operator, body: Record<string, unknown>) => post('/communication/automations', body, { key: op.adminKey });
const runsOf = async (automationId: string) =>
  (await env.DB.prepare('SELECT * FROM automation_runs WHERE automation_id = ? ORDER BY created_at').bind(automationId).all<any>()).results;
const NY = 'America/New_York';
const wall = (date: string, time: string) => new Date(wallTimeToUtc(date, time, NY)).toISOString();

describe('/communication/automations', () => {
  it('creates, lists, updates and deletes; checks hours, template, staff user and items', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const staff = await op.addUser({ role: 'staff' });
    const made = await automate(op, {
      trigger: 'hours_before_start',
      hours: 24,
      recipient: 'staff',
      staffUserId: staff.userId,
      channel: 'email',
      templateId: 'booking_reminder',
      itemIds: [item.id],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ trigger: 'hours_before_start', hours: 24, recipient: 'staff', itemIds: [item.id], active: true });
    const id = made.body.automationId as string;

    expectError(
      await automate(op, { trigger: 'hours_before_start', recipient: 'renter', channel: 'email', templateId: 'booking_reminder' }),
      400,
      'validation_failed',
    );
    expectError(
      await automate(op, { trigger: 'booked', hours: 3, recipient: 'renter', channel: 'email', templateId: 'booking_reminder' }),
      400,
      'validation_failed',
    );
    expectError(await automate(op, { trigger: 'whenever', recipient: 'renter', channel: 'email', templateId: 'booking_reminder' }), 400, 'validation_failed');
    expectError(await automate(op, { trigger: 'booked', recipient: 'renter', channel: 'fax', templateId: 'booking_reminder' }), 400, 'validation_failed');
    expectError(await automate(op, { trigger: 'booked', recipient: 'renter', channel: 'email', templateId: 'not_a_key' }), 400, 'validation_failed');
    const other = await createOperator();
    const foreignTpl = await post('/communication/templates', { key: 'booking_reminder', subject: 'x', html: '<p>x</p>', text: 'x' }, { key: other.adminKey });
    const base = { trigger: 'booked', recipient: 'renter', channel: 'email' };
    expectError(await automate(op, { ...base, templateId: foreignTpl.body.templateId }), 404);
    expectError(await automate(op, { ...base, recipient: 'staff', staffUserId: other.adminId, templateId: 'booking_reminder' }), 404);
    expectError(await automate(op, { ...base, templateId: 'booking_reminder', itemIds: [(await rentalItem(other)).id] }), 404);

    const off = await patch(`/communication/automations/${id}`, { active: false, hours: 48 }, { key: op.adminKey });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ active: false, hours: 48 });
    expect((await get('/communication/automations?active=false', { key: op.adminKey })).body.data.map((a: any) => a.automationId)).toEqual([id]);
    expect((await get('/communication/automations?active=true', { key: op.adminKey })).body.total).toBe(0);
    expectError(await get(`/communication/automations/${id}`, { key: other.adminKey }), 404);

    for (const rc of [
      { method: 'GET', path: '/communication/automations' },
      { method: 'POST', path: '/communication/automations', body: { ...base, templateId: 'booking_reminder' }, adminOnly: true },
      { method: 'GET', path: `/communication/automations/${id}`, otherStatus: 404 as const },
      { method: 'PATCH', path: `/communication/automations/${id}`, body: { active: true }, otherStatus: 404 as const, adminOnly: true },
      { method: 'DELETE', path: `/communication/automations/${id}`, otherStatus: 404 as const, adminOnly: true },
    ])
      await checkSecurity(op, rc);
    expect((await del(`/communication/automations/${id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/communication/automations/${id}`, { key: op.adminKey }), 404);
  });

  it('an automation whose item and template were deleted can still be switched off; a PATCH naming a missing one answers 404', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const tpl = await post('/communication/templates', { key: 'booking_reminder', subject: 'x', html: '<p>x</p>', text: 'x' }, { key: op.adminKey });
    const made = await automate(op, { trigger: 'booked', recipient: 'renter', channel: 'email', templateId: tpl.body.templateId, itemIds: [item.id] });
    expect(made.status, made.text).toBe(201);
    const path = `/communication/automations/${made.body.automationId}`;
    expect((await del(`/communication/templates/${tpl.body.templateId}`, undefined, { key: op.adminKey })).status).toBe(200);
    expect((await del(`/inventory/delete/${item.id}`, undefined, { key: op.adminKey })).status).toBe(200);
    const off = await patch(path, { active: false }, { key: op.adminKey });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ active: false, templateId: tpl.body.templateId, itemIds: [item.id] });
    expectError(await patch(path, { templateId: tpl.body.templateId }, { key: op.adminKey }), 404);
    expectError(await patch(path, { itemIds: [item.id] }, { key: op.adminKey }), 404);
    const moved = await patch(path, { templateId: 'booking_reminder', itemIds: [] }, { key: op.adminKey });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ templateId: 'booking_reminder', itemIds: [] });
  });

  it('"24 hours before the start" fires at that instant on a test clock, with the edited reminder; "booked" tells the staff user once', async () => {
    // Thu 14 Jan 2027, 12:00 in New York; the rental is Sat 16 Jan, 10:00–14:00 EST (15:00Z).
    const op = await createOperator({ clockAt: '2027-01-14T17:00:00.000Z', timezone: NY });
    const staff = await op.addUser({ role: 'manager', email: `captain-${op.customerId.slice(-6).toLowerCase()}@example.test` });
    const tpl = await post(
      '/communication/templates',
      {
        key: 'booking_reminder',
        subject: 'Tomorrow: {{booking.itemName}} at {{booking.startTime}}',
        html: '<p>{{booking.when}}</p>',
        text: 'See you {{booking.when}}',
      },
      { key: op.adminKey },
    );
    expect(tpl.status, tpl.text).toBe(201);
    const remind = await automate(op, { trigger: 'hours_before_start', hours: 24, recipient: 'renter', channel: 'email', templateId: 'booking_reminder' });
    const tell = await automate(op, { trigger: 'booked', recipient: 'staff', staffUserId: staff.userId, channel: 'email', templateId: tpl.body.templateId });
    expect([remind.status, tell.status]).toEqual([201, 201]);
    const r = await rental(op, { start: wall('2027-01-16', '10:00'), end: wall('2027-01-16', '14:00') });

    expect((await advanceClock(op.clockId!, '2027-01-15T14:59:00.000Z', op.adminKey)).status).toBe('ready');
    expect(await messagesOf(op.customerId, 'booking_reminder')).toHaveLength(1); // the staff notice only
    expect((await advanceClock(op.clockId!, '2027-01-15T18:00:00.000Z', op.adminKey)).status).toBe('ready');
    const mails = await messagesOf(op.customerId, 'booking_reminder');
    expect(mails.map((m) => m.to)).toEqual([staff.email, r.email]);
    const reminder = mails[1];
    expect(reminder).toMatchObject({
      status: 'sent',
      rental_id: r.rentalId,
      subject: 'Tomorrow: Pontoon 22 at 10:00 EST',
      body: 'See you Sat 16 Jan 2027, 10:00–14:00 EST',
    });
    const runs = await runsOf(remind.body.automationId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ subject_id: r.rentalId, due_at: '2027-01-15T15:00:00.000Z', status: 'sent', created_at: '2027-01-15T15:00:00.000Z' });
    expect(await runsOf(tell.body.automationId)).toHaveLength(1);
  });

  it('parallel and repeated runs send once per booking; cancelled fires for a cancellation; an inactive one never fires', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const auto = await automate(op, { trigger: 'hours_before_start', hours: 24 * 7, recipient: 'renter', channel: 'email', templateId: 'booking_reminder' });
    const onCancel = await automate(op, {
      trigger: 'cancelled',
      recipient: 'renter',
      channel: 'email',
      templateId: 'booking_cancellation',
      itemIds: [item.id],
    });
    const idle = await automate(op, { trigger: 'booked', recipient: 'renter', channel: 'email', templateId: 'gift_card', active: false });
    // The location's staff: the users assigned to the booking's location (not the others).
    const deckhand = await op.addUser({ role: 'staff' });
    await op.addUser({ role: 'staff' });
    await env.DB.prepare('UPDATE users SET locations = ? WHERE id = ?')
      .bind(JSON.stringify([item.locationId]), deckhand.userId)
      .run();
    const crew = await automate(op, { trigger: 'booked', recipient: 'staff', channel: 'email', templateId: 'booking_confirmation' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 2, '10:00'), endTime: at(op.timezone, 2, '12:00') }));
      expect(b.status, b.text).toBe(201);
      ids.push(b.body.rentalId);
    }
    expect((await post(`/coreBooking/${ids[2]}/cancel`, { reason: 'Sick' }, { key: op.adminKey })).status).toBe(200);

    await Promise.all([runCron('*/5 * * * *'), runCron('*/5 * * * *'), runCron('*/5 * * * *')]);
    await runCron('*/5 * * * *');
    const reminders = await messagesOf(op.customerId, 'booking_reminder');
    expect(reminders.map((m) => m.rental_id).sort()).toEqual(ids.slice(0, 2).sort());
    expect((await runsOf(auto.body.automationId)).map((x) => x.status)).toEqual(['sent', 'sent']);
    const notices = (await messagesOf(op.customerId, 'booking_cancellation')).filter((m) => JSON.parse(m.metadata!).automationId);
    expect(notices.map((m) => m.rental_id)).toEqual([ids[2]]);
    expect(await runsOf(onCancel.body.automationId)).toHaveLength(1);
    expect(await runsOf(idle.body.automationId)).toHaveLength(0);
    const crewMails = (await messagesOf(op.customerId, 'booking_confirmation')).filter((m) => JSON.parse(m.metadata!).automationId === crew.body.automationId);
    expect(crewMails.map((m) => [m.to, m.rental_id]).sort()).toEqual(
      ids
        .slice(0, 2)
        .map((id) => [deckhand.email, id])
        .sort(),
    );
  });

  it("waitlist_offered sends the operator's waitlist_offered template to the waiting person, with the offered spot", async () => {
    const op = await createOperator();
    const boat = await rentalItem(op);
    const tpl = await post(
      '/communication/templates',
      {
        key: 'waitlist_offered',
        subject: 'A spot opened: {{waitlist.itemName}}',
        html: '<p>{{waitlist.when}}</p>',
        text: 'Hi {{renter.firstName}}, {{waitlist.itemName}} on {{waitlist.when}} is yours until {{waitlist.expiresAt}}.',
      },
      { key: op.adminKey },
    );
    expect(tpl.status, tpl.text).toBe(201);
    const auto = await automate(op, { trigger: 'waitlist_offered', recipient: 'renter', channel: 'email', templateId: 'waitlist_offered', itemIds: [boat.id] });
    expect(auto.status, auto.text).toBe(201);
    const waiting = { firstName: 'Wanda', lastName: 'Waiter', email: `wanda-${op.customerId.slice(-6).toLowerCase()}@example.test` };
    const entry = await post('/public/waitlist', { ...waiting, date: dateAhead(op.timezone, 4), inventoryId: boat.id, locationId: boat.locationId });
    expect(entry.status, entry.text).toBe(201);
    const offer = await post(`/waitlist/${entry.body.entryId}/offer`, { time: '09:00', duration: 2 }, { key: op.adminKey });
    expect(offer.status, offer.text).toBe(200);
    await Promise.all([runCron('*/5 * * * *'), runCron('*/5 * * * *')]);
    const [m, ...more] = await messagesOf(op.customerId, 'waitlist_offered');
    expect(more).toHaveLength(0);
    expect(m).toMatchObject({ to: waiting.email, status: 'sent', subject: 'A spot opened: Pontoon 22' });
    expect(m.body).toMatch(/^Hi Wanda, Pontoon 22 on .+, 09:00–11:00 E[SD]T is yours until /);
  });
});
