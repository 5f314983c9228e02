import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { createOperator, db, del, eventually, expectError, get, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { outbound } from '../../../src/adapters/http';
import { commit } from '../../../src/lib/commit';
import { systemCtx } from '../../../src/lib/context';
import { attemptDelivery, backoffSeconds } from '../../../src/modules/webhooks/service';
import { webhookDeliveries } from '../../../src/db/schema/events';

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}

let captured: Captured[] = [];
let respond: (c: Captured) => number = () => 200;
const realFetch = outbound.fetch;

beforeEach(() => {
  captured = [];
  respond = () => 200;
  outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const c: Captured = { url: req.url, headers: Object.fromEntries(req.headers), body: await req.text() };
    captured.push(c);
    return new Response('ok', { status: respond(c) });
  };
});
afterEach(() => {
  outbound.fetch = realFetch;
});

/** Independent HMAC-SHA256 (not the service's helper). */
async function expectedSignature(secret: string, timestamp: string, body: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`)));
  return [...sig].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function makeEndpoint(key: string, url: string, events: string[] = ['*']) {
  const r = await post('/webhooks', { url, events, description: 'test' }, { key });
  expect(r.status).toBe(201);
  return r.body as { id: string; secret: string };
}

describe('Webhooks', () => {
  it('manages endpoints; the secret is shown once', async () => {
    const op = await createOperator();
    const ep = await makeEndpoint(op.adminKey, 'https://hooks.example.test/a', ['booking.created']);
    expect(ep.secret).toMatch(/^whsec_/);
    const list = await get('/webhooks', { key: op.adminKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].secret).toBeUndefined();
    expect((await get(`/webhooks/${ep.id}`, { key: op.adminKey })).body.secret).toBeUndefined();
    const u = await patch(`/webhooks/${ep.id}`, { events: ['booking.created', 'booking.cancelled'], status: 'disabled' }, { key: op.adminKey });
    expect(u.body).toMatchObject({ events: ['booking.created', 'booking.cancelled'], status: 'disabled' });
    expectError(await patch(`/webhooks/${ep.id}`, {}, { key: op.adminKey }), 400, 'no_changes');
    expectError(await post('/webhooks', { url: 'ftp://x.example', events: ['*'] }, { key: op.adminKey }), 400);
    expectError(await post('/webhooks', { url: 'https://x.example', events: ['booking.exploded'] }, { key: op.adminKey }), 400);
    await checkSecurity(op, { method: 'GET', path: `/webhooks/${ep.id}`, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'PATCH', path: `/webhooks/${ep.id}`, body: { description: 'x' }, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: '/webhooks', adminOnly: true });
    await checkSecurity(op, { method: 'POST', path: '/webhooks', body: { url: 'https://x.example', events: ['*'] }, adminOnly: true });
    await checkSecurity(op, { method: 'DELETE', path: `/webhooks/${ep.id}`, otherStatus: 404, adminOnly: true });
    expect((await del(`/webhooks/${ep.id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/webhooks/${ep.id}`, { key: op.adminKey }), 404);
  });

  it('delivers a signed event that verifies with an independent HMAC; receivers dedupe on the event id', async () => {
    const op = await createOperator();
    const ep = await makeEndpoint(op.adminKey, 'https://hooks.example.test/signed');
    const t = await post(`/webhooks/${ep.id}/test`, {}, { key: op.adminKey });
    expect(t.status).toBe(202);
    const c = await eventually(async () => captured.find((x) => x.url.endsWith('/signed')));
    const ts = c.headers['x-service-timestamp'];
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(c.headers['x-service-signature']).toBe(await expectedSignature(ep.secret, ts, c.body));
    expect(c.headers['x-service-event-id']).toBe(t.body.eventId);
    const payload = JSON.parse(c.body);
    expect(payload).toMatchObject({ id: t.body.eventId, type: 'webhook.test', customerId: op.customerId });
    const deliveries = await eventually(async () => {
      const d = await get(`/webhooks/${ep.id}/deliveries`, { key: op.adminKey });
      return d.body.data[0]?.status === 'succeeded' ? d : undefined;
    });
    expect(deliveries.body.data[0].attemptLog).toHaveLength(1);
    await checkSecurity(op, { method: 'POST', path: `/webhooks/${ep.id}/test`, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: `/webhooks/${ep.id}/deliveries`, otherStatus: 404, adminOnly: true });
  });

  it('sends domain events only to endpoints subscribed to them', async () => {
    const op = await createOperator();
    await makeEndpoint(op.adminKey, 'https://hooks.example.test/created-only', ['booking.created']);
    await makeEndpoint(op.adminKey, 'https://hooks.example.test/all', ['*']);
    const ctx = systemCtx(env, { customerId: op.customerId });
    await commit(ctx, [], { events: [{ type: 'booking.cancelled', data: { rentalId: 'rnt_1' } }] });
    await commit(ctx, [], { events: [{ type: 'booking.created', data: { rentalId: 'rnt_2' } }] });
    await eventually(async () => captured.length >= 3);
    await new Promise((r) => setTimeout(r, 300));
    const types = (suffix: string) =>
      captured
        .filter((c) => c.url.endsWith(suffix))
        .map((c) => JSON.parse(c.body).type)
        .sort();
    expect(types('/created-only')).toEqual(['booking.created']);
    expect(types('/all')).toEqual(['booking.cancelled', 'booking.created']);
  });

  it('retries a failing receiver with exponential backoff, logs every attempt, and gives up after 3 days', async () => {
    const op = await createOperator();
    const ep = await makeEndpoint(op.adminKey, 'https://hooks.example.test/flaky');
    respond = () => 503;
    await post(`/webhooks/${ep.id}/test`, {}, { key: op.adminKey });
    const first = await eventually(async () => {
      const d = await get(`/webhooks/${ep.id}/deliveries`, { key: op.adminKey });
      return d.body.data[0]?.status === 'retrying' ? d.body.data[0] : undefined;
    });
    expect(first.attempts).toBe(1);
    expect(first.lastStatusCode).toBe(503);
    const delay = (Date.parse(first.nextAttemptAt) - Date.now()) / 1000;
    expect(delay).toBeGreaterThan(20);
    expect(delay).toBeLessThanOrEqual(31);
    expect([1, 2, 3, 4, 10, 20].map(backoffSeconds)).toEqual([30, 60, 120, 240, 15360, 6 * 3600]);
    // The delayed queue message fires later; run the attempt now as the consumer would.
    expect(await attemptDelivery(systemCtx(env), first.id)).toBe('retrying');
    respond = () => 200;
    expect(await attemptDelivery(systemCtx(env), first.id)).toBe('succeeded');
    const done = (await get(`/webhooks/${ep.id}/deliveries`, { key: op.adminKey })).body.data[0];
    expect(done.status).toBe('succeeded');
    expect(done.attemptLog.map((a: any) => a.statusCode)).toEqual([503, 503, 200]);
    const bodies = captured.filter((c) => c.url.endsWith('/flaky'));
    expect(new Set(bodies.map((c) => c.headers['x-service-event-id'])).size).toBe(1);

    respond = () => 500;
    await post(`/webhooks/${ep.id}/test`, {}, { key: op.adminKey });
    const second = await eventually(async () => {
      const d = await get(`/webhooks/${ep.id}/deliveries?status=retrying`, { key: op.adminKey });
      return d.body.data[0];
    });
    await db()
      .update(webhookDeliveries)
      .set({ firstAttemptAt: new Date(Date.now() - 3 * 86_400_000).toISOString() })
      .where(eq(webhookDeliveries.id, second.id));
    expect(await attemptDelivery(systemCtx(env), second.id)).toBe('failed');
  });

  it('replays a delivery with the same event id', async () => {
    const op = await createOperator();
    const ep = await makeEndpoint(op.adminKey, 'https://hooks.example.test/replay');
    await post(`/webhooks/${ep.id}/test`, {}, { key: op.adminKey });
    const d = await eventually(async () =>
      (await get(`/webhooks/${ep.id}/deliveries`, { key: op.adminKey })).body.data.find((x: any) => x.status === 'succeeded'),
    );
    const r = await post(`/webhooks/deliveries/${d.id}/replay`, {}, { key: op.adminKey });
    expect(r.status).toBe(202);
    expect(r.body.replayOf).toBe(d.id);
    await eventually(async () => captured.filter((c) => c.url.endsWith('/replay')).length === 2);
    const ids = captured.filter((c) => c.url.endsWith('/replay')).map((c) => c.headers['x-service-event-id']);
    expect(ids[0]).toBe(ids[1]);
    expectError(await post('/webhooks/deliveries/whd_missing/replay', {}, { key: op.adminKey }), 404);
    await checkSecurity(op, { method: 'POST', path: `/webhooks/deliveries/${d.id}/replay`, otherStatus: 404, adminOnly: true });
  });
});
