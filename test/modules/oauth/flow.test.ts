import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, del, post, signToken } from '../../harness';
import { fakeHosts } from '../../outbound';
import { checkSecurity } from '../../security';
import {
  REDIRECT,
  approve,
  basic,
  consent,
  createApp,
  installAndToken,
  openAuthorize,
  pkce,
  registerPartner,
  tokenCall,
  bearer,
  raw,
} from '../partners/helpers';

describe('Authorization code flow with PKCE, end to end through HTTP', () => {
  it('consent, code, token, call, refresh, rotation, reuse detection, revocation, uninstall', async () => {
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const op = await createOperator();
    const { verifier, challenge } = await pkce();
    const state = 'xyz-state-123';

    // Consent page lists the requested scopes; allow redirects with code, state and iss.
    const c = await consent(
      { client_id: app.appId, redirect_uri: REDIRECT, scope: 'read:customers read:locations', state, code_challenge: challenge, code_challenge_method: 'S256' },
      op.adminId,
    );
    expect(c.consentPage.text).toContain('read:customers');
    expect(c.consentPage.text).toContain('read:locations');
    expect(c.consentPage.headers.get('x-frame-options')).toBe('DENY');
    expect(c.redirect.status).toBe(302);
    expect(c.location!.origin + c.location!.pathname).toBe(REDIRECT);
    expect(c.location!.searchParams.get('state')).toBe(state);
    expect(c.location!.searchParams.get('iss')).toBe('http://berth.test');
    const code = c.location!.searchParams.get('code')!;

    // Token: confidential client with HTTP Basic, PKCE verifier.
    const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(app.appId, app.clientSecret!));
    expect(t.status, t.text).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:customers read:locations', customer_id: op.customerId });
    expect(t.body.access_token).toMatch(/^bat_/);
    expect(t.body.refresh_token).toMatch(/^brt_/);

    // Call the gateway.
    const call = await get('/api/v1/location', bearer(t.body.access_token));
    expect(call.status, call.text).toBe(200);
    expect(call.body.data[0].locationId ?? call.body.data[0].id).toBeDefined();
    expect(call.headers.get('x-ratelimit-limit')).toBe('600');

    // Installation listed for the operator.
    const list = await get('/apps/installations', { key: op.adminKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ appId: app.appId, status: 'active', sandbox: false, scopes: ['read:customers', 'read:locations'] });

    // Refresh rotates; the new access token works.
    const r1 = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token }, basic(app.appId, app.clientSecret!));
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.refresh_token).not.toBe(t.body.refresh_token);
    const r2 = await tokenCall({ grant_type: 'refresh_token', refresh_token: r1.body.refresh_token }, basic(app.appId, app.clientSecret!));
    expect(r2.status, r2.text).toBe(200);
    expect((await get('/api/v1/location', bearer(r2.body.access_token))).status).toBe(200);

    // Reuse of a spent refresh token (the first one) revokes the whole grant.
    const reuse = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token }, basic(app.appId, app.clientSecret!));
    expectError(reuse as any, 400, 'invalid_grant');
    expect(reuse.body.error_description).toMatch(/already used/);
    expectError((await get('/api/v1/location', bearer(r2.body.access_token))) as any, 401, 'unauthenticated');
    expectError(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: r2.body.refresh_token }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );

    // A new authorization; revocation of its refresh token (RFC 7009) stops its access token.
    const again = await installAndToken(op, app, 'read:locations');
    expect((await get('/api/v1/location', bearer(again.access_token))).status).toBe(200);
    const rev = await raw('POST', '/oauth/revoke', {
      form: { token: again.refresh_token, token_type_hint: 'refresh_token' },
      headers: basic(app.appId, app.clientSecret!),
    });
    expect(rev.status, rev.text).toBe(200);
    expect((await get('/api/v1/location', bearer(again.access_token))).status).toBe(401);

    // Uninstall: every token of the installation stops at once.
    const third = await installAndToken(op, app, 'read:locations');
    expect((await get('/api/v1/location', bearer(third.access_token))).status).toBe(200);
    const un = await del(`/apps/installations/${third.installation_id}`, undefined, { key: op.adminKey });
    expect(un.status, un.text).toBe(200);
    expect(un.body.revokedGrants).toBeGreaterThanOrEqual(1);
    expect((await get('/api/v1/location', bearer(third.access_token))).status).toBe(401);
    expectError(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: third.refresh_token }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
    const after = await get(`/apps/installations/${third.installation_id}`, { key: op.adminKey });
    expect(after.body).toMatchObject({ status: 'uninstalled', activeGrants: 0 });
    void post;
  });

  it('installation routes: admins list and uninstall, any user gets session tokens; other operators get 404', async () => {
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const op = await createOperator();
    const t = await installAndToken(op, app, 'read:locations');
    const id = t.installation_id;
    await checkSecurity(op, { method: 'GET', path: '/apps/installations', adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: `/apps/installations/${id}`, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'POST', path: `/apps/installations/${id}/session-token`, body: {}, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: '/apps/embeds' });
    await checkSecurity(op, { method: 'DELETE', path: `/apps/installations/${id}`, otherStatus: 404, adminOnly: true });
    expect((await get(`/apps/installations/${id}`, { key: op.adminKey })).body.status).toBe('active');
    const un = await del(`/apps/installations/${id}`, undefined, { key: op.adminKey });
    expect(un.body.alreadyUninstalled).toBe(false);
    expect((await del(`/apps/installations/${id}`, undefined, { key: op.adminKey })).body.alreadyUninstalled).toBe(true);
    // Installing again reactivates the same installation.
    const back = await installAndToken(op, app, 'read:locations');
    expect(back.installation_id).toBe(id);
  });
});

describe('Sign-in at the identity provider (staging and production) and app deletion', () => {
  it('the consent page sends the operator to the identity provider and back (PKCE), then installs', async () => {
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const op = await createOperator();
    const { res, request, cookie } = await openAuthorize({ client_id: app.appId, redirect_uri: REDIRECT, scope: 'read:locations', state: 'idp' });
    expect(res.text).toContain(`/oauth/authorize/login/idp?request=${request}`);
    const go = await raw('GET', `/oauth/authorize/login/idp?request=${request}`, { headers: { cookie: cookie! } });
    expect(go.status).toBe(302);
    const idp = new URL(go.location!);
    expect(idp.origin + idp.pathname).toBe('https://idp.berth.test/authorize');
    expect(idp.searchParams.get('client_id')).toBe('berth-consent-test');
    expect(idp.searchParams.get('state')).toBe(request);
    expect(idp.searchParams.get('code_challenge_method')).toBe('S256');
    expect(idp.searchParams.get('redirect_uri')).toBe('http://berth.test/oauth/authorize/callback');

    // The identity provider's token endpoint answers an access token of the API audience for the operator's admin.
    let sentVerifier: string | null = null;
    const restore = fakeHosts(['idp.berth.test'], async (input: Request | string | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      expect(req.url).toBe('https://idp.berth.test/oauth/token');
      sentVerifier = new URLSearchParams(await req.text()).get('code_verifier');
      return Response.json({ access_token: await signToken({ sub: `test|${op.adminId}` }), token_type: 'Bearer' });
    });
    try {
      const back = await raw('GET', `/oauth/authorize/callback?code=idp-code-1&state=${request}`, { headers: { cookie: cookie! } });
      expect(back.status, back.text).toBe(303);
      expect(sentVerifier).toMatch(/^[A-Za-z0-9]{64}$/);
      const page = await raw('GET', new URL(back.location!).pathname + new URL(back.location!).search, { headers: { cookie: cookie! } });
      expect(page.text).toContain('Test Admin');
      const done = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision: 'allow' } });
      expect(done.status).toBe(302);
      expect(new URL(done.location!).searchParams.get('state')).toBe('idp');
    } finally {
      restore();
    }
  });

  it('deleting an app stops its tokens on every operator', async () => {
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const op = await createOperator();
    const t = await installAndToken(op, app, 'read:locations');
    expect((await get('/api/v1/location', bearer(t.access_token))).status).toBe(200);
    expect((await del(`/partners/apps/${app.appId}`, undefined, bearer(partner.token))).status).toBe(200);
    expectError(await get('/api/v1/location', bearer(t.access_token)), 401, 'unauthenticated');
    expect((await get(`/apps/installations/${t.installation_id}`, { key: op.adminKey })).body.status).toBe('uninstalled');
  });
});
