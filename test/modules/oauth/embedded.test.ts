import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { SELF } from 'cloudflare:test';
import { createLocalJWKSet, jwtVerify, decodeProtectedHeader } from 'jose';
import { BASE, createOperator, del, eventually, expectError, get, post } from '../../harness';
import { outbound } from '../../../src/adapters/http';
import { approve, basic, bearer, createApp, installAndToken, registerPartner, tokenCall, type TestApp } from '../partners/helpers';
import { at, book, bookBody, rentalItem } from '../bookings/factories';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

async function publishedKeys() {
  const res = await SELF.fetch(`${BASE}/.well-known/jwks.json`);
  expect(res.status).toBe(200);
  return createLocalJWKSet((await res.json()) as { keys: any[] });
}

describe('Embedded apps: session tokens, published keys, token exchange, host SDK', () => {
  it('the host issues a session token that verifies with jose against /.well-known/jwks.json and exchanges for an access token', async () => {
    const partner = await registerPartner('Map Co');
    const app = await createApp(partner);
    const otherApp = await createApp(partner, { name: 'Another app' });
    await approve(partner, app.appId);
    const op = await createOperator();
    const installed = await installAndToken(op, app, 'read:geofence read:locations');
    const staff = await op.addUser({ role: 'staff' });

    const embeds = await get('/apps/embeds?embedLocation=asset-tracking', { key: staff.key });
    expect(embeds.body.data).toEqual([expect.objectContaining({ installationId: installed.installation_id, embedUrl: 'https://app.example.test/embed' })]);

    const issued = await post(
      `/apps/installations/${installed.installation_id}/session-token`,
      { locationId: op.locationId, embedLocation: 'asset-tracking' },
      { key: staff.key },
    );
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body.expiresIn).toBe(300);
    const token = issued.body.sessionToken as string;

    // The app verifies it with jose against the published keys.
    const { payload, protectedHeader } = await jwtVerify(token, await publishedKeys(), { issuer: 'http://berth.test', audience: app.appId });
    expect(protectedHeader.alg).toBe('ES256');
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({
      sub: staff.userId,
      aud: app.appId,
      customerId: op.customerId,
      installationId: installed.installation_id,
      locationId: op.locationId,
      embedLocation: 'asset-tracking',
    });
    expect(payload.exp! - payload.iat!).toBe(300);
    await expect(jwtVerify(token, await publishedKeys(), { issuer: 'http://berth.test', audience: otherApp.appId })).rejects.toThrow();
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${btoa(JSON.stringify({ ...payload, customerId: 'cus_other' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_')}.${s}`;
    await expect(jwtVerify(tampered, await publishedKeys())).rejects.toThrow();
    expect(decodeProtectedHeader(token).typ).toBe('JWT');
    void p;

    // Token exchange (RFC 8693): an access token of the installation acting as the session's user.
    const ex = await tokenCall({ grant_type: EXCHANGE, subject_token: token, subject_token_type: JWT_TYPE }, basic(app.appId, app.clientSecret!));
    expect(ex.status, ex.text).toBe(200);
    expect(ex.body).toMatchObject({ issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 });
    expect(ex.body.refresh_token).toBeUndefined();
    const map = await get(`/api/v1/asset-tracking?locationId=${op.locationId}`, bearer(ex.body.access_token));
    expect(map.status, map.text).toBe(200);
    expect(map.body.location.locationId).toBe(op.locationId);

    // Refusals: another client, a tampered token, a wrong token type, an uninstalled app.
    expectError(
      (await tokenCall({ grant_type: EXCHANGE, subject_token: token, subject_token_type: JWT_TYPE }, basic(otherApp.appId, otherApp.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
    expectError(
      (await tokenCall({ grant_type: EXCHANGE, subject_token: tampered, subject_token_type: JWT_TYPE }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
    expectError(
      (await tokenCall(
        { grant_type: EXCHANGE, subject_token: token, subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' },
        basic(app.appId, app.clientSecret!),
      )) as any,
      400,
      'invalid_request',
    );
    const foreign = await createOperator();
    expectError(await post(`/apps/installations/${installed.installation_id}/session-token`, {}, { key: foreign.adminKey }), 404, 'not_found');
    expectError(
      await post(`/apps/installations/${installed.installation_id}/session-token`, { embedLocation: 'dashboard' }, { key: staff.key }),
      400,
      'validation_failed',
    );
    expectError(await post(`/apps/installations/${installed.installation_id}/session-token`, {}), 401, 'unauthenticated');

    expect((await del(`/apps/installations/${installed.installation_id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError((await get(`/api/v1/asset-tracking?locationId=${op.locationId}`, bearer(ex.body.access_token))) as any, 401, 'unauthenticated');
    expectError(
      (await tokenCall({ grant_type: EXCHANGE, subject_token: token, subject_token_type: JWT_TYPE }, basic(app.appId, app.clientSecret!))) as any,
      400,
      'invalid_grant',
    );
    expectError(await post(`/apps/installations/${installed.installation_id}/session-token`, {}, { key: staff.key }), 409, 'invalid_state');
  });

  it('serves the host and app SDK scripts and the authorization server metadata', async () => {
    const host = await SELF.fetch(`${BASE}/sdk/host.js`);
    expect(host.headers.get('content-type')).toContain('application/javascript');
    const js = await host.text();
    expect(js).toContain('BerthHost');
    expect(js).toContain("postMessage({ type: 'berth:session-token'");
    expect(js).toContain('ev.origin !== appOrigin');
    const app = await (await SELF.fetch(`${BASE}/sdk/app.js`)).text();
    expect(app).toContain('getSessionToken');
    const meta = await get('/.well-known/oauth-authorization-server');
    expect(meta.body).toMatchObject({
      issuer: 'http://berth.test',
      token_endpoint: 'http://berth.test/oauth/token',
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    const scopes = await get('/oauth/scopes');
    expect(scopes.body.scopes.find((s: any) => s.scope === 'read:geofence').routes).toContain('GET /geofences');
    expect(scopes.body.denied.find((d: any) => d.reason === 'uploads').routes).toContain('POST /inventory/photo/{inventory_id}');
  });
});

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}

describe('Events for installed apps', () => {
  let captured: Captured[] = [];
  const realFetch = outbound.fetch;
  beforeEach(() => {
    captured = [];
    outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      captured.push({ url: req.url, headers: Object.fromEntries(req.headers), body: await req.text() });
      return new Response('ok', { status: 200 });
    };
  });
  afterEach(() => {
    outbound.fetch = realFetch;
  });

  async function hmacHex(secret: string, message: string) {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)))].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  it('delivers booking.* (with booking.status_changed) signed like operator webhooks, only for the installing operator, until uninstalled', async () => {
    const partner = await registerPartner('Events Co');
    const hook = `https://hooks.example.test/app-${crypto.randomUUID().slice(0, 6)}`;
    const app: TestApp = await createApp(partner, { webhooks: { url: hook, events: ['booking.*'] } });
    await approve(partner, app.appId);
    const mine = await createOperator();
    const notMine = await createOperator();
    const installed = await installAndToken(mine, app, 'read:bookings');

    const item = await rentalItem(mine);
    const other = await rentalItem(notMine);
    const b = await book(mine, bookBody({ inventoryId: item.id, startTime: at(mine.timezone, 5, '10:00'), endTime: at(mine.timezone, 5, '12:00') }));
    expect(b.status, b.text).toBe(201);
    const ob = await book(notMine, bookBody({ inventoryId: other.id, startTime: at(notMine.timezone, 5, '10:00'), endTime: at(notMine.timezone, 5, '12:00') }));
    expect(ob.status).toBe(201);
    const cancelled = await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: mine.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);

    const types = () => captured.filter((c) => c.url === hook).map((c) => JSON.parse(c.body).type as string);
    await eventually(async () => types().includes('booking.created') && types().includes('booking.cancelled') && types().includes('booking.status_changed'));
    await new Promise((r) => setTimeout(r, 300));
    for (const c of captured.filter((x) => x.url === hook)) {
      const body = JSON.parse(c.body);
      expect(body.customerId).toBe(mine.customerId);
      const ts = c.headers['x-service-timestamp'];
      expect(c.headers['x-service-signature']).toBe(await hmacHex(app.webhookSecret, `${ts}.${c.body}`));
    }
    const changed = captured
      .filter((c) => c.url === hook)
      .map((c) => JSON.parse(c.body))
      .find((x) => x.type === 'booking.status_changed');
    expect(changed.data).toMatchObject({ rentalId: b.body.rentalId, to: 'cancelled' });
    expect(captured.some((c) => c.body.includes(ob.body.rentalId))).toBe(false);
    // The operator's own webhook list does not show the app's endpoint.
    expect((await get('/webhooks', { key: mine.adminKey })).body.data).toEqual([]);

    // After uninstall, nothing more is delivered.
    await del(`/apps/installations/${installed.installation_id}`, undefined, { key: mine.adminKey });
    captured = [];
    const b2 = await book(mine, bookBody({ inventoryId: item.id, startTime: at(mine.timezone, 6, '10:00'), endTime: at(mine.timezone, 6, '12:00') }));
    expect(b2.status).toBe(201);
    await new Promise((r) => setTimeout(r, 800));
    expect(captured.filter((c) => c.url === hook)).toEqual([]);
  });
});
