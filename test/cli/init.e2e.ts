import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE } from './env';
import { api, berth, homeWithSession, newPartner } from './helpers';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

async function freePort() {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  return port;
}

/** The partner's own sandbox operator and an admin API key of it (what the sandbox dashboard's admin would hold). */
async function sandboxAdmin(token: string) {
  const r = await api<{ customerId: string; locationIds: string[]; apiKey: string }>('POST', '/partners/sandbox/keys', { token });
  expect(r.status).toBe(201);
  return r.body;
}

describe('berth init (embedded app)', () => {
  it('scaffolds an app that installs in the sandbox and proves the handshake (JWKS-verified session token, exchange, gateway call)', async () => {
    const p = await newPartner();
    const home = homeWithSession(p);
    const port = await freePort();
    expect((await berth(['init', 'dock-app', '--port', String(port)], { home })).code).toBe(0);
    const dir = join(home, 'dock-app');
    expect(readJson(join(dir, 'berth.app.json'))).toMatchObject({ urls: { embed: `http://localhost:${port}/embed` }, embedLocations: ['dashboard'] });
    expect((await berth(['init', 'dock-app'], { home })).code).toBe(4);

    const linked = await berth(['link', '--create', '--json'], { home, cwd: dir });
    expect(linked.code).toBe(0);
    const { appId } = JSON.parse(linked.stdout);
    // berth.app.json's keys in their documented order: appId first.
    const written = readJson(join(dir, 'berth.app.json'));
    expect(Object.keys(written)).toEqual(['appId', 'name', 'scopes', 'urls', 'embedLocations', 'webhooks']);
    expect(Object.keys(written.urls)).toEqual(['embed', 'redirect']);
    expect(Object.keys(written.webhooks)).toEqual(['url', 'events']);
    const secrets = readJson(join(home, '.berth', 'credentials.json')).accounts[BASE].appSecrets[appId];
    expect(secrets.clientSecret).toMatch(/^bcs_/);
    expect(readFileSync(join(dir, 'berth.app.json'), 'utf8')).not.toContain(secrets.clientSecret);

    const server = spawn(process.execPath, ['server.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), BERTH_API_URL: BASE, BERTH_CLIENT_SECRET: secrets.clientSecret },
    });
    let log = '';
    server.stdout.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      const local = `http://localhost:${port}`;
      for (let i = 0; i < 100 && !log.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(log).toContain('listening');
      const page = await fetch(`${local}/embed`);
      expect(await page.text()).toContain(`${BASE}/sdk/app.js`);

      // Install in the sandbox as the app's developer: /install -> consent page -> partner sign-in -> allow -> /callback.
      const install = await fetch(`${local}/install`, { redirect: 'manual' });
      const authorize = install.headers.get('location')!;
      expect(authorize.startsWith(`${BASE}/oauth/authorize?`)).toBe(true);
      const signIn = await fetch(authorize, { redirect: 'manual' });
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
      const request = /name="request" value="(oar_[0-9A-Z]+)"/.exec(await signIn.text())![1];
      const login = await api('POST', '/oauth/authorize/login', {
        form: { request, method: 'partner', email: p.email, password: p.password },
        headers: { cookie },
      });
      expect(login.status).toBe(303);
      const decision = await api('POST', '/oauth/authorize/decision', { form: { request, decision: 'allow' }, headers: { cookie } });
      const back = decision.headers.get('location')!;
      expect(back.startsWith(`${local}/callback?`)).toBe(true);
      const installed = (await (await fetch(back)).json()) as { ok: boolean; installationId: string; customerId: string };
      // The developer's install lands on the partner account's own private sandbox, not on Demo Marina.
      const sandbox = await sandboxAdmin(p.token);
      expect(sandbox.customerId).toMatch(/^cus_sbx_/);
      expect(installed).toMatchObject({ ok: true, customerId: sandbox.customerId });

      // The dashboard asks Berth for a session token for the iframe (what BerthHost.embed does), the page posts it to the app.
      const st = await api<{ sessionToken: string }>('POST', `/apps/installations/${installed.installationId}/session-token`, {
        headers: { 'x-api-key': sandbox.apiKey },
        body: { locationId: sandbox.locationIds[0], embedLocation: 'dashboard' },
      });
      expect(st.status).toBe(200);
      const hs = await fetch(`${local}/api/handshake`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(st.body) });
      const result = (await hs.json()) as Record<string, unknown>;
      expect(hs.status).toBe(200);
      expect(result).toMatchObject({ ok: true, operator: sandbox.customerId, installationId: installed.installationId, gateway: { status: 200 } });

      // A token whose payload was changed does not verify against Berth's published keys.
      const [h, , s] = st.body.sessionToken.split('.');
      const forgedPayload = Buffer.from(JSON.stringify({ iss: BASE, aud: appId, sub: 'usr_x', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url');
      const forged = await fetch(`${local}/api/handshake`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionToken: `${h}.${forgedPayload}.${s}` }),
      });
      expect(forged.status).toBe(401);
      expect(((await forged.json()) as { error: string }).error).toBe('bad signature');
    } finally {
      server.kill('SIGTERM');
    }
  });
});
