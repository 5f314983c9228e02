/** Default templates, rendering (time zones, currency, HTML escaping) and send-templated. */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';
import { messagesOf, rental } from './helpers';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';

const YEAR = new Date().getUTCFullYear() + 1;
// 13:00-15:00 UTC on July 15th: 9:00-11:00 in New York (EDT), 15:00-17:00 in Berlin (CEST).
const START = `${YEAR}-07-15T13:00:00.000Z`;
const END = `${YEAR}-07-15T15:00:00.000Z`;

describe('default templates', () => {
  it('lists the eight defaults and reads one by id (404 when unknown)', async () => {
    const op = await createOperator();
    const list = await get('/communication/templates/defaults', { key: op.adminKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: any) => t.templateId)).toEqual([
      'booking_confirmation',
      'booking_reminder',
      'booking_cancellation',
      'waiver_link',
      'cart_recovery',
      'gift_card',
      'membership_receipt',
      'slip_bill',
    ]);
    const one = await get('/communication/templates/defaults/booking_reminder', { key: op.adminKey });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ templateId: 'booking_reminder', needsBooking: true, channels: ['email', 'sms'] });
    expect(one.body.subject).toContain('{{booking.itemName}}');
    expect(one.body.variables.map((v: any) => v.name)).toEqual(expect.arrayContaining(['renter.firstName', 'booking.when', 'location.name']));
    expectError(await get('/communication/templates/defaults/no_such_template', { key: op.adminKey }), 404, 'not_found');
    await checkSecurity(op, { method: 'GET', path: '/communication/templates/defaults' });
    await checkSecurity(op, { method: 'GET', path: '/communication/templates/defaults/booking_reminder' });
  });
});

describe('send-templated', () => {
  it("renders in each location's time zone and currency", async () => {
    const op = await createOperator();
    const ny = await rental(op, { start: START, end: END, timezone: 'America/New_York' });
    const berlin = await rental(op, { start: START, end: END, timezone: 'Europe/Berlin', currency: 'eur' });
    for (const r of [ny, berlin]) {
      const res = await post(
        '/communication/send-templated',
        { customerId: op.customerId, locationId: r.locationId, templateId: 'booking_confirmation', rentalId: r.rentalId },
        { key: op.adminKey },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ success: true, sent: 1, rentalId: r.rentalId });
    }
    const mails = await messagesOf(op.customerId, 'booking_confirmation');
    const nyMail = mails.find((m) => m.rental_id === ny.rentalId)!;
    const deMail = mails.find((m) => m.rental_id === berlin.rentalId)!;
    // Times in each location's zone, through the one formatter (lib/local-time.ts); no ISO timestamp.
    expect(nyMail.body).toContain(`15 Jul ${YEAR}, 09:00–11:00 EDT`);
    expect(deMail.body).toContain(`15 Jul ${YEAR}, 15:00–17:00 CEST`);
    for (const m of [nyMail, deMail]) expect(`${m.subject} ${m.body} ${m.html}`).not.toMatch(ISO_TIMESTAMP);
    expect(nyMail.body).toMatch(/Total: \$\d+\.\d\d/);
    expect(deMail.body).toMatch(/Total: €\d+\.\d\d/);
    expect(nyMail).toMatchObject({ channel: 'email', status: 'sent', provider: 'outbox', subject: 'Your booking at Dock America/New_York is confirmed' });
    expect(nyMail.html).toContain('09:00–11:00 EDT');
  });

  it('escapes values in the HTML part only', async () => {
    const op = await createOperator();
    const r = await rental(op, { start: START, end: END, customerInfo: { firstName: '<b>Tom & "Jerry"</b>' } });
    const res = await post(
      '/communication/send-templated',
      { customerId: op.customerId, locationId: r.locationId, templateId: 'booking_reminder', rentalId: r.rentalId },
      { key: op.adminKey },
    );
    expect(res.status, res.text).toBe(200);
    const [m] = await messagesOf(op.customerId, 'booking_reminder');
    expect(m.html).toContain('Hello &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;,');
    expect(m.html).not.toContain('<b>Tom');
    expect(m.body).toContain('Hello <b>Tom & "Jerry"</b>,');
  });

  it('sends to the renter and a recipient list (each address once), honouring consent and the force flags', async () => {
    const op = await createOperator();
    const r = await rental(op, { start: START, end: END, customerInfo: { phone: '(305) 555-0142' } });
    const body = {
      customerId: op.customerId,
      locationId: r.locationId,
      templateId: 'booking_reminder',
      rentalId: r.rentalId,
      recipientList: ['crew@example.test', { phoneNumber: '+44 7400 123456', firstName: 'Ann' }, r.email],
    };
    const res = await post('/communication/send-templated', body, { key: op.adminKey });
    expect(res.status, res.text).toBe(200);
    const by = (to: string) => res.body.messages.find((m: any) => m.to === to);
    expect(res.body.messages).toHaveLength(4); // renter e-mail, renter SMS (skipped), crew e-mail, Ann's SMS
    expect(by(r.email)).toMatchObject({ channel: 'email', status: 'sent' });
    expect(by('+13055550142')).toMatchObject({ channel: 'sms', status: 'skipped' });
    expect(by('+13055550142').reason).toContain('consent');
    expect(by('crew@example.test')).toMatchObject({ channel: 'email', status: 'sent' });
    expect(by('+447400123456')).toMatchObject({ channel: 'sms', status: 'sent' });
    expect(res.body).toMatchObject({ sent: 3, skipped: 1 });
    const sms = (await messagesOf(op.customerId, 'booking_reminder')).find((m) => m.to === '+447400123456')!;
    expect(sms.body).toMatch(/^Reminder from .*: Pontoon 22 on .* at Main dock\.$/);
    expect(sms.rental_id).toBe(r.rentalId);

    const forced = await post('/communication/send-templated', { ...body, recipientList: undefined, forceSendText: true }, { key: op.adminKey });
    expect(forced.body.messages.find((m: any) => m.channel === 'sms')).toMatchObject({ to: '+13055550142', status: 'sent' });

    // What was sent for the booking, from the send log: these six and the booking's own confirmation.
    const log = await get(`/outbox/messages?rentalId=${r.rentalId}&limit=50`, { key: op.adminKey });
    expect(log.body.total).toBe(7);
    expect(log.body.data.map((m: any) => m.template)).toContain('booking.confirmation');
    expect(log.body.data.every((m: any) => m.rentalId === r.rentalId)).toBe(true);
  });

  it('fills input variables and needs rentalId or recipientList', async () => {
    const op = await createOperator();
    const ok = await post(
      '/communication/send-templated',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        templateId: 'gift_card',
        recipientList: [{ email: 'gift@example.test', firstName: 'Gina' }],
        variables: { 'giftCard.code': 'GIFT-123', 'giftCard.amount': 50, 'giftCard.expiresOn': `${YEAR}-12-31` },
      },
      { key: op.adminKey },
    );
    expect(ok.status, ok.text).toBe(200);
    const [m] = await messagesOf(op.customerId, 'gift_card');
    expect(m.body).toContain('Hello Gina,');
    expect(m.body).toContain('worth $50.00');
    expect(m.body).toContain('Code: GIFT-123');
    expect(m.body).toContain(`31 Dec ${YEAR}`);

    const base = { customerId: op.customerId, locationId: op.locationId, templateId: 'gift_card' };
    expectError(await post('/communication/send-templated', base, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/communication/send-templated', { ...base, templateId: 'nope', recipientList: ['a@b.test'] }, { key: op.adminKey }), 400);
    expectError(await post('/communication/send-templated', { ...base, recipientList: ['not-a-number'] }, { key: op.adminKey }), 400, 'invalid_phone_number');
    expectError(
      await post('/communication/send-templated', { ...base, recipientList: ['a@b.test'], variables: { 'booking.total': 1 } }, { key: op.adminKey }),
      400,
    );
    expect((await messagesOf(op.customerId, 'gift_card')).length).toBe(1); // nothing sent by the refused calls

    const other = await createOperator();
    expectError(await post('/communication/send-templated', { ...base, customerId: other.customerId, recipientList: ['a@b.test'] }, { key: op.adminKey }), 403);
    expectError(await post('/communication/send-templated', { ...base, locationId: other.locationId, recipientList: ['a@b.test'] }, { key: op.adminKey }), 404);
    await checkSecurity(op, { method: 'POST', path: '/communication/send-templated', body: { ...base, recipientList: ['a@b.test'] }, otherStatus: 403 });
  });
});
