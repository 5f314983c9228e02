/** Phone numbers, SMS, waiver links and opt-out keywords on the signed Twilio webhook. */
import { describe, it, expect } from 'vitest';
import { api, createOperator, expectError, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { messagesOf, twilioPost } from './helpers';

describe('validate-phone', () => {
  it('normalises to E.164 and refuses invalid numbers and countries without SMS', async () => {
    const op = await createOperator();
    const v = (body: unknown) => post('/communication/validate-phone', body, { key: op.adminKey });
    const us = await v({ phoneNumber: '(305) 555-0142' });
    expect(us.status, us.text).toBe(200);
    expect(us.body).toMatchObject({ valid: true, e164: '+13055550142', country: 'US', countryCallingCode: '1', smsAvailable: true, optedOut: false });
    expect((await v({ phoneNumber: '030 1234567', country: 'de' })).body).toMatchObject({ e164: '+49301234567', country: 'DE' });
    expectError(await v({ phoneNumber: '12' }), 400, 'validation_failed');
    expectError(await v({ phoneNumber: '555-0' }), 400, 'invalid_phone_number');
    expectError(await v({ phoneNumber: '0301234567', country: 'ZZ' }), 400, 'invalid_phone_number');
    const jp = await v({ phoneNumber: '+81 3-1234-5678' });
    expectError(jp, 400, 'sms_unavailable');
    expect(jp.body).toMatchObject({ e164: '+81312345678', country: 'JP' });
    await checkSecurity(op, { method: 'POST', path: '/communication/validate-phone', body: { phoneNumber: '+13055550142' } });
  });
});

describe('send-sms and send-waiver-link', () => {
  it('sends through the one send function and records the message', async () => {
    const op = await createOperator();
    const r = await post(
      '/communication/send-sms',
      { phoneNumber: '305-555-0143', message: 'Your boat is ready', locationId: op.locationId },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, phoneNumber: '+13055550143', channel: 'sms', status: 'sent', provider: 'outbox' });
    const [m] = await messagesOf(op.customerId, 'sms.custom');
    expect(m).toMatchObject({ id: r.body.messageId, to: '+13055550143', body: 'Your boat is ready', status: 'sent' });
    expectError(await post('/communication/send-sms', { phoneNumber: 'abc-def', message: 'x' }, { key: op.adminKey }), 400, 'invalid_phone_number');
    expectError(await post('/communication/send-sms', { phoneNumber: '+81 3-1234-5678', message: 'x' }, { key: op.adminKey }), 400, 'sms_unavailable');
    const other = await createOperator();
    expectError(await post('/communication/send-sms', { phoneNumber: '+13055550143', message: 'x', locationId: other.locationId }, { key: op.adminKey }), 404);
    await checkSecurity(op, {
      method: 'POST',
      path: '/communication/send-sms',
      body: { phoneNumber: '+13055550143', message: 'x', customerId: op.customerId },
      otherStatus: 403,
    });
  });

  it('resolves relative waiver URLs against the location public base', async () => {
    const op = await createOperator();
    const send = (body: Record<string, unknown>) => post('/communication/send-waiver-link', { phoneNumber: '+13055550144', ...body }, { key: op.adminKey });
    const a = await send({ waiverUrl: '/inHouseWaiver/waiver/templates/location/x', firstName: 'Wendy', locationId: op.locationId });
    expect(a.status, a.text).toBe(200);
    expect(a.body.waiverUrl).toBe('http://berth.test/inHouseWaiver/waiver/templates/location/x');
    const [first] = await messagesOf(op.customerId, 'waiver_link');
    expect(first.body).toBe('Hi Wendy, please sign your waiver for Main dock: http://berth.test/inHouseWaiver/waiver/templates/location/x');

    expect(
      (await patch('/location', { locationId: op.locationId, details: { publicBaseUrl: 'https://waivers.example.com/sign/' } }, { key: op.adminKey })).status,
    ).toBe(200);
    const b = await send({ waiverUrl: 'w/123', message: 'Sign here {url} before 9am', locationId: op.locationId, transactionId: 'txn_123' });
    expect(b.body.waiverUrl).toBe('https://waivers.example.com/sign/w/123');
    const c = await send({ waiverUrl: 'https://other.example/w', message: 'Please sign' });
    expect(c.body.waiverUrl).toBe('https://other.example/w');
    const bodies = (await messagesOf(op.customerId, 'waiver_link')).map((m) => m.body);
    expect(bodies).toContain('Sign here https://waivers.example.com/sign/w/123 before 9am');
    expect(bodies).toContain('Please sign https://other.example/w');
    expectError(await send({ waiverUrl: 'javascript:alert(1)' }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'POST', path: '/communication/send-waiver-link', body: { phoneNumber: '+13055550144', waiverUrl: '/w' } });
  });
});

describe('opt-out keywords', () => {
  it('STOP on the signed webhook stops later SMS to the number; START re-opens it', async () => {
    const op = await createOperator();
    const phone = `+1305555${String(Date.now() % 10000).padStart(4, '0')}`;
    const sms = () => post('/communication/send-sms', { phoneNumber: phone, message: 'Hello' }, { key: op.adminKey });
    expect((await sms()).body.status).toBe('sent');

    // Unsigned or wrongly signed calls change nothing.
    const unsigned = await api('POST', '/communication/sms/inbound', {
      rawBody: new URLSearchParams({ From: phone, Body: 'STOP' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(unsigned, 403, 'forbidden');
    expectError(await twilioPost('/communication/sms/inbound', { From: phone, Body: 'STOP' }, 'not-the-auth-token-000000'), 403);
    expect((await sms()).body.status).toBe('sent');

    const stop = await twilioPost('/communication/sms/inbound', { From: phone, To: '+15005550006', Body: ' stop. ', MessageSid: 'SM1' });
    expect(stop.status, stop.text).toBe(200);
    expect(stop.headers.get('content-type')).toContain('text/xml');
    expect(stop.text).toContain('<Response></Response>');
    const blocked = await sms();
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ success: false, status: 'skipped' });
    expect(blocked.body.reason).toContain('STOP');
    expect((await post('/communication/validate-phone', { phoneNumber: phone }, { key: op.adminKey })).body.optedOut).toBe(true);
    // Also through the templated path, even when forced.
    const t = await post(
      '/communication/send-templated',
      { customerId: op.customerId, locationId: op.locationId, templateId: 'gift_card', recipientList: [phone], forceSendText: true },
      { key: op.adminKey },
    );
    expect(t.body.messages[0]).toMatchObject({ channel: 'sms', status: 'skipped' });

    // Another operator's SMS to the number is stopped too (one platform sender).
    const other = await createOperator();
    expect((await post('/communication/send-sms', { phoneNumber: phone, message: 'Hi' }, { key: other.adminKey })).body.status).toBe('skipped');

    await twilioPost('/communication/sms/inbound', { From: phone, Body: 'Hello there' }); // not a keyword
    expect((await sms()).body.status).toBe('skipped');
    await twilioPost('/communication/sms/inbound', { From: phone, Body: 'START' });
    expect((await sms()).body.status).toBe('sent');
    await twilioPost('/communication/sms/inbound', { From: phone, Body: 'unsubscribe' });
    expect((await sms()).body.status).toBe('skipped');

    const log = (await messagesOf(op.customerId, 'sms.custom')).map((m) => m.status);
    expect(log).toEqual(['sent', 'sent', 'skipped', 'skipped', 'sent', 'skipped']);
  });

  it('stores Twilio delivery reports on the message', async () => {
    // A message as the Twilio transport records it (provider id and status), then Twilio's status callbacks.
    const op = await createOperator();
    const sid = `SM${crypto.randomUUID().replace(/-/g, '')}`;
    const { env } = await import('cloudflare:test');
    await env.DB.prepare(
      `INSERT INTO message_outbox (id, customer_id, channel, "to", body, status, provider, provider_message_id, provider_status, attempts, created_at)
       VALUES (?, ?, 'sms', '+13055550145', 'x', 'sent', 'twilio', ?, 'queued', 1, ?)`,
    )
      .bind(`msg_${sid}`, op.customerId, sid, new Date().toISOString())
      .run();
    expect((await twilioPost('/communication/sms/status', { MessageSid: sid, MessageStatus: 'delivered' })).body).toMatchObject({ updated: true });
    let [m] = await messagesOf(op.customerId);
    expect(m).toMatchObject({ status: 'sent', provider_status: 'delivered' });
    await twilioPost('/communication/sms/status', { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' });
    [m] = await messagesOf(op.customerId);
    expect(m.status).toBe('failed');
    expect(m.status_reason).toContain('30003');
    expect((await twilioPost('/communication/sms/status', { MessageSid: 'SMunknown', MessageStatus: 'sent' })).body).toMatchObject({ updated: false });
    // Only Twilio may report: a wrong signature changes nothing.
    expectError(await twilioPost('/communication/sms/status', { MessageSid: sid, MessageStatus: 'delivered' }, 'not-the-auth-token-000000'), 403);
    [m] = await messagesOf(op.customerId);
    expect(m.provider_status).toBe('undelivered');
  });
});
