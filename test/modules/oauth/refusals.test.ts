import { describe, it, expect } from 'vitest';
import { env, runInDurableObject } from 'cloudflare:test';
import { createOperator, expectError, get } from '../../harness';
import {
  REDIRECT,
  approve,
  authorizeUrl,
  basic,
  bearer,
  consent,
  createApp,
  openAuthorize,
  pkce,
  raw,
  registerPartner,
  sandboxOperator,
  tokenCall,
  type Partner,
  type TestApp,
} from '../partners/helpers';

let fixture: { partner: Partner; app: TestApp; publicApp: TestApp } | undefined;
async function apps() {
  if (fixture) return fixture;
  const partner = await registerPartner('Refusal Labs');
  const app = await createApp(partner);
  const publicApp = await createApp(partner, { clientType: 'public', name: 'Mobile' });
  await approve(partner, app.appId);
  await approve(partner, publicApp.appId);
  fixture = { partner, app, publicApp };
  return fixture;
}

/** A code for `app` on a fresh operator (with PKCE). */
async function codeFor(app: TestApp, opts: { scope?: string } = {}) {
  const op = await createOperator();
  const { verifier, challenge } = await pkce();
  const c = await consent(
    {
      client_id: app.appId,
      redirect_uri: REDIRECT,
      scope: opts.scope ?? 'read:locations',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    },
    op.adminId,
  );
  expect(c.redirect.status, c.redirect.text).toBe(302);
  return { op, verifier, code: c.location!.searchParams.get('code')! };
}

const expectRedirectError = (r: Awaited<ReturnType<typeof raw>>, error: string, state?: string) => {
  expect(r.status, r.text).toBe(302);
  const u = new URL(r.location!);
  expect(u.origin + u.pathname).toBe(REDIRECT);
  expect(u.searchParams.get('error')).toBe(error);
  expect(u.searchParams.get('error_description')).toBeTruthy();
  expect(u.searchParams.get('iss')).toBe('http://berth.test');
  if (state) expect(u.searchParams.get('state')).toBe(state);
  expect(u.searchParams.get('code')).toBeNull();
};

describe('/oauth/authorize refusals', () => {
  it('shows an error page (never redirects) for an unknown client or a redirect URI that is not an exact match', async () => {
    const { app } = await apps();
    const variants = [
      undefined,
      `${REDIRECT}/`,
      REDIRECT.replace('app.example.test', 'APP.example.test'),
      `${REDIRECT}?x=1`,
      REDIRECT.replace('https:', 'http:'),
      REDIRECT.replace('/callback', '/callback2'),
      `${REDIRECT}#frag`,
      'https://evil.example/callback',
      REDIRECT.replace('app.example.test', 'app.example.test.evil.example'),
    ];
    for (const redirect_uri of variants) {
      const r = await raw('GET', authorizeUrl({ client_id: app.appId, redirect_uri, state: 's' }));
      expect(r.status, `${redirect_uri}: ${r.text.slice(0, 200)}`).toBe(400);
      expect(r.location).toBeNull();
      expect(r.headers.get('content-type')).toContain('text/html');
    }
    const unknown = await raw('GET', authorizeUrl({ client_id: 'app_01J0000000000000000000000', redirect_uri: REDIRECT }));
    expect(unknown.status).toBe(400);
    expect(unknown.location).toBeNull();
  });

  it('redirects protocol errors with state and iss: response type, PKCE (missing for public clients, plain), scope', async () => {
    const { app, publicApp } = await apps();
    const { challenge } = await pkce();
    expectRedirectError(
      await raw('GET', authorizeUrl({ client_id: app.appId, redirect_uri: REDIRECT, response_type: 'token', state: 'a' })),
      'unsupported_response_type',
      'a',
    );
    expectRedirectError(await raw('GET', authorizeUrl({ client_id: publicApp.appId, redirect_uri: REDIRECT, state: 'b' })), 'invalid_request', 'b');
    for (const client of [app, publicApp]) {
      expectRedirectError(
        await raw(
          'GET',
          authorizeUrl({ client_id: client.appId, redirect_uri: REDIRECT, state: 'c', code_challenge: challenge, code_challenge_method: 'plain' }),
        ),
        'invalid_request',
        'c',
      );
      expectRedirectError(
        await raw('GET', authorizeUrl({ client_id: client.appId, redirect_uri: REDIRECT, state: 'd', code_challenge: challenge })),
        'invalid_request',
        'd',
      );
    }
    expectRedirectError(
      await raw('GET', authorizeUrl({ client_id: app.appId, redirect_uri: REDIRECT, state: 'e', code_challenge: 'short', code_challenge_method: 'S256' })),
      'invalid_request',
      'e',
    );
    expectRedirectError(
      await raw('GET', authorizeUrl({ client_id: app.appId, redirect_uri: REDIRECT, state: 'f', scope: 'write:bookings' })),
      'invalid_scope',
      'f',
    );
    expectRedirectError(
      await raw('GET', authorizeUrl({ client_id: app.appId, redirect_uri: REDIRECT, state: 'g', scope: 'admin:everything' })),
      'invalid_scope',
      'g',
    );
  });

  it('deny redirects access_denied; a decision from another browser, a non-admin and an unapproved app for a live operator are refused', async () => {
    const { app, partner } = await apps();
    const op = await createOperator();
    const denied = await consent({ client_id: app.appId, redirect_uri: REDIRECT, state: 'no' }, op.adminId, 'deny');
    expectRedirectError(denied.redirect, 'access_denied', 'no');

    const { request, cookie } = await openAuthorize({ client_id: app.appId, redirect_uri: REDIRECT, state: 'x' });
    await raw('POST', '/oauth/authorize/login', { headers: { cookie: cookie! }, form: { request: request!, method: 'development', userId: op.adminId } });
    const noCookie = await raw('POST', '/oauth/authorize/decision', { form: { request: request!, decision: 'allow' } });
    expect(noCookie.status).toBe(403);
    expect(noCookie.location).toBeNull();
    const wrongCookie = await raw('POST', '/oauth/authorize/decision', {
      headers: { cookie: cookie!.replace(/=.*/, '=forged') },
      form: { request: request!, decision: 'allow' },
    });
    expect(wrongCookie.status).toBe(403);
    const ok = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision: 'allow' } });
    expect(ok.status).toBe(302);
    const replay = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision: 'allow' } });
    expect(replay.status).toBe(400);

    const staff = await op.addUser({ role: 'staff' });
    const byStaff = await consent({ client_id: app.appId, redirect_uri: REDIRECT }, staff.userId);
    expect(byStaff.redirect.status).toBe(403);
    expect(byStaff.redirect.text).toContain('Only an admin');

    const draft = await createApp(partner, { name: 'Draft app' });
    const live = await consent({ client_id: draft.appId, redirect_uri: REDIRECT }, op.adminId);
    expect(live.redirect.status).toBe(403);
    expect(live.redirect.text).toContain('not approved');
  });
});

describe('/oauth/token refusals', () => {
  it('a reused code is refused and revokes the tokens it issued', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const first = await tokenCall(form, basic(app.appId, app.clientSecret!));
    expect(first.status, first.text).toBe(200);
    expect((await get('/api/v1/location', bearer(first.body.access_token))).status).toBe(200);
    const second = await tokenCall(form, basic(app.appId, app.clientSecret!));
    expectError(second as any, 400, 'invalid_grant');
    expect(second.body.error_description).toMatch(/already used; every token it issued is revoked/);
    expectError((await get('/api/v1/location', bearer(first.body.access_token))) as any, 401, 'unauthenticated');
    expectError(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
  });

  it('after one failed attempt, reusing the code says no token was issued (not that they were revoked)', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const failedOnce = await tokenCall({ ...form, code_verifier: 'x'.repeat(43) }, basic(app.appId, app.clientSecret!));
    expectError(failedOnce as any, 400, 'invalid_grant');
    expect(failedOnce.body.error_description).toMatch(/code_verifier does not match/);
    const again = await tokenCall(form, basic(app.appId, app.clientSecret!));
    expectError(again as any, 400, 'invalid_grant');
    expect(again.body.error_description).toMatch(/already used/);
    expect(again.body.error_description).toMatch(/issued no token/);
    expect(again.body.error_description).not.toMatch(/revoked/);
  });

  it('an expired code is refused', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app);
    const grantId = `grt_${code.split('_')[1]}`;
    await runInDurableObject(env.OAUTH_GRANT.get(env.OAUTH_GRANT.idFromName(grantId)), async (_o, state) => {
      const s = state.storage.kv.get<any>('grant');
      s.code.expiresAt = Date.now() - 1;
      state.storage.kv.put('grant', s);
    });
    const r = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(app.appId, app.clientSecret!));
    expectError(r as any, 400, 'invalid_grant');
    expect(r.body.error_description).toMatch(/expired/);
  });

  it('PKCE: a wrong or missing verifier is refused; redirect_uri must match; public clients need the verifier', async () => {
    const { app, publicApp } = await apps();
    const a = await codeFor(app);
    const wrong = await tokenCall(
      { grant_type: 'authorization_code', code: a.code, redirect_uri: REDIRECT, code_verifier: (await pkce()).verifier },
      basic(app.appId, app.clientSecret!),
    );
    expectError(wrong as any, 400, 'invalid_grant');
    const b = await codeFor(app);
    expectError(
      (await tokenCall({ grant_type: 'authorization_code', code: b.code, redirect_uri: REDIRECT }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
    const c = await codeFor(app);
    expectError(
      (await tokenCall(
        { grant_type: 'authorization_code', code: c.code, redirect_uri: `${REDIRECT}/`, code_verifier: c.verifier },
        basic(app.appId, app.clientSecret!),
      )) as any,
      400,
      'invalid_grant',
    );
    const d = await codeFor(publicApp);
    expectError(
      (await tokenCall({ grant_type: 'authorization_code', code: d.code, redirect_uri: REDIRECT, client_id: publicApp.appId })) as any,
      400,
      'invalid_request',
    );
    // The public client with its verifier and no secret succeeds.
    const e = await codeFor(publicApp);
    const ok = await tokenCall({
      grant_type: 'authorization_code',
      code: e.code,
      redirect_uri: REDIRECT,
      client_id: publicApp.appId,
      code_verifier: e.verifier,
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('client authentication: a wrong secret or a secret from a public client is 401 invalid_client', async () => {
    const { app, publicApp } = await apps();
    const { code, verifier } = await codeFor(app);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const bad = await tokenCall(form, basic(app.appId, 'bcs_wrong'));
    expectError(bad as any, 401, 'invalid_client');
    expect(bad.headers.get('www-authenticate')).toContain('Basic');
    expectError((await tokenCall(form)) as any, 401, 'invalid_client');
    expectError((await tokenCall({ ...form, client_id: app.appId })) as any, 401, 'invalid_client');
    expectError((await tokenCall({ ...form, client_id: publicApp.appId, client_secret: 'anything' })) as any, 401, 'invalid_client');
    // client_secret_post works as well as Basic; the code is still good (client authentication failed before it was looked at).
    const post = await tokenCall({ ...form, client_id: app.appId, client_secret: app.clientSecret! });
    expect(post.status, post.text).toBe(200);
    expectError(
      (await tokenCall({ grant_type: 'password', username: 'x', password: 'y' }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'unsupported_grant_type',
    );
    expectError((await tokenCall({}, basic(app.appId, app.clientSecret!))) as any, 400, 'invalid_request');
  });

  it("a refresh token presented by another client is refused without revoking the owner's grant", async () => {
    const { app, partner } = await apps();
    const other = await createApp(partner, { name: 'Other client' });
    const { code, verifier } = await codeFor(app);
    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(app.appId, app.clientSecret!));
    const stolen = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token }, basic(other.appId, other.clientSecret!));
    expectError(stolen as any, 400, 'invalid_grant');
    expect(stolen.body.error_description).toMatch(/another client/);
    const mine = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token }, basic(app.appId, app.clientSecret!));
    expect(mine.status, mine.text).toBe(200);
  });

  it('a client that lost the refresh answer may retry with the previous token once within the grace; the lost pair is then spent', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app);
    const auth = basic(app.appId, app.clientSecret!);
    const t0 = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, auth);
    const lost = await tokenCall({ grant_type: 'refresh_token', refresh_token: t0.body.refresh_token }, auth);
    expect(lost.status).toBe(200);
    const retry = await tokenCall({ grant_type: 'refresh_token', refresh_token: t0.body.refresh_token }, auth);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.refresh_token).not.toBe(lost.body.refresh_token);
    expectError((await get('/api/v1/location', bearer(lost.body.access_token))) as any, 401, 'unauthenticated');
    expect((await get('/api/v1/location', bearer(retry.body.access_token))).status).toBe(200);
    // The lost refresh token is spent: presenting it is reuse and revokes the grant.
    expectError((await tokenCall({ grant_type: 'refresh_token', refresh_token: lost.body.refresh_token }, auth)) as any, 400, 'invalid_grant');
    expect((await get('/api/v1/location', bearer(retry.body.access_token))).status).toBe(401);
  });

  it('parallel refreshes with one token rotate atomically: exactly one returned refresh token stays current', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app);
    const auth = basic(app.appId, app.clientSecret!);
    const t0 = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, auth);
    const results = await Promise.all(Array.from({ length: 3 }, () => tokenCall({ grant_type: 'refresh_token', refresh_token: t0.body.refresh_token }, auth)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const issued = results.map((r) => r.body.refresh_token as string);
    expect(new Set(issued).size).toBe(3);
    const grantId = `grt_${t0.body.refresh_token.split('_')[1]}`;
    const hex = async (s: string) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const hashes = await Promise.all(issued.map(hex));
    const state = await runInDurableObject(env.OAUTH_GRANT.get(env.OAUTH_GRANT.idFromName(grantId)), async (_o, st) => st.storage.kv.get<any>('grant'));
    const current = hashes.filter((h) => h === state.refresh.hash);
    expect(current).toHaveLength(1);
    expect(hashes.filter((h) => state.spent.includes(h))).toHaveLength(2);
    const winner = issued[hashes.indexOf(current[0])];
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: winner }, auth)).status).toBe(200);
  });

  it('refresh narrows scopes but never widens them', async () => {
    const { app } = await apps();
    const { code, verifier } = await codeFor(app, { scope: 'read:locations read:customers' });
    const auth = basic(app.appId, app.clientSecret!);
    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, auth);
    expectError(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token, scope: 'read:bookings' }, auth)) as any,
      400,
      'invalid_scope',
    );
    const narrow = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token, scope: 'read:locations' }, auth);
    expect(narrow.status, narrow.text).toBe(200);
    expect(narrow.body.scope).toBe('read:locations');
    const r = await get('/api/v1/renters', bearer(narrow.body.access_token));
    expectError(r, 403, 'insufficient_scope');
  });
});

describe('Sandbox installs', () => {
  it('a draft app installs on the sandbox operator without approval, by a sandbox user or by its own developer', async () => {
    const partner = await registerPartner('Sandbox Dev');
    const sandbox = await sandboxOperator();
    const app = await createApp(partner, { name: 'Drafty' });
    const { verifier, challenge } = await pkce();
    const c = await consent(
      { client_id: app.appId, redirect_uri: REDIRECT, scope: 'read:locations', code_challenge: challenge, code_challenge_method: 'S256' },
      sandbox.adminId,
    );
    expect(c.consentPage.text).toContain('SANDBOX');
    expect(c.redirect.status, c.redirect.text).toBe(302);
    const t = await tokenCall(
      { grant_type: 'authorization_code', code: c.location!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier },
      basic(app.appId, app.clientSecret!),
    );
    expect(t.status, t.text).toBe(200);
    expect(t.body.customer_id).toBe(sandbox.customerId);
    const inst = await get(`/apps/installations/${t.body.installation_id}`, { key: sandbox.adminKey });
    expect(inst.body).toMatchObject({ sandbox: true, status: 'active' });

    // The developer signs in with the partner account on the consent page: installs in the sandbox.
    const { request, cookie } = await openAuthorize({ client_id: app.appId, redirect_uri: REDIRECT, scope: 'read:locations', state: 'dev' });
    const other = await registerPartner('Not the owner');
    const notOwner = await raw('POST', '/oauth/authorize/login', {
      headers: { cookie: cookie! },
      form: { request: request!, method: 'partner', email: other.email, password: other.password },
    });
    expect(notOwner.status).toBe(403);
    const wrongPw = await raw('POST', '/oauth/authorize/login', {
      headers: { cookie: cookie! },
      form: { request: request!, method: 'partner', email: partner.email, password: 'nope-nope-nope' },
    });
    expect(wrongPw.status).toBe(401);
    const login = await raw('POST', '/oauth/authorize/login', {
      headers: { cookie: cookie! },
      form: { request: request!, method: 'partner', email: partner.email, password: partner.password },
    });
    expect(login.status, login.text).toBe(303);
    const done = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision: 'allow' } });
    expect(done.status, done.text).toBe(302);
    expect(new URL(done.location!).searchParams.get('code')).toMatch(/^bac_/);
  });
});
