/**
 * The reference underwriter as its own process (`npm run underwriter`), holding its own copy of the
 * offering's signing secret: an offering of a new partner points at it (a loopback http baseUrl, which
 * the Berth under test allows because its owner set DEV_PARTNER_LOOPBACK), the partner's own private sandbox
 * operator asks for coverage, and a process started with another secret refuses Berth's
 * calls (401, no card) while one started with the offering's secret answers a card. Offline: both
 * processes listen on 127.0.0.1.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './env';
import { api, newPartner } from './helpers';

interface Underwriter {
  url: string;
  log: () => string;
  stop: () => void;
}

const running: Underwriter[] = [];

/** `npm run underwriter -- --port 0 --secret <secret>`: resolves with its URL once it listens. */
async function startUnderwriter(secret: string): Promise<Underwriter> {
  const child: ChildProcessWithoutNullStreams = spawn('npm', ['run', '--silent', 'underwriter', '--', '--port', '0', '--secret', secret], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
  };
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the underwriter did not start:\n${out}`)), 30_000);
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`the underwriter exited ${code}:\n${out}`)));
  });
  const uw = { url, log: () => out, stop };
  running.push(uw);
  return uw;
}

afterAll(() => {
  for (const uw of running) uw.stop();
});

/** The partner's own sandbox operator (created and seeded on first use) and an admin API key of it. */
async function sandboxOperator(token: string) {
  const r = await api<{ customerId: string; locationIds: string[]; apiKey: string }>('POST', '/partners/sandbox/keys', { token });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { customerId: r.body.customerId, locationId: r.body.locationIds[0], headers: { 'x-api-key': r.body.apiKey } };
}
type Operator = Awaited<ReturnType<typeof sandboxOperator>>;

/** A boat of the sandbox operator's location and a coverage quote for it 40 days ahead. */
async function quoteCoverage(op: Operator) {
  const inv = await api<any>('GET', `/inventory/customer?customer_id=${op.customerId}&locationId=${op.locationId}&kind=rental`, op);
  expect(inv.status, JSON.stringify(inv.body)).toBe(200);
  const item = (inv.body.data as { inventoryId: string }[])[0];
  const start = new Date(Date.now() + 40 * 86_400_000);
  start.setUTCHours(15, 0, 0, 0);
  const end = new Date(start.getTime() + 4 * 3_600_000);
  const q = await api<any>('POST', '/coverage/quotes', {
    ...op,
    body: { inventoryId: item.inventoryId, locationId: op.locationId, startTime: start.toISOString(), endTime: end.toISOString() },
  });
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  return q.body as { data: { offeringId: string; status: string; premium: number }[]; unavailable: { offeringId: string; reason: string }[] };
}

describe('npm run underwriter', () => {
  it('refuses an offering call signed with another secret and answers one signed with its own', async () => {
    const partner = await newPartner();
    const auth = { token: partner.token };
    const wrong = await startUnderwriter('cvs_not_the_offering_secret_0000000000000');
    const created = await api<any>('POST', '/partners/coverage/offerings', {
      ...auth,
      body: { name: 'Local Cover', supportEmail: 'claims@local-cover.example', baseUrl: wrong.url, supportedCountries: ['US'], currencies: ['usd'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const offeringId = created.body.offeringId ?? created.body.id;
    const secret = created.body.signingSecret as string;
    expect(secret).toMatch(/^cvs_/);
    const operator = await sandboxOperator(partner.token);
    const enabled = await api<any>('POST', '/coverage/enablements', { ...operator, body: { offeringId, locationId: operator.locationId } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(201);

    // Signed with the offering's secret, verified with another one: refused, so no card (the booking goes on without it).
    const refused = await quoteCoverage(operator);
    expect(refused.data.some((c) => c.offeringId === offeringId)).toBe(false);
    expect(refused.unavailable.find((u) => u.offeringId === offeringId)?.reason).toMatch(/401/);
    expect(wrong.log()).toMatch(/401 POST \/quote bad signature/);
    const calls = await api<any>('GET', `/partners/coverage/offerings/${offeringId}/calls`, auth);
    expect(calls.status).toBe(200);
    expect(JSON.stringify(calls.body)).toContain('401');

    // The same offering pointed at a process holding the offering's own secret: the call verifies and a card is shown.
    const right = await startUnderwriter(secret);
    expect((await api('PATCH', `/partners/coverage/offerings/${offeringId}`, { ...auth, body: { baseUrl: right.url } })).status).toBe(200);
    const accepted = await quoteCoverage(operator);
    const card = accepted.data.find((c) => c.offeringId === offeringId);
    expect(card, JSON.stringify(accepted)).toBeDefined();
    expect(card!.premium).toBeGreaterThan(0);
    expect(right.log()).toMatch(/200 POST \/quote/);
    expect(right.log()).not.toMatch(/401/);
  });

  it('will not start without a secret', async () => {
    const child = spawn(process.execPath, ['scripts/underwriter.mjs', '--port', '0'], { cwd: ROOT, env: { PATH: process.env.PATH } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((ok) => child.on('exit', ok));
    expect(code).toBe(2);
    expect(err).toContain('--secret');
  });
});
