/**
 * Which clock the shared plumbing reads (issue 27, "Time is an input"): business expiries follow the
 * operator's clock (a sandbox test clock moves them), technical lifetimes checked by another party
 * stay on real time.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, api, createOperator, expectError } from '../harness';
import { signToken, verifyToken } from '../../src/lib/sealed';
import { fixedClock, withClock } from '../../src/lib/clock';

describe("Idempotency-Key expiry is business time, on the operator's clock", () => {
  it('a key is kept 24 hours of the clock: a stopped clock keeps it, an advanced one lets it go', async () => {
    const t0 = Date.parse('2027-01-14T15:00:00Z');
    const op = await createOperator({ clockAt: t0 });
    const key = `idem-clock-${op.customerId}`;
    // An idempotent operation whose answer (403: the audit is not enabled) is stored like any non-5xx answer.
    const send = (websiteUrl: string) => api('POST', '/ai/business-audit', { body: { websiteUrl }, headers: { 'Idempotency-Key': key }, key: op.adminKey });
    const first = await send('https://a.example');
    expect(first.status, first.text).toBe(403);
    expect(first.headers.get('idempotent-replayed')).toBe('false');
    const replay = await send('https://a.example');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expectError(await send('https://b.example'), 422, 'idempotency_key_reuse');
    // 23 hours later on the clock: still the same key.
    expect((await advanceClock(op.clockId!, t0 + 23 * 3_600_000, op.adminKey)).status).toBe('ready');
    expectError(await send('https://b.example'), 422, 'idempotency_key_reuse');
    // 25 hours later on the clock (no real time passed): the key has expired and the request runs again.
    expect((await advanceClock(op.clockId!, t0 + 25 * 3_600_000, op.adminKey)).status).toBe('ready');
    const again = await send('https://b.example');
    expect(again.status, again.text).toBe(403);
    expect(again.headers.get('idempotent-replayed')).toBe('false');
  });
});

describe('signed tokens live in real time', () => {
  it("a token's lifetime is real time, whatever clock the code runs on (another party checks it)", async () => {
    const past = fixedClock(Date.parse('2020-01-01T00:00:00Z'), 'clk_test');
    const future = fixedClock(Date.parse('2030-01-01T00:00:00Z'), 'clk_test');
    // Signed in code running on a clock years ahead: still valid now, for its ten minutes of real time.
    const token = await withClock(future, () => signToken(env, 'calendar.state', { n: 1 }, 10 * 60_000));
    const checked = await withClock(past, () => verifyToken<{ n: number }>(env, 'calendar.state', token));
    expect(checked).toMatchObject({ ok: true, data: { n: 1 } });
    const expiresIn = (checked as { expiresAt: number }).expiresAt - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
  });
});
