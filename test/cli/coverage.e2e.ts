import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceUnderwriter } from '../../examples/reference-underwriter/src/underwriter';
import { BASE, devVars } from './env';
import { api, berth, homeWithSession, newPartner, spawnBerth, tempDir, waitForOutput } from './helpers';

const SECRET = 'cvs_cli_test_secret_0123456789abcdefghij';
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/**
 * The reference underwriter of the coverage issue on 127.0.0.1, its misbehaviours chosen by path
 * flags (slow-quote=..., string-premium, deposit=..., schema=hostile, http-document), plus two the
 * reference does not have: `accept-unsigned` (answers unsigned requests) and `fresh-policy` (a new
 * policy number on every bind: not idempotent).
 */
async function localUnderwriter() {
  const uw = createReferenceUnderwriter({ secrets: [SECRET] });
  let binds = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        let answer: Response;
        if (url.pathname.includes('accept-unsigned') && !headers.get('x-service-signature')) {
          answer = Response.json({ quoteId: 'q_unsigned', premium: 1, depositEffect: 'none', questionSchemaVersion: 'v1' });
        } else {
          answer = await uw.fetch(new Request(url, { method: req.method, headers, body: req.method === 'POST' ? raw : undefined }));
          if (url.pathname.includes('fresh-policy') && url.pathname.endsWith('/bind') && answer.status === 200) {
            const b = (await answer.json()) as Record<string, unknown>;
            answer = Response.json({ ...b, policyNumber: `${b.policyNumber as string}-${++binds}` });
          }
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('coverage test against the reference underwriter', () => {
  let uw: Awaited<ReturnType<typeof localUnderwriter>>;
  const home = tempDir('home');
  const env = { BERTH_SIGNING_SECRET: SECRET };
  beforeAll(async () => {
    uw = await localUnderwriter();
  });
  afterAll(async () => {
    await uw.close();
  });

  it('passes all six checks against the correct underwriter', async () => {
    const r = await berth(['coverage', 'test', '--url', uw.url], { home, env });
    expect(r.code).toBe(0);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(r.stdout).toContain(`PASS ${n}.`);
    const j = await berth(['coverage', 'test', '--url', uw.url, '--json'], { home, env });
    expect(j.code).toBe(0);
    expect(j.stderr).toBe('');
    const out = JSON.parse(j.stdout);
    expect(out.passed).toBe(true);
    expect(out.checks).toHaveLength(6);
  });

  const misbehaviours: [string, string, number, RegExp][] = [
    ['an unsigned request accepted', 'accept-unsigned', 1, /without a signature answered HTTP 200/],
    ['a slow quote', 'slow-quote=1200', 2, /did not answer within 800 ms/],
    ['a string premium', 'string-premium', 2, /premium must be a JSON number, got "12\.50"/],
    ['an incoherent deposit effect', 'deposit=reduce_by', 2, /reduce_by needs a numeric depositEffectValue/],
    ['more than 12 questions', 'schema=hostile', 3, /15 questions: at most 12/],
    ['a bind that is not idempotent', 'fresh-policy', 5, /bind is not idempotent on quoteId/],
    ['an http document URL', 'http-document', 5, /documentUrl must be https/],
  ];
  for (const [what, flag, check, why] of misbehaviours) {
    it(`fails check ${check} on ${what}`, async () => {
      const r = await berth(['coverage', 'test', '--url', `${uw.url}/${flag}`, '--json'], { home, env });
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out.passed).toBe(false);
      const failed = out.checks.filter((c: { ok: boolean }) => !c.ok);
      expect(failed[0].id).toBe(check);
      expect(failed[0].detail).toMatch(why);
      expect(JSON.parse(r.stderr)).toMatchObject({ error: 'checks_failed', exitCode: 1 });
    });
  }

  it('no secret: exit 2 naming how to give one', async () => {
    const r = await berth(['coverage', 'test', '--url', uw.url], { home: tempDir('home') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('BERTH_SIGNING_SECRET');
  });

  it('coverage call: one signed request, prints request, status, timing and body; non-200 is exit 1', async () => {
    const r = await berth(['coverage', 'call', 'quote', '--url', uw.url], { home, env: { SERVICE_SIGNING_SECRET: SECRET } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST ${uw.url}/quote`);
    expect(r.stdout).toMatch(/HTTP 200 {2}\d+ ms/);
    expect(r.stdout).toContain('"questionSchemaVersion": "v1"');
    expect(r.stdout).not.toContain(SECRET);
    const schema = await berth(['coverage', 'call', 'schema', '--url', uw.url, '--data', '{"version":"v1"}', '--json'], { home, env });
    expect(JSON.parse(schema.stdout)).toMatchObject({ status: 200, body: { version: 'v1' } });
    const bad = await berth(['coverage', 'call', 'schema', '--url', uw.url, '--data', '{"version":"nope"}'], { home, env });
    expect(bad.code).toBe(1);
    const wrong = await berth(['coverage', 'call', 'quote', '--url', uw.url], {
      home,
      env: { BERTH_SIGNING_SECRET: 'cvs_wrong_secret_000000000000', SERVICE_SIGNING_SECRET: SECRET },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('HTTP 401');
  });
});

describe('berth init --coverage', () => {
  it('scaffolds an underwriter that passes coverage test unchanged', async () => {
    const home = tempDir('home');
    const r = await berth(['init', '--coverage', 'uw', '--port', '0'], { home });
    expect(r.code).toBe(0);
    const dir = join(home, 'uw');
    expect(readJson(join(dir, 'berth.coverage.json'))).toMatchObject({ supportedCountries: ['US'], currencies: ['usd'] });
    // Start it on a free port (PORT=0 would not tell us which): find one first.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const server = spawn(process.execPath, ['underwriter.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), BERTH_SIGNING_SECRET: SECRET },
    });
    try {
      await new Promise<void>((ok, fail) => {
        server.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && ok());
        server.on('exit', (code) => fail(new Error(`underwriter exited ${code}`)));
      });
      const t = await berth(['coverage', 'test', '--url', `http://127.0.0.1:${port}`], { home, cwd: dir, env: { BERTH_SIGNING_SECRET: SECRET } });
      expect(t.stdout).not.toContain('FAIL');
      expect(t.code).toBe(0);
    } finally {
      server.kill('SIGTERM');
    }
  });
});

describe('the offering as code (against Berth)', () => {
  it('create keeps the secret out of the project, status and submit tell what is missing, push diffs and confirms, dev restores', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const dir = join(home, 'uw');
    expect((await berth(['init', '--coverage', 'uw', '--name', 'CLI Cover'], { home })).code).toBe(0);
    const file = join(dir, 'berth.coverage.json');
    // Currency codes in the API's case.
    expect(readJson(file).currencies).toEqual(['usd']);
    writeFileSync(file, JSON.stringify({ ...readJson(file), baseUrl: 'https://reference-underwriter.berth.invalid' }, null, 2));

    const created = await berth(['coverage', 'create', '--json'], { home, cwd: dir });
    expect(created.code).toBe(0);
    const { offeringId } = JSON.parse(created.stdout);
    expect(readJson(file).offeringId).toBe(offeringId);
    const credentials = join(home, '.berth', 'credentials.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    const stored = readJson(credentials).accounts[BASE].coverageSecrets[offeringId] as string;
    expect(stored).toMatch(/^cvs_/);
    for (const f of ['berth.coverage.json', 'README.md', 'package.json', 'underwriter.mjs']) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(stored);
    // Shown once, at creation; never by a later command.
    expect(JSON.parse(created.stdout).signingSecret).toBe(stored);
    expect(created.stdout.split(stored).length - 1).toBe(1);
    expect((await berth(['coverage', 'create'], { home, cwd: dir })).code).toBe(4);

    const status = await berth(['coverage', 'status', '--json'], { home, cwd: dir });
    expect(status.code).toBe(0);
    expect(status.stdout + status.stderr).not.toContain(stored);
    const st = JSON.parse(status.stdout);
    expect(st).toMatchObject({ offeringId, ready: false, secretOnThisMachine: true });
    expect(st.missing.map((m: { item: string }) => m.item)).toContain('payout_account');
    const submit = await berth(['coverage', 'submit'], { home, cwd: dir });
    expect(submit.code).toBe(4);
    expect(submit.stderr).toMatch(/payout/i);

    writeFileSync(file, JSON.stringify({ ...readJson(file), quoteTimeoutMs: 4000, supportedCountries: ['US', 'CA'] }, null, 2));
    const refusedPush = await berth(['coverage', 'push'], { home, cwd: dir });
    expect(refusedPush.code).toBe(4);
    expect(refusedPush.stdout).toContain('+ supportedCountries: CA');
    expect(refusedPush.stdout).toContain('~ quoteTimeoutMs: 3000 -> 4000');
    const pushed = await berth(['coverage', 'push', '--yes', '--json'], { home, cwd: dir });
    expect(pushed.code).toBe(0);
    const remote = await api<{ quoteTimeoutMs: number; supportedCountries: string[] }>('GET', `/partners/coverage/offerings/${offeringId}`, { token: p.token });
    expect(remote.body.quoteTimeoutMs).toBe(4000);
    expect(remote.body.supportedCountries.sort()).toEqual(['CA', 'US']);

    await api('PATCH', `/partners/coverage/offerings/${offeringId}`, { token: p.token, body: { name: 'Renamed Cover' } });
    const pulled = await berth(['coverage', 'pull', '--yes'], { home, cwd: dir });
    expect(pulled.code).toBe(0);
    expect(readJson(file).name).toBe('Renamed Cover');

    // The secret for another machine: from stdin, never as an argument.
    const home2 = homeWithSession(p);
    const dir2 = tempDir('proj');
    expect((await berth(['coverage', 'link', offeringId], { home: home2, cwd: dir2 })).code).toBe(0);
    const fromStdin = await berth(['coverage', 'secret'], { home: home2, cwd: dir2, input: `${stored}\n` });
    expect(fromStdin.code).toBe(0);
    expect(readJson(join(home2, '.berth', 'credentials.json')).accounts[BASE].coverageSecrets[offeringId]).toBe(stored);

    // Rotation: a new secret from Berth, printed once and stored; the project files never hold it.
    const rotated = await berth(['coverage', 'secret', 'rotate', '--yes'], { home, cwd: dir });
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = readJson(credentials).accounts[BASE].coverageSecrets[offeringId] as string;
    expect(fresh).toMatch(/^cvs_/);
    expect(fresh).not.toBe(stored);
    expect(rotated.stdout).toContain(`New signing secret (shown once): ${fresh}`);
    expect(rotated.stderr).toMatch(/previous one works until/);
    expect(readFileSync(file, 'utf8')).not.toContain(fresh);
    expect((await berth(['coverage', 'secret', 'renew'], { home, cwd: dir })).code).toBe(2);
    const offering = await api<{ secret: { prefix: string | null } }>('GET', `/partners/coverage/offerings/${offeringId}`, { token: p.token });
    expect(fresh.startsWith(offering.body.secret.prefix ?? '-')).toBe(true);

    const dev = spawnBerth(['coverage', 'dev', '--url', 'https://localhost:9443/uw'], { home, cwd: dir });
    await waitForOutput(dev, (r) => r.stdout.includes('Check it'));
    const during = await api<{ baseUrl: string }>('GET', `/partners/coverage/offerings/${offeringId}`, { token: p.token });
    expect(during.body.baseUrl).toBe('https://localhost:9443/uw');
    expect((await berth(['coverage', 'push', '--yes'], { home, cwd: dir })).code).toBe(4);
    dev.kill('SIGINT');
    expect((await dev.done).code).toBe(0);
    const after = await api<{ baseUrl: string }>('GET', `/partners/coverage/offerings/${offeringId}`, { token: p.token });
    expect(after.body.baseUrl).toBe('https://reference-underwriter.berth.invalid');
    expect((await berth(['coverage', 'dev', '--url', 'http://localhost:9443'], { home, cwd: dir })).code).toBe(2);
  });

  it('status turns ready once the payout account is connected; submit sends it to review; dev refuses an approved offering', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    expect((await berth(['init', '--coverage', 'uw'], { home })).code).toBe(0);
    const dir = join(home, 'uw');
    const file = join(dir, 'berth.coverage.json');
    writeFileSync(file, JSON.stringify({ ...readJson(file), baseUrl: 'https://reference-underwriter.berth.invalid' }, null, 2));
    const { offeringId } = JSON.parse((await berth(['coverage', 'create', '--json'], { home, cwd: dir })).stdout);
    const connected = await berth(['payout-account', 'connect', '--country', 'us', '--json'], { home, cwd: dir });
    expect(connected.code, connected.stderr).toBe(0);
    expect(JSON.parse(connected.stdout)).toMatchObject({ country: 'US', status: 'active', payoutsEnabled: true, attachedOfferingIds: [offeringId] });
    const status = JSON.parse((await berth(['coverage', 'status', '--json'], { home, cwd: dir })).stdout);
    expect(status).toMatchObject({ ready: true, missing: [] });
    const submitted = await berth(['coverage', 'submit', '--json'], { home, cwd: dir });
    expect(submitted.code).toBe(0);
    expect(JSON.parse(submitted.stdout)).toMatchObject({ offeringId, status: 'in_review' });
    const approve = await api('POST', `/platform/coverage/offerings/${offeringId}/approve`, {
      headers: { 'x-platform-key': devVars().PLATFORM_API_KEY },
      body: { rescheduleDelivery: 'hourly' },
    });
    expect(approve.status).toBe(200);
    const dev = await berth(['coverage', 'dev', '--url', 'https://localhost:9443/uw'], { home, cwd: dir });
    expect(dev.code).toBe(4);
    expect(dev.stderr).toContain('approved');
    const after = await api<{ baseUrl: string; status: string }>('GET', `/partners/coverage/offerings/${offeringId}`, { token: p.token });
    expect(after.body).toMatchObject({ status: 'approved', baseUrl: 'https://reference-underwriter.berth.invalid' });
  });

  it('payout-account: none yet (exit 5 with the command to run), refuses a bad or unsupported country, connects, shows', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const none = await berth(['payout-account'], { home });
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('berth payout-account connect --country');
    expect((await berth(['payout-account', 'connect', '--country', 'usa'], { home })).code).toBe(2);
    expect((await berth(['payout-account', 'connect'], { home })).code).toBe(2);
    const unsupported = await berth(['payout-account', 'connect', '--country', 'BR'], { home });
    expect(unsupported.code).toBe(4);
    expect(unsupported.stderr).toMatch(/payout/i);
    const connected = await berth(['payout-account', 'connect', '--country', 'DE'], { home });
    expect(connected.code, connected.stderr).toBe(0);
    const shown = await berth(['payout-account', 'show', '--json'], { home });
    expect(shown.code).toBe(0);
    const account = JSON.parse(shown.stdout);
    expect(account).toMatchObject({ country: 'DE', status: 'active', payoutsEnabled: true });
    expect(connected.stdout).toContain(account.accountId);
    expect((await api<{ accountId: string }>('GET', '/partners/payout-account', { token: p.token })).body.accountId).toBe(account.accountId);
    expect((await berth(['payout-account'], { home: tempDir('home') })).code).toBe(3);
  });
});
