/**
 * Abuse limits of the anonymous endpoints that send a message or charge a card (src/lib/abuse.ts):
 * per target (whatever the client address), per client address, per operator per hour; a refused
 * request sends nothing. Rate-limiter objects are shared by every file of a runtime, so each test
 * uses its own operator, cards and client addresses.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { ABUSE_LIMITS, abuseBuckets } from '../../src/lib/abuse';
import { createOperator, expectError, post, type ApiResult, type Operator } from '../harness';

declare global {
  interface ImportMeta {
    /** Vite's static glob import (the test runner bundles through Vite): here, the source text of src/ for the wiring check. */
    glob(pattern: string, options: { query: '?raw'; import: 'default'; eager: true }): Record<string, unknown>;
  }
}

const SEND_EMAIL = '/public/gift-card/send-email';
const EMAIL_LIMITS = ABUSE_LIMITS['gift-card-email'];

/** A client address no other test (or run) uses. */
const uniqueIp = () => `2001:db8:ab05:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}::1`;
const ipHeader = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } });

/** A gift card issued by the operator (through the API): its code and value. */
async function giftCard(op: Operator, dollars = 25): Promise<{ code: string; dollars: number }> {
  const code = `ABUSE-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const r = await post(
    '/promoGiftCards',
    { customerId: op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { $Discount: dollars, type: 'gift_card' } },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBeLessThan(300);
  return { code, dollars };
}

const sendEmail = (op: { customerId: string }, card: { code: string; dollars: number }, ip = uniqueIp(), to = 'friend@example.test') =>
  post(SEND_EMAIL, { giftCardCode: card.code, giftCardAmount: card.dollars, recipientEmail: to, customerId: op.customerId }, ipHeader(ip));

/** Gift e-mails in the operator's outbox. */
const giftMails = async (customerId: string) =>
  Number(
    (
      await env.DB.prepare("SELECT COUNT(*) AS n FROM message_outbox WHERE customer_id = ? AND template = 'gift_card.delivery'")
        .bind(customerId)
        .first<{ n: number }>()
    )?.n ?? 0,
  );

function expectLimited(r: ApiResult, kind: 'ip' | 'target' | 'operator', windowMs: number) {
  expectError(r, 429, 'rate_limited');
  expect(r.body.limitKind, r.text).toBe(kind);
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter, r.text).toBeGreaterThan(0);
  // Whole seconds rounded up (the window's end rounded up, now rounded down): at most one second over the window.
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000 + 1);
}

describe('the limits', () => {
  it('are fixed windows: a minute per address, an hour per target and per operator; a target never allows more than its operator', () => {
    for (const [action, l] of Object.entries(ABUSE_LIMITS)) {
      expect(l.perIp.windowMs, action).toBe(60_000);
      expect(l.perTarget.windowMs, action).toBe(3_600_000);
      expect(l.perOperator.windowMs, action).toBe(3_600_000);
      expect(l.perTarget.limit, action).toBeLessThanOrEqual(l.perOperator.limit);
      for (const x of [l.perIp, l.perTarget, l.perOperator]) expect(Number.isInteger(x.limit) && x.limit > 0, action).toBe(true);
    }
    expect(EMAIL_LIMITS).toEqual({
      perIp: { limit: 60, windowMs: 60_000 },
      perTarget: { limit: 3, windowMs: 3_600_000 },
      perOperator: { limit: 30, windowMs: 3_600_000 },
    });
  });

  it('counts a target case- and space-insensitively within its operator, and per action', async () => {
    const a = await abuseBuckets('gift-card-email', { ip: '203.0.113.1', operator: 'cus_A', target: ' Card-1 ' });
    const b = await abuseBuckets('gift-card-email', { ip: '203.0.113.2', operator: 'cus_A', target: 'card-1' });
    const other = await abuseBuckets('gift-card-email', { ip: '203.0.113.1', operator: 'cus_B', target: 'card-1' });
    const action = await abuseBuckets('gift-card-purchase', { ip: '203.0.113.1', operator: 'cus_A', target: 'card-1' });
    expect(a.target).toBe(b.target);
    expect(a.ip).not.toBe(b.ip);
    expect(a.operator).toBe('abuse:gift-card-email:op:cus_A');
    expect(other.target).not.toBe(a.target);
    expect(action.target).not.toBe(a.target);
    expect(action.ip).not.toBe(a.ip);
    // The target is stored hashed, never in clear.
    expect(a.target).toMatch(/^abuse:gift-card-email:to:cus_A:[0-9a-f]{64}$/);
    expect(await abuseBuckets('gift-card-email', { ip: 'x', operator: null, target: null })).toEqual({
      ip: 'abuse:gift-card-email:ip:x',
      target: null,
      operator: null,
    });
  });

  it('every action is guarded by some route handler (and every guarded route names a known action)', () => {
    // Route handlers live in the modules' index.ts (GUIDE, module layout); reading only those keeps this file's import
    // quick (all of src/ as text took 15 s to load into the test runtime).
    const sources = import.meta.glob('../../src/modules/*/index.ts', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const files = Object.entries(sources);
    expect(files.length).toBeGreaterThan(50);
    const used = new Set<string>();
    for (const [, text] of files) for (const m of text.matchAll(/limitAbuse\(\s*c\s*,\s*'([^']+)'/g)) used.add(m[1]);
    expect([...used].sort()).toEqual(Object.keys(ABUSE_LIMITS).sort());
  });
});

describe('per target: the gift-card e-mail relay', () => {
  it(`e-mails of one card past ${EMAIL_LIMITS.perTarget.limit} within the hour are refused (429, Retry-After), whatever the address; nothing is sent`, async () => {
    const op = await createOperator();
    const card = await giftCard(op);
    const other = await giftCard(op);
    const limit = EMAIL_LIMITS.perTarget.limit;
    for (let i = 0; i < limit; i++) {
      const r = await sendEmail(op, card, uniqueIp(), `friend${i}@example.test`);
      expect(r.status, r.text).toBe(200);
    }
    expect(await giftMails(op.customerId)).toBe(limit);
    // A new address and a new recipient each time: the card is the target.
    for (let i = 0; i < 3; i++) expectLimited(await sendEmail(op, card, uniqueIp(), `other${i}@example.test`), 'target', EMAIL_LIMITS.perTarget.windowMs);
    // The code spelled in another case is the same card.
    expectLimited(await sendEmail(op, { ...card, code: card.code.toLowerCase() }), 'target', EMAIL_LIMITS.perTarget.windowMs);
    expect(await giftMails(op.customerId)).toBe(limit);
    // Another card of the same operator is not affected.
    expect((await sendEmail(op, other)).status).toBe(200);
    expect(await giftMails(op.customerId)).toBe(limit + 1);
  });

  it('counts requests for an unknown card too (before any read), and per operator: the same code at another operator is another target', async () => {
    const op = await createOperator();
    const ghost = { code: `GHOST-${crypto.randomUUID().slice(0, 8)}`, dollars: 10 };
    for (let i = 0; i < EMAIL_LIMITS.perTarget.limit; i++) expectError(await sendEmail(op, ghost), 400, 'bad_request');
    expectLimited(await sendEmail(op, ghost), 'target', EMAIL_LIMITS.perTarget.windowMs);
    const op2 = await createOperator();
    expectError(await sendEmail(op2, ghost), 400, 'bad_request');
    expect(await giftMails(op.customerId)).toBe(0);
  });
});

describe('per client address', () => {
  it(`one address past ${EMAIL_LIMITS.perIp.limit} requests a minute is refused (limitKind ip), invalid targets included; other addresses are not`, async () => {
    const ip = uniqueIp();
    const limit = EMAIL_LIMITS.perIp.limit;
    // Unknown operators and cards: every request is counted (per address) before it is read, and answers its own error.
    const ghost = () => ({ customerId: `cus_ghost${crypto.randomUUID().replace(/-/g, '')}` });
    const card = () => ({ code: `NOPE-${crypto.randomUUID().slice(0, 8)}`, dollars: 5 });
    const first = await Promise.all(Array.from({ length: limit }, () => sendEmail(ghost(), card(), ip)));
    expect(first.filter((r) => r.status === 429)).toEqual([]);
    expect(first.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
    const over = await sendEmail(ghost(), card(), ip);
    expectLimited(over, 'ip', EMAIL_LIMITS.perIp.windowMs);
    // Even a real card is refused from that address, and nothing is sent or counted against the card.
    const op = await createOperator();
    const real = await giftCard(op);
    expectLimited(await sendEmail(op, real, ip), 'ip', EMAIL_LIMITS.perIp.windowMs);
    expect(await giftMails(op.customerId)).toBe(0);
    // Another address is not affected, and the card still has its whole budget.
    for (let i = 0; i < EMAIL_LIMITS.perTarget.limit; i++) expect((await sendEmail(op, real)).status).toBe(200);
    // The address is counted per endpoint: another guarded action still answers it.
    const reset = await post('/partners/password/forgot', { email: `nobody-${crypto.randomUUID().slice(0, 8)}@example.test` }, ipHeader(ip));
    expect(reset.status, reset.text).not.toBe(429);
  });
});

describe('per operator per hour', () => {
  it(`an operator's requests past ${EMAIL_LIMITS.perOperator.limit} in the hour are refused (limitKind operator), whatever the targets and addresses`, async () => {
    const op = await createOperator();
    const limit = EMAIL_LIMITS.perOperator.limit;
    const extra = 5;
    // Distinct cards (unknown ones count too) from distinct addresses, all at once: exactly `limit` get through the limiter.
    const all = await Promise.all(
      Array.from({ length: limit + extra }, (_, i) => sendEmail(op, { code: `MANY-${i}-${crypto.randomUUID().slice(0, 6)}`, dollars: 5 })),
    );
    const refused = all.filter((r) => r.status === 429);
    expect(refused).toHaveLength(extra);
    for (const r of refused) expectLimited(r, 'operator', EMAIL_LIMITS.perOperator.windowMs);
    expect(all.filter((r) => r.status === 400)).toHaveLength(limit);
    // A real card, a fresh address: still refused, and nothing is sent.
    const card = await giftCard(op);
    expectLimited(await sendEmail(op, card), 'operator', EMAIL_LIMITS.perOperator.windowMs);
    expect(await giftMails(op.customerId)).toBe(0);
    // Another operator is not affected.
    const op2 = await createOperator();
    expect((await sendEmail(op2, await giftCard(op2))).status).toBe(200);
  });

  it("requests refused per address do not use up the operator's budget", async () => {
    const op = await createOperator();
    const ip = uniqueIp();
    const ghost = () => ({ customerId: `cus_ghost${crypto.randomUUID().replace(/-/g, '')}` });
    // Use up the address on other operators, then flood this operator from it.
    await Promise.all(
      Array.from({ length: EMAIL_LIMITS.perIp.limit }, () => sendEmail(ghost(), { code: `X-${crypto.randomUUID().slice(0, 8)}`, dollars: 1 }, ip)),
    );
    const flood = await Promise.all(
      Array.from({ length: EMAIL_LIMITS.perOperator.limit }, (_, i) =>
        sendEmail(op, { code: `FLOOD-${i}-${crypto.randomUUID().slice(0, 6)}`, dollars: 1 }, ip),
      ),
    );
    for (const r of flood) expectLimited(r, 'ip', EMAIL_LIMITS.perIp.windowMs);
    // The operator's real customers still get their e-mails.
    const card = await giftCard(op);
    expect((await sendEmail(op, card)).status).toBe(200);
    expect(await giftMails(op.customerId)).toBe(1);
  });
});
