/**
 * Issue 28, header injection: CR, LF and other control characters never reach a header-bound
 * field of a message (subject, names, sender, recipient, reply-to), whoever built it. A gift
 * card's `recipientName` with CR/LF used to reach the e-mail's Subject line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, get, post } from '../harness';
import type { Env } from '../../src/env';
import { systemCtx } from '../../src/lib/context';
import { outbound } from '../../src/adapters/http';
import { headerText } from '../../src/adapters/email';
import { sendMessage } from '../../src/adapters/messages';

/** A control character (CR, LF and the others below U+0020). */
const CONTROL = { test: (v: string) => [...v].some((ch) => ch.charCodeAt(0) < 0x20) };

const BREAKERS = ['\r\n', '\n', '\r', '\u0000', '\u000b', '\u0085', '\u2028', '\u2029', '\u001b'];
const realFetch = outbound.fetch;
afterEach(() => {
  outbound.fetch = realFetch;
});

describe('header-bound fields', () => {
  it('turns CR, LF and every control character into one space', () => {
    for (const b of BREAKERS) {
      const v = headerText(`Eve${b}Bcc: attacker@evil.test`);
      expect(v, JSON.stringify(b)).toBe('Eve Bcc: attacker@evil.test');
    }
    expect(headerText('  a\r\n\r\n\tb  ')).toBe('a b');
    expect(headerText('x'.repeat(2000))).toHaveLength(998);
  });

  it("keeps CR/LF of a gift card's recipientName out of the e-mail Subject (through HTTP)", async () => {
    const op = await createOperator();
    const bought = await post('/public/gift-card/charge-saved-card', {
      paymentMethodId: 'pm_card_visa',
      amount: 20,
      customerId: op.customerId,
      metadata: { recipientEmail: 'kid@example.test', giftCardAmount: 20 },
    });
    expect(bought.status, bought.text).toBe(200);
    const sent = await post('/public/gift-card/send-email', {
      giftCardCode: bought.body.giftCard.promoCode,
      giftCardAmount: 20,
      recipientEmail: 'kid@example.test',
      customerId: op.customerId,
      recipientName: 'Eve\r\nBcc: attacker@evil.test\r\n\r\nInjected body',
      message: 'Line one\nLine two',
    });
    expect(sent.status, sent.text).toBe(200);
    const list = await get('/outbox/messages?limit=100', { key: op.adminKey });
    expect(list.status, list.text).toBe(200);
    const msg = list.body.data.find((m: { id?: string; messageId?: string }) => (m.id ?? m.messageId) === sent.body.messageId);
    expect(msg, list.text).toBeTruthy();
    expect(msg.subject).toBe('Eve Bcc: attacker@evil.test Injected body, you received a gift card from ' + msg.subject.split(' from ')[1]);
    expect(msg.subject).not.toMatch(/[\r\n]/);
    // The body keeps its line breaks: only header-bound fields are cleaned.
    expect(msg.body).toContain('Line one\nLine two');
  });

  it('sends clean From, To, Subject and Reply-To to the e-mail provider, and a clean To to the SMS provider', async () => {
    const sentBodies: { url: string; body: string }[] = [];
    outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const body = await req.text();
      sentBodies.push({ url: req.url, body });
      if (req.url.includes('postmarkapp')) return Response.json({ MessageID: 'pm-1', ErrorCode: 0, Message: 'OK' });
      return Response.json({ sid: 'SM1', status: 'queued' }, { status: 201 });
    };
    const op = await createOperator();
    const configured = {
      ...env,
      POSTMARK_SERVER_TOKEN: 'pm-server-token-test-0001',
      EMAIL_FROM: 'Demo\r\nBcc: evil@evil.test <no-reply@berth.test>',
      TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
      TWILIO_AUTH_TOKEN: 'twilio-auth-token-test-0001',
      TWILIO_FROM_NUMBER: '+15005550006',
    } as Env;
    const ctx = systemCtx(configured, { customerId: op.customerId });
    const r = await sendMessage(ctx, {
      channel: 'email',
      to: 'guest@example.test\r\nBcc: evil@evil.test',
      subject: 'Hello\r\nX-Injected: 1',
      body: 'Text\r\nwith lines',
      replyTo: 'desk@example.test\nBcc: evil@evil.test',
    });
    expect(r.status, r.reason ?? '').toBe('sent');
    const sms = await sendMessage(ctx, { channel: 'sms', to: '+15551234567\r\nX: 1', body: 'Hi\nthere' });
    expect(sms.status, sms.reason ?? '').toBe('sent');
    const pm = JSON.parse(sentBodies.find((s) => s.url.includes('postmarkapp'))!.body);
    for (const field of ['From', 'To', 'Subject', 'ReplyTo']) expect(CONTROL.test(String(pm[field])), field).toBe(false);
    expect(pm.Subject).toBe('Hello X-Injected: 1');
    expect(pm.TextBody).toBe('Text\r\nwith lines');
    const tw = new URLSearchParams(sentBodies.find((s) => s.url.includes('twilio'))!.body);
    expect(tw.get('To')).toBe('+15551234567 X: 1');
    expect(tw.get('Body')).toBe('Hi\nthere');
  });
});
