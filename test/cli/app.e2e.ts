import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE, BIN, devVars } from './env';
import { api, berth, homeWithSession, newApp, newPartner, receiver, spawnBerth, tempDir, waitForOutput } from './helpers';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const ESC = '\u001b[';

describe('conventions', () => {
  it('help, version and usage errors', async () => {
    const home = tempDir('home');
    const help = await berth(['--help'], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toContain('SERVICE_API_URL');
    expect((await berth(['--version'], { home })).stdout.trim()).toBe('0.1.0');
    const unknown = await berth(['frobnicate'], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/unknown command/);
    expect((await berth(['push', '--bogus'], { home })).code).toBe(2);
  });

  it('not signed in: exit 3, message on stderr, nothing on stdout; --json error object', async () => {
    const home = tempDir('home');
    const r = await berth(['whoami'], { home });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('berth login');
    const j = await berth(['whoami', '--json'], { home });
    expect(j.code).toBe(3);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr)).toMatchObject({ error: 'not_signed_in', exitCode: 3 });
  });

  it('refuses a credentials file that others can read (exit 4)', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    expect((await berth(['whoami'], { home })).code).toBe(0);
    chmodSync(join(home, '.berth', 'credentials.json'), 0o644);
    const r = await berth(['whoami'], { home });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('chmod 600');
  });

  it('the BERTH_ name wins over the SERVICE_ alias; the alias alone works', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const viaAlias = await berth(['whoami', '--json'], { home, env: { BERTH_API_URL: undefined, SERVICE_API_URL: BASE } });
    expect(viaAlias.code).toBe(0);
    expect(JSON.parse(viaAlias.stdout).partner.email).toBe(p.email);
    const both = await berth(['open', 'docs', '--json'], { home, env: { SERVICE_API_URL: 'http://other.invalid' } });
    expect(JSON.parse(both.stdout)).toEqual({ target: 'docs', url: `${BASE}/docs` });
    const portal = await berth(['open', 'portal'], { home, env: { BERTH_API_URL: undefined, SERVICE_API_URL: BASE } });
    expect(portal.stdout.trim()).toBe(`${BASE}/docs#tag/partner-accounts`);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('colour on a terminal only, never with NO_COLOR or --json (real output through a pseudo-terminal)', async () => {
    const home = tempDir('home');
    const inTty = (args: string, env: Record<string, string> = {}) => {
      const r = spawnSync('script', ['-qefc', `${process.execPath} ${BIN} ${args}`, '/dev/null'], {
        cwd: home,
        env: { PATH: process.env.PATH, HOME: home, BERTH_API_URL: BASE, TERM: 'xterm', ...env },
        encoding: 'utf8',
      });
      return r.stdout;
    };
    expect(inTty('init colored')).toContain(ESC);
    const plain = inTty('init plain', { NO_COLOR: '1' });
    expect(plain).toContain('Created an embedded app');
    expect(plain).not.toContain(ESC);
    const json = inTty('init asjson --json');
    expect(json).not.toContain(ESC);
    expect(JSON.parse(json)).toMatchObject({ kind: 'app', name: 'Asjson' });
    // Off a terminal (pipes): no colour either.
    const piped = await berth(['init', 'piped'], { home });
    expect(piped.stderr).toContain('Created an embedded app');
    expect(piped.stderr + piped.stdout).not.toContain(ESC);
  });
});

describe('login, whoami, logout', () => {
  it('signs in through the device grant, stores the session 0600 in a 0700 folder, signs out with revocation', async () => {
    const p = await newPartner();
    const home = tempDir('home');
    const login = spawnBerth(['login', '--no-browser'], { home });
    const shown = await waitForOutput(login, (r) => /[A-Z]{4}-[A-Z]{4}/.test(r.stderr));
    const userCode = /([A-Z]{4}-[A-Z]{4})/.exec(shown.stderr)![1];
    expect(shown.stderr).toContain(`${BASE}/device`);
    // The partner approves in the browser: the approval page's form.
    const approve = await api('POST', '/device', { form: { user_code: userCode, email: p.email, password: p.password, action: 'approve' } });
    expect(approve.status).toBe(200);
    const done = await login.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`Signed in to ${BASE} as ${p.email}`);

    const dir = join(home, '.berth');
    const file = join(dir, 'credentials.json');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readJson(file).accounts[BASE].session.token as string;
    expect(token).toMatch(/^bpt_/);

    const who = await berth(['whoami', '--json'], { home });
    expect(who.code).toBe(0);
    expect(who.stderr).toBe('');
    expect(JSON.parse(who.stdout)).toMatchObject({ apiUrl: BASE, partner: { email: p.email, partnerId: p.partnerId } });

    const out = await berth(['logout'], { home });
    expect(out.code).toBe(0);
    expect((await api('GET', '/partners/me', { token })).status).toBe(401);
    expect((await berth(['whoami'], { home })).code).toBe(3);
  });

  it('a denied code is exit 4', async () => {
    const p = await newPartner();
    const home = tempDir('home');
    const login = spawnBerth(['login', '--no-browser'], { home });
    const shown = await waitForOutput(login, (r) => /[A-Z]{4}-[A-Z]{4}/.test(r.stderr));
    const userCode = /([A-Z]{4}-[A-Z]{4})/.exec(shown.stderr)![1];
    await api('POST', '/device', { form: { user_code: userCode, email: p.email, password: p.password, action: 'deny' } });
    const done = await login.done;
    expect(done.code).toBe(4);
    expect(existsSync(join(home, '.berth', 'credentials.json'))).toBe(false);
  });
});

describe('link, pull, push', () => {
  it('links, shows a field-by-field diff, refuses without a terminal or --yes, applies with --yes, pulls', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const app = await newApp(p);
    const dir = tempDir('proj');

    const noChoice = await berth(['link'], { home, cwd: dir });
    expect(noChoice.code).toBe(2);
    expect(noChoice.stderr).toContain(app.appId);

    const linked = await berth(['link', app.appId], { home, cwd: dir });
    expect(linked.code).toBe(0);
    const file = join(dir, 'berth.app.json');
    const pulled = readJson(file);
    const remote = await api<Record<string, unknown>>('GET', `/partners/apps/${app.appId}/manifest`, { token: p.token });
    expect(pulled).toEqual(remote.body);
    expect(readFileSync(file, 'utf8')).not.toMatch(/whsec_|bcs_|bpt_/);

    writeFileSync(
      file,
      JSON.stringify({ ...pulled, scopes: [...pulled.scopes, 'read:inventory'], urls: { ...pulled.urls, embed: 'https://app.example.com/v2/embed' } }, null, 2),
    );
    const refusedPush = await berth(['push'], { home, cwd: dir });
    expect(refusedPush.code).toBe(4);
    expect(refusedPush.stderr).toContain('--yes');
    expect(refusedPush.stdout).toContain('+ scopes: read:inventory');
    expect(refusedPush.stdout).toContain('~ urls.embed: https://app.example.com/embed -> https://app.example.com/v2/embed');
    const unchanged = await api<{ manifest: { scopes: string[] } }>('GET', `/partners/apps/${app.appId}`, { token: p.token });
    expect(unchanged.body.manifest.scopes).not.toContain('read:inventory');

    const pushed = await berth(['push', '--yes', '--json'], { home, cwd: dir });
    expect(pushed.code).toBe(0);
    const result = JSON.parse(pushed.stdout);
    expect(result.applied).toBe(true);
    expect(result.changes.map((c: { field: string }) => c.field).sort()).toEqual(['scopes', 'urls.embed']);
    const after = await api<{ manifest: { scopes: string[]; urls: { embed: string } } }>('GET', `/partners/apps/${app.appId}`, { token: p.token });
    expect(after.body.manifest.scopes).toContain('read:inventory');
    expect(after.body.manifest.urls.embed).toBe('https://app.example.com/v2/embed');

    const again = await berth(['push', '--json'], { home, cwd: dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: false, changes: [] });

    await api('PATCH', `/partners/apps/${app.appId}`, { token: p.token, body: { name: 'Renamed Remotely' } });
    expect((await berth(['pull'], { home, cwd: dir })).code).toBe(4);
    const pull = await berth(['pull', '--yes'], { home, cwd: dir });
    expect(pull.code).toBe(0);
    expect(pull.stdout).toContain('~ name: CLI Test App -> Renamed Remotely');
    expect(readJson(file).name).toBe('Renamed Remotely');
  });

  it('another partner’s app is not found (exit 5); a directory without berth.app.json is not linked (exit 5)', async () => {
    const owner = await newPartner();
    const other = await newPartner();
    const app = await newApp(owner);
    const home = homeWithSession(other);
    expect((await berth(['link', app.appId], { home, cwd: tempDir('proj') })).code).toBe(5);
    expect((await berth(['push', '--yes'], { home, cwd: tempDir('proj') })).code).toBe(5);
  });
});

/**
 * Every URL in `text` (but `except`) is on the configured API's origin and answers there: a page, or an API that asks for
 * credentials (401) — never 404 or a 5xx (no dead links such as https://app.berth.example).
 */
async function expectLiveLinks(text: string, except?: string) {
  const urls = [...new Set(text.match(/https?:\/\/[^\s)'"]+/g) ?? [])].filter((u) => u !== except);
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    expect(new URL(url).origin, url).toBe(BASE);
    const r = await fetch(url, { redirect: 'manual' });
    expect([200, 401], `${url} answered ${r.status}`).toContain(r.status);
  }
}

describe('dev', () => {
  it('points the sandbox embed URL at the local app, prints links, never pushes it, restores it on Ctrl-C', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const app = await newApp(p);
    const dir = tempDir('proj');
    expect((await berth(['link', app.appId], { home, cwd: dir })).code).toBe(0);

    const dev = spawnBerth(['dev', '--url', 'http://localhost:4321/embed'], { home, cwd: dir });
    const started = await waitForOutput(dev, (r) => r.stdout.includes('API reference'));
    // The links open the partner's own private sandbox, never Demo Marina, and every one is on the API's own origin.
    const sandbox = await api<{ customerId: string }>('GET', '/partners/sandbox', { token: p.token });
    expect(started.stdout).toContain(`${BASE}/widget?customer=${sandbox.body.customerId}`);
    expect(started.stdout).toContain(`${BASE}/partners/apps/${app.appId}/installations`);
    expect(started.stdout).toContain(`${BASE}/apps/embeds?embedLocation=dashboard`);
    await expectLiveLinks(started.stdout, 'http://localhost:4321/embed');
    expect(started.stdout).not.toContain('cus_demo_marina');
    expect(started.stdout).toContain('Embedded (dashboard)');
    const during = await api<{ manifest: { urls: { embed: string } } }>('GET', `/partners/apps/${app.appId}`, { token: p.token });
    expect(during.body.manifest.urls.embed).toBe('http://localhost:4321/embed');

    // While dev runs, push refuses; pull writes the URL to restore, not the dev URL.
    expect((await berth(['push', '--yes'], { home, cwd: dir })).code).toBe(4);
    await berth(['pull', '--yes'], { home, cwd: dir });
    expect(readJson(join(dir, 'berth.app.json')).urls.embed).toBe('https://app.example.com/embed');

    dev.kill('SIGINT');
    const done = await dev.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain('Restored urls.embed');
    const after = await api<{ manifest: { urls: { embed: string } } }>('GET', `/partners/apps/${app.appId}`, { token: p.token });
    expect(after.body.manifest.urls.embed).toBe('https://app.example.com/embed');
  });

  it('names the URL to restore when restoring fails, and `dev --restore` puts it back later', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const app = await newApp(p);
    const dir = tempDir('proj');
    await berth(['link', app.appId], { home, cwd: dir });
    const dev = spawnBerth(['dev', '--url', 'http://localhost:4322/embed'], { home, cwd: dir });
    await waitForOutput(dev, (r) => r.stdout.includes('API reference'));
    // The session dies while dev runs (signed out elsewhere): restoring cannot authenticate.
    expect((await api('POST', '/partners/logout', { token: p.token })).status).toBe(200);
    dev.kill('SIGTERM');
    const done = await dev.done;
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('The URL to restore is https://app.example.com/embed');

    const fresh = await api<{ token: string }>('POST', '/partners/login', { body: { email: p.email, password: p.password } });
    const home2File = join(home, '.berth', 'credentials.json');
    const creds = readJson(home2File);
    creds.accounts[BASE].session.token = fresh.body.token;
    writeFileSync(home2File, JSON.stringify(creds), { mode: 0o600 });
    // push refuses the file if it carried the dev URL
    const file = join(dir, 'berth.app.json');
    writeFileSync(file, JSON.stringify({ ...readJson(file), urls: { ...readJson(file).urls, embed: 'http://localhost:4322/embed' } }));
    expect((await berth(['push', '--yes'], { home, cwd: dir })).code).toBe(4);
    const restored = await berth(['dev', '--restore', '--json'], { home, cwd: dir });
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ restored: true, url: 'https://app.example.com/embed' });
    const after = await api<{ manifest: { urls: { embed: string } } }>('GET', `/partners/apps/${app.appId}`, { token: fresh.body.token });
    expect(after.body.manifest.urls.embed).toBe('https://app.example.com/embed');
  });

  it('refuses an approved app (exit 4) and changes nothing', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const app = await newApp(p, { urls: { embed: 'https://app.example.com/embed', redirect: ['https://app.example.com/callback'] } });
    expect((await api('POST', `/partners/apps/${app.appId}/submit`, { token: p.token })).status).toBe(200);
    const approve = await api('POST', `/platform/apps/${app.appId}/approve`, { headers: { 'x-platform-key': devVars().PLATFORM_API_KEY }, body: {} });
    expect(approve.status).toBe(200);
    const dir = tempDir('proj');
    await berth(['link', app.appId], { home, cwd: dir });
    const r = await berth(['dev'], { home, cwd: dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('approved');
    const after = await api<{ status: string; manifest: { urls: { embed: string } } }>('GET', `/partners/apps/${app.appId}`, { token: p.token });
    expect(after.body).toMatchObject({ status: 'approved', manifest: { urls: { embed: 'https://app.example.com/embed' } } });
  });
});

describe('webhook trigger, open', () => {
  it('sends a signed test event that a local receiver verifies; lists the events; a failing receiver is exit 1', async () => {
    let status = 200;
    const hook = await receiver(() => ({ status, body: { ok: status === 200 } }));
    try {
      const p = await newPartner();
      const home = homeWithSession(p);
      const app = await newApp(p, { webhooks: { url: `${hook.url}/hooks`, events: ['booking.*'] } });
      const dir = tempDir('proj');
      await berth(['link', app.appId], { home, cwd: dir });

      const r = await berth(['webhook', 'trigger', 'booking.cancelled', '--json'], { home, cwd: dir });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ event: 'booking.cancelled', delivered: true, statusCode: 200 });
      expect(hook.got).toHaveLength(1);
      const got = hook.got[0];
      const ts = String(got.headers['x-service-timestamp']);
      const want = createHmac('sha256', app.webhookSecret).update(`${ts}.${got.body}`).digest('hex');
      expect(got.headers['x-service-signature']).toBe(want);
      expect(JSON.parse(got.body)).toMatchObject({ type: 'booking.cancelled', test: true });

      const bad = await berth(['webhook', 'trigger', 'booking.exploded'], { home, cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('booking.rescheduled');
      const list = await berth(['webhook', 'events', '--json'], { home, cwd: dir });
      expect(JSON.parse(list.stdout).events).toContain('booking.status_changed');

      status = 500;
      const failed = await berth(['webhook', 'trigger', 'booking.created'], { home, cwd: dir });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('not delivered');
    } finally {
      await hook.close();
    }
  });

  it("open prints the URL of each surface; the booking page is the partner's own sandbox's", async () => {
    const home = tempDir('home');
    expect((await berth(['open', 'docs'], { home })).stdout.trim()).toBe(`${BASE}/docs`);
    // Not signed in: no sandbox of one's own to open (exit 3).
    expect((await berth(['open', 'booking'], { home })).code).toBe(3);
    const p = await newPartner();
    const sandbox = await api<{ customerId: string }>('GET', '/partners/sandbox', { token: p.token });
    expect(sandbox.body.customerId).toMatch(/^cus_sbx_/);
    expect(JSON.parse((await berth(['open', 'booking', '--json'], { home: homeWithSession(p) })).stdout)).toEqual({
      target: 'booking',
      url: `${BASE}/widget?customer=${sandbox.body.customerId}`,
    });
    for (const target of ['docs', 'portal', 'booking']) await expectLiveLinks((await berth(['open', target], { home: homeWithSession(p) })).stdout);
    expect((await berth(['open', 'nowhere'], { home })).code).toBe(2);
  });
});
