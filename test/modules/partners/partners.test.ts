import { describe, it, expect, afterEach } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, patch, post, put } from '../../harness';
import { messageOutbox } from '../../../src/db/schema/events';
import { partnerAccounts } from '../../../src/db/schema/partners';
import { fakeHosts } from '../../outbound';
import { PLATFORM, REDIRECT, bearer, consent, createApp, registerPartner, raw, tokenCall } from './helpers';

let restore = () => {};
afterEach(() => restore());

async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('Partner accounts', () => {
  it('registers (active at once, password hashed with PBKDF2), signs in, lists and revokes tokens', async () => {
    const p = await registerPartner('Harbor Tools');
    const row = await db().select().from(partnerAccounts).where(eq(partnerAccounts.id, p.partnerId)).get();
    expect(row!.status).toBe('active');
    expect(row!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row!.passwordHash).not.toContain(p.password);

    const me = await get('/partners/me', bearer(p.token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ partnerId: p.partnerId, email: p.email, name: 'Harbor Tools', hasPassword: true });
    expect(me.headers.get('x-ratelimit-limit')).toBe('300');

    expectError(await post('/partners/register', { email: p.email, password: 'another password', name: 'Dup' }), 409, 'already_exists');
    expectError(await post('/partners/register', { email: 'short@partner.test', password: 'short', name: 'X' }), 400, 'validation_failed');
    expectError(await post('/partners/login', { email: p.email, password: 'wrong password' }), 401, 'invalid_credentials');
    expectError(await post('/partners/login', { email: 'nobody@partner.test', password: 'whatever123' }), 401, 'invalid_credentials');
    const login = await post('/partners/login', { email: p.email.toUpperCase(), password: p.password });
    expect(login.status, login.text).toBe(200);
    expect(login.body.token).toMatch(/^bpt_/);

    const tokens = await get('/partners/tokens', bearer(login.body.token));
    expect(tokens.body.data.length).toBeGreaterThanOrEqual(2);
    expect(tokens.body.data.filter((t: any) => t.current)).toHaveLength(1);
    const first = tokens.body.data.find((t: any) => !t.current);
    expect((await del(`/partners/tokens/${first.tokenId}`, undefined, bearer(login.body.token))).status).toBe(200);
    expectError(await get('/partners/me', bearer(p.token)), 401, 'unauthenticated');
    expect((await post('/partners/logout', {}, bearer(login.body.token))).status).toBe(200);
    expectError(await get('/partners/me', bearer(login.body.token)), 401, 'unauthenticated');
    expectError(await get('/partners/me'), 401, 'unauthenticated');
    const op = await createOperator();
    expectError(await get('/partners/me', { key: op.adminKey }), 401, 'unauthenticated');
  });

  it('limits sign-in attempts to 10 per minute per e-mail', async () => {
    const p = await registerPartner();
    // A new e-mail: its first attempt opens its own one-minute window (durable-objects/rate-limiter.ts), so no wait.
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await post('/partners/login', { email: p.email, password: 'wrong password' })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('changes the password, and resets it with an e-mailed one-time token', async () => {
    const p = await registerPartner();
    expectError(await put('/partners/me/password', { newPassword: 'brand new password' }, bearer(p.token)), 400, 'validation_failed');
    expect((await put('/partners/me/password', { currentPassword: p.password, newPassword: 'brand new password' }, bearer(p.token))).status).toBe(200);
    expect((await post('/partners/login', { email: p.email, password: 'brand new password' })).status).toBe(200);

    const forgot = await post('/partners/password/forgot', { email: p.email });
    expect(forgot.status).toBe(200);
    expect((await post('/partners/password/forgot', { email: 'nobody-here@partner.test' })).status).toBe(200);
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.to, p.email), eq(messageOutbox.template, 'partner_password_reset')))
      .get();
    const token = /(bpr_[A-Za-z0-9]{40})/.exec(mail!.body)![1];
    expect((await post('/partners/password/reset', { token, newPassword: 'reset password 123' })).status).toBe(200);
    expectError(await post('/partners/password/reset', { token, newPassword: 'again password 123' }), 410, 'expired');
    expect((await post('/partners/login', { email: p.email, password: 'reset password 123' })).status).toBe(200);
    expectError(await post('/partners/login', { email: p.email, password: 'brand new password' }), 401, 'invalid_credentials');
  });
});

describe('Apps', () => {
  it('CRUD, a manifest equal to the app file, validation of URLs, scopes and events', async () => {
    const p = await registerPartner();
    const other = await registerPartner('Someone else');
    const created = await post(
      '/partners/apps',
      {
        name: 'Dock Map',
        scopes: ['read:geofence', 'read:bookings', 'read:bookings'],
        urls: { embed: 'https://dockmap.example/embed', redirect: ['https://dockmap.example/cb', 'http://localhost:3000/cb'] },
        embedLocations: ['asset-tracking', 'dashboard'],
        webhooks: { url: 'https://dockmap.example/hooks', events: ['booking.*'] },
      },
      bearer(p.token),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.clientSecret).toMatch(/^bcs_/);
    expect(created.body.webhookSecret).toMatch(/^whsec_/);
    expect(created.body.status).toBe('draft');
    const appId = created.body.appId;
    const manifest = await get(`/partners/apps/${appId}/manifest`, bearer(p.token));
    expect(manifest.headers.get('etag')).toBe('"1"');
    expect(manifest.text).toBe(
      JSON.stringify({
        appId,
        name: 'Dock Map',
        scopes: ['read:bookings', 'read:geofence'],
        urls: { embed: 'https://dockmap.example/embed', redirect: ['http://localhost:3000/cb', 'https://dockmap.example/cb'] },
        embedLocations: ['asset-tracking', 'dashboard'],
        webhooks: { url: 'https://dockmap.example/hooks', events: ['booking.*'] },
      }),
    );
    expect((await get(`/partners/apps/${appId}`, bearer(p.token))).body.manifest).toEqual(manifest.body);
    expectError(await get(`/partners/apps/${appId}`, bearer(other.token)), 404, 'not_found');
    expect((await get('/partners/apps', bearer(p.token))).body).toMatchObject({ total: 1, data: [expect.objectContaining({ appId })] });

    // The file is the whole truth on PUT; If-Match guards against a stale pull.
    const file = { ...manifest.body, scopes: ['read:geofence'], webhooks: { url: null, events: [] } };
    const pushed = await api('PUT', `/partners/apps/${appId}/manifest`, { ...bearer(p.token), body: file, headers: { 'if-match': '"1"' } });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.manifest).toEqual(file);
    expectError(
      await api('PUT', `/partners/apps/${appId}/manifest`, { ...bearer(p.token), body: file, headers: { 'if-match': '"1"' } }),
      409,
      'version_conflict',
    );
    expectError(await put(`/partners/apps/${appId}/manifest`, { ...file, appId: 'app_01J0000000000000000000000' }, bearer(p.token)), 400, 'validation_failed');
    expectError(await put(`/partners/apps/${appId}/manifest`, { ...file, scope: ['typo'] }, bearer(p.token)), 400, 'validation_failed');

    // Validation.
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await patch(`/partners/apps/${appId}`, body, bearer(p.token));
      expectError(r, 400, 'validation_failed');
      expect(r.body.details.map((d: any) => d.field).join(' '), JSON.stringify(body)).toContain(field);
    };
    await bad({ urls: { redirect: ['http://dockmap.example/cb'] } }, 'urls.redirect.0');
    await bad({ urls: { redirect: ['https://dockmap.example/cb#x'] } }, 'urls.redirect.0');
    await bad({ urls: { redirect: ['com.dockmap.app:/cb'] } }, 'urls.redirect.0');
    await bad({ urls: { embed: 'ftp://dockmap.example' } }, 'urls.embed');
    await bad({ urls: { embed: null } }, 'urls.embed');
    await bad({ scopes: ['read:everything'] }, 'scopes');
    await bad({ embedLocations: ['sidebar'] }, 'embedLocations');
    await bad({ webhooks: { url: 'https://dockmap.example/h', events: ['booking.created'] } }, 'webhooks.events');
    await bad({ webhooks: { events: ['payment.completed'] } }, 'webhooks.events');
    expect((await patch(`/partners/apps/${appId}`, { urls: { embed: 'http://localhost:5173/embed' } }, bearer(p.token))).status).toBe(200);

    const pub = await post(
      '/partners/apps',
      { name: 'Phone', scopes: ['read:bookings'], clientType: 'public', urls: { redirect: ['com.dockmap.app:/cb'] } },
      bearer(p.token),
    );
    expect(pub.status, pub.text).toBe(201);
    expect(pub.body.clientSecret).toBeNull();
    expectError(await post(`/partners/apps/${pub.body.appId}/client-secret`, {}, bearer(p.token)), 409, 'invalid_state');

    const rotated = await post(`/partners/apps/${appId}/client-secret`, {}, bearer(p.token));
    expect(rotated.body.clientSecret).toMatch(/^bcs_/);
    expect((await del(`/partners/apps/${appId}`, undefined, bearer(p.token))).status).toBe(200);
    expectError(await get(`/partners/apps/${appId}`, bearer(p.token)), 404, 'not_found');
  });

  it('submit lists what is missing; platform staff approve or send back with a reason; only they can', async () => {
    const p = await registerPartner();
    const r = await post('/partners/apps', { name: 'Early', scopes: ['read:bookings'], urls: { redirect: ['http://localhost:8080/cb'] } }, bearer(p.token));
    const appId = r.body.appId;
    const notReady = await post(`/partners/apps/${appId}/submit`, {}, bearer(p.token));
    expectError(notReady, 409, 'not_ready');
    expect(notReady.body.details[0].field).toBe('urls.redirect.0');
    await patch(`/partners/apps/${appId}`, { urls: { redirect: [REDIRECT] } }, bearer(p.token));
    const submitted = await post(`/partners/apps/${appId}/submit`, {}, bearer(p.token));
    expect(submitted.body.status).toBe('in_review');

    const op = await createOperator();
    expectError(await get('/platform/apps'), 401, 'unauthenticated');
    expectError(await post(`/platform/apps/${appId}/approve`, {}, { key: op.adminKey }), 403, 'forbidden');
    expectError(await post(`/platform/apps/${appId}/approve`, {}, bearer(p.token)), 401, 'unauthenticated');
    expectError(
      await post(`/platform/apps/${appId}/approve`, {}, { headers: { 'x-platform-key': 'wrong-platform-key-0000000000000' } }),
      401,
      'unauthenticated',
    );
    const queue = await get('/platform/apps', PLATFORM);
    expect(queue.body.data.map((a: any) => a.appId)).toContain(appId);
    expect(queue.body.data.find((a: any) => a.appId === appId).partner.email).toBe(p.email);

    const back = await post(`/platform/apps/${appId}/reject`, { reason: 'Privacy policy link is missing' }, PLATFORM);
    expect(back.status, back.text).toBe(200);
    const seen = await get(`/partners/apps/${appId}`, bearer(p.token));
    expect(seen.body).toMatchObject({ status: 'draft', reviewReason: 'Privacy policy link is missing' });
    expectError(await post(`/platform/apps/${appId}/approve`, {}, PLATFORM), 409, 'invalid_state');

    await post(`/partners/apps/${appId}/submit`, {}, bearer(p.token));
    const ok = await post(`/platform/apps/${appId}/approve`, { note: 'Looks good' }, PLATFORM);
    expect(ok.body).toMatchObject({ status: 'approved', live: expect.objectContaining({ scopes: ['read:bookings'] }) });

    // Editing an approved app sends it back to review; live installs keep the approved manifest.
    const edited = await patch(`/partners/apps/${appId}`, { scopes: ['read:bookings', 'read:customers'] }, bearer(p.token));
    expect(edited.body).toMatchObject({ status: 'in_review', live: expect.objectContaining({ scopes: ['read:bookings'] }) });
    const liveOp = await createOperator();
    const wants = await consent({ client_id: appId, redirect_uri: REDIRECT, scope: 'read:customers', state: 's' }, liveOp.adminId);
    expect(new URL(wants.redirect.location!).searchParams.get('error')).toBe('invalid_scope');
    const okInstall = await consent({ client_id: appId, redirect_uri: REDIRECT, scope: 'read:bookings' }, liveOp.adminId);
    expect(new URL(okInstall.redirect.location!).searchParams.get('code')).toBeTruthy();
    const installs = await get(`/partners/apps/${appId}/installations`, bearer(p.token));
    expect(installs.body.data).toEqual([expect.objectContaining({ customerId: liveOp.customerId, sandbox: false, status: 'active' })]);
  });

  it('sends a signed test event to the webhook URL (webhook trigger)', async () => {
    const p = await registerPartner();
    // A host of its own: the receiver records this app's deliveries only.
    const host = `p${crypto.randomUUID().slice(0, 8)}.example.test`;
    const app = await createApp(p, { webhooks: { url: `https://${host}/berth`, events: ['booking.*'] } });
    let seen: { headers: Headers; body: string } | undefined;
    restore = fakeHosts([host], async (input: Request | string | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      seen = { headers: req.headers, body: await req.text() };
      return new Response('ok', { status: 200 });
    });
    const r = await post(`/partners/apps/${app.appId}/webhooks/test`, { event: 'booking.status_changed' }, bearer(p.token));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ delivered: true, statusCode: 200, event: 'booking.status_changed' });
    const ts = seen!.headers.get('x-service-timestamp')!;
    expect(seen!.headers.get('x-service-signature')).toBe(await hmacHex(app.webhookSecret, `${ts}.${seen!.body}`));
    expect(JSON.parse(seen!.body)).toMatchObject({ type: 'booking.status_changed', test: true, data: { from: 'pending', to: 'confirmed' } });
  });
});

describe('Device authorization grant (command line login)', () => {
  it('code, pending, slow_down, approval page, token, single use, revocation', async () => {
    const p = await registerPartner('CLI User');
    const dc = await raw('POST', '/oauth/device/code', { form: { client_id: 'berth-cli' } });
    expect(dc.status, dc.text).toBe(200);
    expect(dc.body).toMatchObject({ verification_uri: 'http://berth.test/device', expires_in: 900, interval: 5 });
    expect(dc.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expectError((await raw('POST', '/oauth/device/code', { form: { client_id: 'someone-else' } })) as any, 400, 'unauthorized_client');

    const poll = () => tokenCall({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: dc.body.device_code, client_id: 'berth-cli' });
    expectError((await poll()) as any, 400, 'authorization_pending');
    const fast = await poll();
    expectError(fast as any, 400, 'slow_down');
    expect(fast.body.interval).toBe(10);

    const page = await raw('GET', new URL(dc.body.verification_uri_complete).pathname + new URL(dc.body.verification_uri_complete).search);
    expect(page.status).toBe(200);
    expect(page.text).toContain(dc.body.user_code);
    const wrong = await raw('POST', '/device', { form: { user_code: dc.body.user_code, email: p.email, password: 'wrong password', action: 'approve' } });
    expect(wrong.status).toBe(401);
    const unknown = await raw('POST', '/device', { form: { user_code: 'BBBB-BBBB', email: p.email, password: p.password, action: 'approve' } });
    expect(unknown.status).toBe(400);
    const approved = await raw('POST', '/device', {
      form: { user_code: dc.body.user_code.toLowerCase(), email: p.email, password: p.password, action: 'approve' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.text).toContain('Signed in');

    const done = await poll();
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ token_type: 'Bearer', scope: 'partner' });
    const me = await get('/partners/me', bearer(done.body.access_token));
    expect(me.body.partnerId).toBe(p.partnerId);
    expectError((await poll()) as any, 400, 'invalid_grant');

    // logout: RFC 7009 revocation by the command-line client.
    expect((await raw('POST', '/oauth/revoke', { form: { token: done.body.access_token, client_id: 'berth-cli' } })).status).toBe(200);
    expectError(await get('/partners/me', bearer(done.body.access_token)), 401, 'unauthenticated');

    // A denied request.
    const dc2 = await raw('POST', '/oauth/device/code', { form: { client_id: 'berth-cli' } });
    await raw('POST', '/device', { form: { user_code: dc2.body.user_code, email: p.email, password: p.password, action: 'deny' } });
    expectError(
      (await tokenCall({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: dc2.body.device_code, client_id: 'berth-cli' })) as any,
      400,
      'access_denied',
    );
    void env;
  });
});
