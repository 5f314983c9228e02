/**
 * The e-mail (Postmark) and SMS (Twilio) transports behind the one send function, exercised against
 * a local fake of both providers (installed as the outbound fetch): request shape, auth headers,
 * what is recorded for a success, a refusal and a temporary failure, and the transactional path.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator } from '../../harness';
import type { Env } from '../../../src/env';
import { systemCtx } from '../../../src/lib/context';
import { outbound } from '../../../src/adapters/http';
import { deliverDueMessages, deliverQueuedMessage, emailStmt, isOptedOut, nextMessageDue, readMessage, sendMessage } from '../../../src/adapters/messages';
import { fixedClock } from '../../../src/lib/clock';

const PM_TOKEN = 'pm-server-token-test-0001';
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TW_TOKEN = 'twilio-auth-token-test-0001';
const FROM = '+15005550006';

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake Postmark and Twilio: they check credentials and answer like the real APIs. */
function fakeProviders() {
  const calls: Call[] = [];
  const state = { postmark: 'ok' as 'ok' | 'inactive' | 'down', twilio: 'ok' as 'ok' | 'unsubscribed' };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const handler = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const body = await req.text();
    const url = new URL(req.url);
    // Only the providers' calls: a webhook queued by an earlier test file may be delivered through this fetch meanwhile.
    if (url.host === 'api.postmarkapp.com' || url.host === 'api.twilio.com')
      calls.push({ method: req.method, url: req.url, headers: Object.fromEntries(req.headers), body });
    if (url.host === 'api.postmarkapp.com' && url.pathname === '/email') {
      if (req.headers.get('x-postmark-server-token') !== PM_TOKEN) return json(401, { ErrorCode: 10, Message: 'Bad or missing Server API token.' });
      if (state.postmark === 'down') return json(503, { ErrorCode: 100, Message: 'Service unavailable' });
      const msg = JSON.parse(body);
      if (state.postmark === 'inactive')
        return json(422, { ErrorCode: 406, Message: 'You tried to send to recipient(s) that have been marked as inactive.', To: msg.To });
      return json(200, { To: msg.To, SubmittedAt: new Date().toISOString(), MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' });
    }
    if (url.host === 'api.twilio.com' && url.pathname === `/2010-04-01/Accounts/${SID}/Messages.json`) {
      if (req.headers.get('authorization') !== `Basic ${btoa(`${SID}:${TW_TOKEN}`)}`) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
      const form = new URLSearchParams(body);
      if (state.twilio === 'unsubscribed') return json(400, { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 });
      return json(201, {
        sid: `SM${crypto.randomUUID().replace(/-/g, '')}`,
        status: 'queued',
        to: form.get('To'),
        from: form.get('From'),
        body: form.get('Body'),
      });
    }
    return json(404, { message: 'no such fake endpoint' });
  };
  return { calls, state, handler };
}

const configured = (over: Partial<Env> = {}): Env =>
  ({
    ...env,
    POSTMARK_SERVER_TOKEN: PM_TOKEN,
    EMAIL_FROM: 'Demo Marina <no-reply@berth.test>',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TW_TOKEN,
    TWILIO_FROM_NUMBER: FROM,
    ...over,
  }) as Env;

let fake: ReturnType<typeof fakeProviders>;
const realFetch = outbound.fetch;
beforeEach(() => {
  fake = fakeProviders();
  outbound.fetch = fake.handler;
});
afterEach(() => {
  outbound.fetch = realFetch;
});

describe('Postmark e-mail', () => {
  it('sends with the server token and records the MessageID', async () => {
    const op = await createOperator();
    const ctx = systemCtx(configured(), { customerId: op.customerId });
    const r = await sendMessage(ctx, {
      channel: 'email',
      to: 'guest@example.test',
      subject: 'Hello',
      body: 'Plain part',
      html: '<p>HTML part</p>',
      template: 'booking_reminder',
      rentalId: 'bk_test',
    });
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0];
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.postmarkapp.com/email' });
    expect(call.headers['x-postmark-server-token']).toBe(PM_TOKEN);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.accept).toBe('application/json');
    expect(JSON.parse(call.body)).toEqual({
      From: 'Demo Marina <no-reply@berth.test>',
      To: 'guest@example.test',
      Subject: 'Hello',
      TextBody: 'Plain part',
      HtmlBody: '<p>HTML part</p>',
      MessageStream: 'outbound',
      Tag: 'booking_reminder',
      Metadata: { messageId: r.messageId, rentalId: 'bk_test' },
    });
    expect(r).toMatchObject({ status: 'sent', provider: 'postmark', providerStatus: 'OK', reason: null });
    expect(r.providerMessageId).toMatch(/^[0-9a-f-]{36}$/);
    const row = await readMessage(ctx, r.messageId);
    expect(row).toMatchObject({ status: 'sent', provider: 'postmark', providerMessageId: r.providerMessageId, attempts: 1, rentalId: 'bk_test' });
    expect(row!.sentAt).not.toBeNull();
  });

  it("records a refusal with Postmark's reason, and retries a temporary failure", async () => {
    const op = await createOperator();
    const ctx = systemCtx(configured(), { customerId: op.customerId });
    fake.state.postmark = 'inactive';
    const refused = await sendMessage(ctx, { channel: 'email', to: 'bounced@example.test', subject: 'x', body: 'x' });
    expect(refused).toMatchObject({ status: 'failed', provider: 'postmark' });
    expect(refused.reason).toBe('Postmark 406: You tried to send to recipient(s) that have been marked as inactive.');

    fake.state.postmark = 'down';
    const later = await sendMessage(ctx, { channel: 'email', to: 'later@example.test', subject: 'x', body: 'x' });
    expect(later.status).toBe('queued');
    expect(later.reason).toMatch(/^retrying: Postmark 100/);
    const row = await readMessage(ctx, later.messageId);
    expect(Date.parse(row!.nextAttemptAt!)).toBeGreaterThan(Date.now());
    fake.state.postmark = 'ok';
    const early = await deliverDueMessages(ctx);
    expect(early.sent).toBe(0); // not due yet
    expect(await nextMessageDue(ctx)).toBe(Date.parse(row!.nextAttemptAt!)); // the sweep's next due time is the retry
    const swept = await deliverDueMessages({ ...ctx, clock: fixedClock(Date.now() + 2 * 60_000) });
    expect(swept.sent).toBeGreaterThanOrEqual(1);
    expect(await readMessage(ctx, later.messageId)).toMatchObject({ status: 'sent', attempts: 2, statusReason: null });
    expect(fake.calls.filter((c) => JSON.parse(c.body).To === 'later@example.test')).toHaveLength(2);
  });

  it('a message written in a batch is queued and delivered once after the commit', async () => {
    const op = await createOperator();
    const queued: { body: any; opts: any }[] = [];
    const queue = { send: async (body: unknown, opts: unknown) => void queued.push({ body, opts }), sendBatch: async () => {} };
    const ctx = systemCtx(configured({ EVENTS_QUEUE: queue as unknown as Env['EVENTS_QUEUE'] }), { customerId: op.customerId });
    const { id, stmt } = emailStmt(ctx, { to: 'batch@example.test', subject: 'Booked', body: 'Thanks' });
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ body: { kind: 'message.deliver', messageId: id }, opts: { delaySeconds: 2 } });
    // Before the commit the consumer waits (the queue retries the message).
    await expect(deliverQueuedMessage(ctx, queued[0].body)).rejects.toThrow(/not committed/);
    await ctx.db.batch([stmt]);
    expect(await readMessage(ctx, id)).toMatchObject({ status: 'queued', provider: 'postmark' });
    await Promise.all([deliverQueuedMessage(ctx, queued[0].body), deliverQueuedMessage(ctx, queued[0].body)]);
    expect(fake.calls).toHaveLength(1); // claimed once
    expect(await readMessage(ctx, id)).toMatchObject({ status: 'sent', provider: 'postmark' });
    // A delivery whose batch never committed is dropped after a while.
    await expect(deliverQueuedMessage(ctx, { kind: 'message.deliver', messageId: 'msg_never', enqueuedAt: Date.now() - 3_600_000 })).resolves.toBeUndefined();
  });
});

describe('Twilio SMS', () => {
  it('sends with basic auth and records the SID', async () => {
    const op = await createOperator();
    const ctx = systemCtx(configured(), { customerId: op.customerId });
    const r = await sendMessage(ctx, { channel: 'sms', to: '+13055550150', body: 'Your boat is ready' });
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0];
    expect(call).toMatchObject({ method: 'POST', url: `https://api.twilio.com/2010-04-01/Accounts/${SID}/Messages.json` });
    expect(call.headers.authorization).toBe(`Basic ${btoa(`${SID}:${TW_TOKEN}`)}`);
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({ To: '+13055550150', Body: 'Your boat is ready', From: FROM });
    expect(r).toMatchObject({ status: 'sent', provider: 'twilio', providerStatus: 'queued' });
    expect(r.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);

    // A messaging service replaces From; PUBLIC_BASE_URL adds the status callback.
    const svc = systemCtx(configured({ TWILIO_MESSAGING_SERVICE_SID: `MG${'a'.repeat(32)}`, PUBLIC_BASE_URL: 'https://api.berth.example' }), {
      customerId: op.customerId,
    });
    await sendMessage(svc, { channel: 'sms', to: '+13055550150', body: 'Again' });
    expect(Object.fromEntries(new URLSearchParams(fake.calls[1].body))).toEqual({
      To: '+13055550150',
      Body: 'Again',
      MessagingServiceSid: `MG${'a'.repeat(32)}`,
      StatusCallback: 'https://api.berth.example/communication/sms/status',
    });
  });

  it('an unsubscribed recipient fails the message and opts the number out', async () => {
    const op = await createOperator();
    const ctx = systemCtx(configured(), { customerId: op.customerId });
    const phone = `+1305556${String(Date.now() % 10000).padStart(4, '0')}`;
    fake.state.twilio = 'unsubscribed';
    const r = await sendMessage(ctx, { channel: 'sms', to: phone, body: 'x' });
    expect(r).toMatchObject({ status: 'failed', reason: 'Twilio 21610: Attempt to send to unsubscribed recipient' });
    expect(await isOptedOut(ctx, phone)).toBe(true);
    const next = await sendMessage(ctx, { channel: 'sms', to: phone, body: 'y' });
    expect(next.status).toBe('skipped');
    expect(fake.calls).toHaveLength(1); // the provider is not called for an opted-out number
  });

  it('wrong credentials are a refusal, not a retry', async () => {
    const op = await createOperator();
    const ctx = systemCtx(configured({ TWILIO_AUTH_TOKEN: 'wrong-token-000000000' }), { customerId: op.customerId });
    const r = await sendMessage(ctx, { channel: 'sms', to: '+13055550151', body: 'x' });
    expect(r).toMatchObject({ status: 'failed', reason: 'Twilio 20003: Authenticate' });
  });
});
