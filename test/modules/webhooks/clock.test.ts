/**
 * Webhooks on a sandbox test clock: deliveries are due at the operator's time, and a retry (a
 * delayed queue message, which a test clock does not send) is recorded as due and run by the
 * `webhooks.sweep` job as the clock advances, at its own time and in order. The signature's
 * timestamp stays real time (the receiver checks it against its own clock).
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { advanceClock, createOperator, eventually, get, post, runCron } from '../../harness';
import { outbound } from '../../../src/adapters/http';
import { backoffSeconds } from '../../../src/modules/webhooks/service';

const CLOCK = Date.parse('2027-01-14T15:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let calls: { url: string; timestamp: string }[] = [];
let status = 503;
const realFetch = outbound.fetch;

beforeEach(() => {
  calls = [];
  status = 503;
  outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    // The runtime is shared with other files: count only this test's endpoint.
    if (req.url.includes('/clocked')) calls.push({ url: req.url, timestamp: req.headers.get('x-service-timestamp') ?? '' });
    return new Response('ok', { status });
  };
});
afterEach(() => {
  outbound.fetch = realFetch;
});

describe('Webhooks on a test clock', () => {
  it("retries come due at the operator's time and run as the clock advances; the wall-clock sweep leaves them alone", async () => {
    const op = await createOperator({ clockAt: CLOCK });
    const ep = await post('/webhooks', { url: 'https://hooks.example.test/clocked', events: ['*'] }, { key: op.adminKey });
    expect(ep.status, ep.text).toBe(201);
    expect(ep.body.createdAt).toBe(iso(CLOCK));
    expect((await post(`/webhooks/${ep.body.id}/test`, {}, { key: op.adminKey })).status).toBe(202);

    const deliveries = async () => (await get(`/webhooks/${ep.body.id}/deliveries`, { key: op.adminKey })).body.data;
    const first = await eventually(async () => (await deliveries()).find((d: any) => d.status === 'retrying'));
    // Due at the clock's time, not the machine's.
    expect(first).toMatchObject({ attempts: 1, nextAttemptAt: iso(CLOCK + backoffSeconds(1) * 1000) });
    expect(first.attemptLog.map((a: any) => a.at)).toEqual([iso(CLOCK)]);
    // The signature's timestamp is real time: the receiver compares it with its own clock.
    expect(Math.abs(Number(calls[0].timestamp) - Date.now() / 1000)).toBeLessThan(120);

    // No delayed message was sent, and the wall-clock sweep skips a test clock's operator.
    await new Promise((r) => setTimeout(r, 300));
    await runCron('*/5 * * * *', new Date(CLOCK + 3_600_000));
    expect((await deliveries())[0].attempts).toBe(1);

    // Ten minutes of the clock: retries at +30 s, +90 s, +210 s and +450 s; the next is due at +930 s.
    const ten = await advanceClock(op.clockId!, CLOCK + 10 * 60_000, op.adminKey);
    expect(ten.status, JSON.stringify(ten)).toBe('ready');
    const after = (await deliveries())[0];
    expect(after.attempts).toBe(5);
    expect(after.status).toBe('retrying');
    expect(after.nextAttemptAt).toBe(iso(CLOCK + (30 + 60 + 120 + 240 + 480) * 1000));
    expect(after.attemptLog.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503, 503]);
    expect(after.attemptLog.map((a: any) => a.at)).toEqual([0, 30, 90, 210, 450].map((s) => iso(CLOCK + s * 1000)));
    expect(calls).toHaveLength(5);

    // The receiver recovers: the retry due at +930 s succeeds when the clock gets there.
    status = 200;
    const twenty = await advanceClock(op.clockId!, CLOCK + 20 * 60_000, op.adminKey);
    expect(twenty.status, JSON.stringify(twenty)).toBe('ready');
    const done = (await deliveries())[0];
    expect(done).toMatchObject({ status: 'succeeded', attempts: 6, nextAttemptAt: null, completedAt: iso(CLOCK + 930_000) });
    expect(calls).toHaveLength(6);
    expect(new Set(calls.map((c) => c.url))).toEqual(new Set(['https://hooks.example.test/clocked']));
  });
});
