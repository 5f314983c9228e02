import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, get, post, type Operator } from '../../harness';
import { approve, createApp, installAndToken, registerPartner, bearer, type TestApp, type Partner } from '../partners/helpers';
import { SCOPE_NAMES } from '../../../src/modules/partners/types';
import { rentalItem, bookBody, book, at } from '../bookings/factories';

const ALL = SCOPE_NAMES.join(' ');

let shared: { partner: Partner; app: TestApp } | undefined;
async function allScopesApp() {
  if (shared) return shared;
  const partner = await registerPartner('Gateway Co');
  const app = await createApp(partner, { scopes: [...SCOPE_NAMES] });
  await approve(partner, app.appId);
  shared = { partner, app };
  return shared;
}

async function tokenFor(op: Operator, scope: string) {
  const { app } = await allScopesApp();
  return (await installAndToken(op, app, scope)).access_token;
}

const call = (method: string, path: string, token: string, body?: unknown) => api(method, `/api/v1${path}`, { token, body });

/** One route per exposed family and the scope it needs. */
const FAMILIES: { family: string; method: string; path: (op: Operator) => string; scope: string; body?: (op: Operator) => unknown; ok: number }[] = [
  { family: 'bookings (schedule)', method: 'GET', path: () => '/schedule', scope: 'read:bookings', ok: 200 },
  { family: 'bookings (read one)', method: 'GET', path: () => '/coreBooking/bk_nonexistent', scope: 'read:bookings', ok: 404 },
  { family: 'renters (read)', method: 'GET', path: (op) => `/renters?customerId=${op.customerId}`, scope: 'read:customers', ok: 200 },
  {
    family: 'renters (write)',
    method: 'POST',
    path: () => '/renters',
    scope: 'write:customers',
    body: (op) => ({
      customerId: op.customerId,
      firstName: 'Gate',
      lastName: 'Way',
      address: '1 Pier',
      email: `gw-${crypto.randomUUID().slice(0, 6)}@renter.test`,
    }),
    ok: 201,
  },
  { family: 'inventory', method: 'GET', path: (op) => `/inventory?customer_id=${op.customerId}`, scope: 'read:inventory', ok: 200 },
  { family: 'asset pools', method: 'GET', path: () => '/asset-pools', scope: 'read:inventory', ok: 200 },
  { family: 'locations', method: 'GET', path: () => '/location', scope: 'read:locations', ok: 200 },
  { family: 'geofences (read)', method: 'GET', path: () => '/geofences', scope: 'read:geofence', ok: 200 },
  {
    family: 'geofences (write)',
    method: 'POST',
    path: () => '/geofences',
    scope: 'write:geofence',
    body: (op) => ({ locationId: op.locationId, name: 'Harbour', shape: 'circle', center: { lat: 25.77, lng: -80.18 }, radiusMeters: 300 }),
    ok: 201,
  },
  { family: 'staff locations', method: 'GET', path: () => '/staff-locations', scope: 'read:geofence', ok: 200 },
  {
    family: 'voice',
    method: 'POST',
    path: () => '/calls/partner/calls',
    scope: 'audio_calling',
    body: (op) => ({ locationId: op.locationId, to: '+13055550199', message: 'Your boat is ready' }),
    ok: 201,
  },
  { family: 'point of sale', method: 'GET', path: (op) => `/pos/inventory?locationId=${op.locationId}`, scope: 'read:pos', ok: 200 },
  { family: 'transactions', method: 'GET', path: (op) => `/pos/transaction?locationId=${op.locationId}`, scope: 'read:transactions', ok: 200 },
  {
    family: 'analytics (read)',
    method: 'GET',
    path: (op) => `/analytics/metrics?locationIds=${op.locationId}&startDate=2026-01-01&endDate=2026-01-31`,
    scope: 'read:analytics',
    ok: 200,
  },
  { family: 'reports (read)', method: 'GET', path: (op) => `/analytics/year-over-year?locationIds=${op.locationId}`, scope: 'read:reports', ok: 200 },
];

describe('Partner gateway: scope checks for every exposed family', () => {
  it('answers 403 insufficient_scope naming requiredScope without the scope, and serves the core route with it', async () => {
    const op = await createOperator();
    const narrow = await tokenFor(op, 'read:locations');
    const wide = await tokenFor(op, ALL);
    for (const f of FAMILIES) {
      if (f.scope !== 'read:locations') {
        const r = await call(f.method, f.path(op), narrow, f.body?.(op));
        expectError(r, 403, 'insufficient_scope');
        expect(r.body.requiredScope, f.family).toBe(f.scope);
        expect(r.headers.get('www-authenticate')).toContain('insufficient_scope');
      }
      const ok = await call(f.method, f.path(op), wide, f.body?.(op));
      expect(ok.status, `${f.family}: ${ok.text}`).toBe(f.ok);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('600');
    }
  });

  it('default-deny: account and billing, staff administration, integration configuration, uploads answer 403 whatever the scopes', async () => {
    const op = await createOperator();
    const wide = await tokenFor(op, ALL);
    for (const [m, p] of [
      ['GET', '/customer'],
      ['PATCH', '/customer'],
      ['POST', '/customer/cancel-subscription'],
      ['GET', '/api-keys'],
      ['GET', '/userManagement'],
      ['POST', '/user'],
      ['GET', '/staffSchedule'],
      ['GET', '/webhooks'],
      ['POST', '/channel-connections'],
      ['PATCH', '/location/ivr'],
      ['POST', '/inventory/photo/inv_1'],
      ['POST', '/inventory/video/inv_1'],
      ['POST', '/inventory/asset-map/inv_1'],
      ['GET', '/apps/installations'],
      ['PATCH', '/analytics/revenue-target'],
      ['POST', '/pos/account_link'],
      ['GET', '/public/widget-info'],
      ['GET', '/partners/me'],
    ]) {
      const r = await call(m, p, wide, m === 'GET' ? undefined : {});
      expectError(r, 403, 'route_not_exposed');
    }
  });

  it('refuses missing and invalid tokens, operator keys, and unknown paths', async () => {
    const op = await createOperator();
    const r = await get('/api/v1/location');
    expectError(r, 401, 'unauthenticated');
    expect(r.headers.get('www-authenticate')).toContain('Bearer');
    expectError(await get('/api/v1/location', { token: 'bat_01J0000000000000000000000_' + 'a'.repeat(40) }), 401, 'unauthenticated');
    expectError(await get('/api/v1/location', { key: op.adminKey }), 401, 'unauthenticated');
    const t = await tokenFor(op, 'read:locations');
    expectError(await get('/api/v1/no-such-family', bearer(t)), 404, 'route_not_found');
  });

  it("a token of operator A used on operator B's ids answers 404", async () => {
    const a = await createOperator();
    const b = await createOperator();
    const tA = await tokenFor(a, ALL);
    const item = await rentalItem(b);
    const booked = await book(b, bookBody({ inventoryId: item.id, startTime: at(b.timezone, 3, '10:00'), endTime: at(b.timezone, 3, '12:00') }));
    expect(booked.status, booked.text).toBe(201);
    expectError(await call('GET', `/coreBooking/${booked.body.rentalId}`, tA), 404, 'not_found');
    const renter = await post(
      '/renters',
      { customerId: b.customerId, firstName: 'B', lastName: 'Only', address: '2 Pier', email: `b-${crypto.randomUUID().slice(0, 6)}@renter.test` },
      { key: b.adminKey },
    );
    expect(renter.status, renter.text).toBe(201);
    const renterId = renter.body.id ?? renter.body.renterId;
    expectError(await call('GET', `/renters/${renterId}`, tA), 404);
    const fence = await post(
      '/geofences',
      { locationId: b.locationId, name: 'B', shape: 'circle', center: { lat: 1, lng: 1 }, radiusMeters: 10 },
      { key: b.adminKey },
    );
    expectError(await call('GET', `/geofences/${fence.body.geofenceId}`, tA), 404, 'not_found');
    expectError(await call('DELETE', `/geofences/${fence.body.geofenceId}`, tA), 404, 'not_found');
    // A's own booking through the gateway works.
    const itemA = await rentalItem(a);
    const mine = await call(
      'POST',
      '/coreBooking/book',
      tA,
      bookBody({ inventoryId: itemA.id, startTime: at(a.timezone, 4, '10:00'), endTime: at(a.timezone, 4, '12:00') }),
    );
    expect(mine.status, mine.text).toBe(201);
    expect((await call('GET', `/coreBooking/${mine.body.rentalId}`, tA)).status).toBe(200);
  });

  it('counts 600 requests per minute per installation: the 601st is 429 with Retry-After', async () => {
    const op = await createOperator();
    const { app } = await allScopesApp();
    const tokens = await installAndToken(op, app, 'read:locations');
    // A new installation: its first count opens its own one-minute window (durable-objects/rate-limiter.ts), so no wait.
    // The first 580 requests of this minute are counted straight in the installation's rate-limiter object
    // (what the gateway does for every call; 600 HTTP calls do not fit in a minute on a loaded test machine).
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`inst:${tokens.installation_id}`));
    for (let i = 0; i < 58; i++) await Promise.all(Array.from({ length: 10 }, () => limiter.hit(600, 60_000)));
    // Requests 581 to 600 through the gateway: served, with the exact remaining count.
    for (let n = 581; n <= 600; n++) {
      const r = await get('/api/v1/location', bearer(tokens.access_token));
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('600');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(600 - n));
    }
    const limited = await get('/api/v1/location', bearer(tokens.access_token));
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another installation of the same app is counted apart.
    const other = await createOperator();
    expect((await get('/api/v1/location', bearer(await tokenFor(other, 'read:locations')))).status).toBe(200);
  });
});

describe("Partner gateway: the token's operator", () => {
  it('an operator-bound token needs no customer_id: GET /inventory, GET and POST /renters, GET /renters/search-suggestions', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const item = await rentalItem(op);
    const t = await tokenFor(op, ALL);
    const inv = await call('GET', '/inventory', t);
    expect(inv.status, inv.text).toBe(200);
    expect(JSON.stringify(inv.body)).toContain(item.id);
    const email = `own-${crypto.randomUUID().slice(0, 6)}@renter.test`;
    const created = await call('POST', '/renters', t, { firstName: 'Own', lastName: 'Operator', address: '1 Pier', email });
    expect(created.status, created.text).toBe(201);
    const list = await call('GET', '/renters', t);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((r: { email: string }) => r.email)).toContain(email);
    const suggest = await call('GET', '/renters/search-suggestions?query=Own', t);
    expect(suggest.status, suggest.text).toBe(200);
    // A customer_id the app does send is still checked: another operator's answers 403.
    expectError(await call('GET', `/inventory?customer_id=${other.customerId}`, t), 403, 'forbidden');
    expectError(await call('POST', '/renters', t, { customerId: other.customerId, firstName: 'X', lastName: 'Y', address: '1', email: `x-${email}` }), 403);
    expect((await call('GET', `/inventory?customer_id=${op.customerId}`, t)).status).toBe(200);
  });

  it('credentials that do not carry the operator through the gateway still name it: 400 customer_id is required', async () => {
    const op = await createOperator();
    // The core API (an operator's API key) keeps its contract: the operator field is required.
    const r = await get('/inventory/customer', { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    expect(r.body.message).toContain('customer_id is required');
    const renters = await get('/renters', { key: op.adminKey });
    expectError(renters, 400, 'validation_failed');
    expect(renters.body.message).toContain('customerId is required');
    // The gateway takes only operator-bound access tokens: a platform key is no token there.
    expectError(await get('/api/v1/inventory', { headers: { 'x-platform-key': env.PLATFORM_API_KEY! } }), 401, 'unauthenticated');
  });
});
