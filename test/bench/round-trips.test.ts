/**
 * Round-trip budgets (issue 10). In the test pool the Worker counts the sequential round trips of
 * each request to D1 and to Durable Objects (src/lib/round-trips.ts) and answers them in headers:
 * `X-Round-Trips` (the whole request), `X-Round-Trips-Operation` (after authentication) and a trace.
 * These tests pin the budget of each hot operation: a change that adds a round trip fails here.
 *
 * | operation                                        | request | operation |
 * |--------------------------------------------------|---------|-----------|
 * | booking create, operator (API key)               | <= 3    | <= 2      |
 * | booking create, widget (service call)            |         | <= 2      |
 * | booking create, channel                          | <= 4    | <= 3      |
 * | channel booking replay (same Idempotency-Key)    | <= 2    | <= 1      |
 * | channel availability, 25 products                | <= 2    | <= 1      |
 * | month / day availability (anonymous)             | <= 1    |           |
 * | month / day availability, cached                 | 0       |           |
 * | authenticated read of one record (API key)       | <= 2    | <= 1      |
 * | authenticated read of one record (OAuth gateway) | <= 2    | <= 1      |
 *
 * Authentication is one round trip: an API key or a channel key is one call to its rate-limiter
 * object, which counts the request and holds the key's row (forgotten on every change, so a rotated
 * or revoked key is refused by the next request); other credentials are read in parallel with
 * their count.
 * Bookings here are pay-later, like the benchmark's: paying now adds the payment provider's calls
 * (one HTTP call to Stripe in production; the offline simulator keeps its state in D1).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, get, post, del, type ApiResult } from '../harness';
import { at as atLocal, bookBody, rentalItem as bookingItem } from '../modules/bookings/factories';
import { rentalItem, partnerKey, ch, idem, at } from '../modules/channel/factories';
import { instrumentEnv, roundTripsOf } from '../../src/lib/round-trips';
import { systemCtx } from '../../src/lib/context';
import { createBooking } from '../../src/modules/bookings/service';
import { approve, bearer, createApp, installAndToken, registerPartner } from '../modules/partners/helpers';

interface Trips {
  total: number;
  operation: number;
  trace: string;
}

/** A pay-later booking (no payment provider call), as the benchmark makes them. */
const payLater = <T extends Record<string, unknown>>(body: T) => ({ ...body, paymentMethodId: undefined, paymentPlan: { type: 'pay_later' } }) as T;

function trips(r: ApiResult): Trips {
  const total = r.headers.get('x-round-trips');
  expect(total, `no X-Round-Trips header (status ${r.status}: ${r.text.slice(0, 200)})`).not.toBeNull();
  return { total: Number(total), operation: Number(r.headers.get('x-round-trips-operation')), trace: r.headers.get('x-round-trip-trace') ?? '' };
}

/** Asserts a budget and shows the trace when it is exceeded. */
function within(t: Trips, budget: { total?: number; operation?: number }, what: string) {
  if (budget.total !== undefined) expect(t.total, `${what}: ${t.total} round trips (budget ${budget.total}): ${t.trace}`).toBeLessThanOrEqual(budget.total);
  if (budget.operation !== undefined)
    expect(t.operation, `${what}: ${t.operation} round trips after authentication (budget ${budget.operation}): ${t.trace}`).toBeLessThanOrEqual(
      budget.operation,
    );
}

describe('round-trip budgets', () => {
  it('booking create: operator <= 2 after authentication (the lock call carrying the first read, the write run by the lock), 3 in all', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 3 });
    // The first booking meets a cold isolate (no cached item); the second a warm one.
    for (const [i, [from, to]] of [
      ['10:00', '11:00'],
      ['12:00', '13:00'],
    ].entries()) {
      const body = payLater(bookBody({ inventoryId: item.id, startTime: atLocal(op.timezone, 5 + i, from), endTime: atLocal(op.timezone, 5 + i, to) }));
      const r = await post('/coreBooking/book', body, { key: op.adminKey });
      expect(r.status, r.text).toBe(201);
      within(trips(r), { total: 3, operation: 2 }, `operator booking ${i + 1}`);
      // The sale's first read rides in the lock call and its write runs in the lock's group commit: the Worker calls D1 not at all.
      expect(trips(r).trace.match(/\bd1 /g), trips(r).trace).toBeNull();
    }
  });

  it('booking create: widget <= 2 (service call with the sales rules)', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 2 });
    const counted = instrumentEnv(env);
    const ctx = systemCtx(counted, { customerId: op.customerId });
    const body = payLater(bookBody({ inventoryId: item.id, startTime: atLocal(op.timezone, 6, '10:00'), endTime: atLocal(op.timezone, 6, '12:00') }));
    const res = await createBooking(ctx, body, { source: 'widget' });
    expect(res.status).toBeDefined();
    const c = roundTripsOf(counted)!;
    expect(c.depth, `widget booking: ${c.depth} round trips: ${c.trace.join(' | ')}`).toBeLessThanOrEqual(2);
  });

  it('channel: booking <= 3, replay <= 1, availability of 25 products <= 1 (after the key check, which is 1)', async () => {
    const op = await createOperator();
    const items = [await rentalItem(op, { assets: 2, hourly: 50 })];
    for (let i = 1; i < 25; i++) items.push(await rentalItem(op, { assets: 1, hourly: 40 + i }));
    const { key } = await partnerKey(op);
    const start = at(op.timezone, 9, '10:00');
    const end = at(op.timezone, 9, '12:00');

    const avail = await post('/channel/v1/availability', { productIds: items.map((i) => i.id), startTime: start, endTime: end }, ch(key));
    expect(avail.status, avail.text).toBe(200);
    expect(avail.body.data).toHaveLength(25);
    within(trips(avail), { total: 2, operation: 1 }, 'channel availability, 25 products');

    const body = { productId: items[0].id, startTime: start, endTime: end, quantity: 1, totalPrice: 100, reference: 'RT-1' };
    const created = await post('/channel/v1/bookings', body, idem(key, 'rt-1'));
    expect(created.status, created.text).toBe(201);
    within(trips(created), { total: 4, operation: 3 }, 'channel booking');

    const replay = await post('/channel/v1/bookings', body, idem(key, 'rt-1'));
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body).toMatchObject({ bookingId: created.body.bookingId, idempotentReplay: true });
    within(trips(replay), { total: 2, operation: 1 }, 'channel booking replay');
  });

  it('month and day availability: <= 1 round trip, 0 when cached', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 2 });
    const month = atLocal(op.timezone, 30, '10:00').slice(0, 7);
    const date = atLocal(op.timezone, 30, '10:00').slice(0, 10);
    const monthPath = `/public/availability?inventoryId=${item.id}&locationId=${item.locationId}&month=${month}`;
    const dayPath = `/public/day-availability?inventoryId=${item.id}&locationId=${item.locationId}&date=${date}`;
    for (const path of [monthPath, dayPath]) {
      const first = await get(path);
      expect(first.status, first.text).toBe(200);
      within(trips(first), { total: 1 }, `${path} (cold)`);
      const second = await get(path);
      expect(second.status).toBe(200);
      expect(trips(second).total, `${path} (cached): ${trips(second).trace}`).toBe(0);
      expect(second.body).toEqual(first.body);
      // A client that must see the latest state asks for it: one round trip.
      const fresh = await api('GET', path, { headers: { 'cache-control': 'no-cache' } });
      expect(trips(fresh).total).toBe(1);
    }
  });

  it('concurrent requests for a cold view share one check: one round trip among them all', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 2 });
    const month = atLocal(op.timezone, 45, '10:00').slice(0, 7);
    const path = `/public/availability?inventoryId=${item.id}&locationId=${item.locationId}&month=${month}`;
    const all = await Promise.all(Array.from({ length: 6 }, () => get(path)));
    for (const r of all) expect(r.status, r.text).toBe(200);
    expect(all.reduce((n, r) => n + trips(r).total, 0)).toBe(1);
  });

  it('an authenticated read of one record: <= 2 with the API-key lookup; a revoked key is refused by the very next request', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 1 });
    const b = await post(
      '/coreBooking/book',
      bookBody({ inventoryId: item.id, startTime: atLocal(op.timezone, 4, '10:00'), endTime: atLocal(op.timezone, 4, '12:00') }),
      {
        key: op.adminKey,
      },
    );
    expect(b.status, b.text).toBe(201);
    const user = await op.addUser({ role: 'admin', permissions: ['admin'] });
    const read = await get(`/coreBooking/${b.body.rentalId}`, { key: user.key });
    expect(read.status, read.text).toBe(200);
    within(trips(read), { total: 2, operation: 1 }, 'GET /coreBooking/{id}');

    // Revoke the user's key with the admin key: the very next request with it is refused.
    const keys = await get('/api-keys', { key: op.adminKey });
    expect(keys.status, keys.text).toBe(200);
    const list = (keys.body.data ?? keys.body) as { id: string; userId?: string; createdBy?: string }[];
    const mine = list.find((k) => k.userId === user.userId || k.createdBy === user.userId);
    expect(mine, JSON.stringify(keys.body).slice(0, 400)).toBeDefined();
    expect((await del(`/api-keys/${mine!.id}`, undefined, { key: op.adminKey })).status).toBeLessThan(300);
    expectError(await get(`/coreBooking/${b.body.rentalId}`, { key: user.key }), 401, 'unauthenticated');
  });

  it('a rotated channel key is refused by the very next request', async () => {
    const op = await createOperator();
    const { key, connectionId } = await partnerKey(op);
    expect((await get('/channel/v1/me', ch(key))).status).toBe(200);
    const rotated = await post(`/channel-connections/${connectionId}/rotate-key`, { mode: 'live' }, { key: op.adminKey });
    expect(rotated.status, rotated.text).toBe(200);
    expectError(await get('/channel/v1/me', ch(key)), 401, 'invalid_api_key');
    const fresh = await get('/channel/v1/me', ch(rotated.body.key));
    expect(fresh.status, fresh.text).toBe(200);
    within(trips(fresh), { total: 1 }, 'GET /channel/v1/me');
  });

  it('a read of one record through the partner gateway: <= 2 with the OAuth token check; an uninstall is refused by the very next request', async () => {
    const op = await createOperator();
    const item = await bookingItem(op, { assets: 1 });
    const b = await post(
      '/coreBooking/book',
      bookBody({ inventoryId: item.id, startTime: atLocal(op.timezone, 4, '10:00'), endTime: atLocal(op.timezone, 4, '12:00') }),
      { key: op.adminKey },
    );
    expect(b.status, b.text).toBe(201);
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const t = await installAndToken(op, app, 'read:bookings read:locations');

    // The grant object's token check and the read of who the grant acts for are one round trip; the
    // installation's rate count runs in parallel with the read itself.
    const read = await get(`/api/v1/coreBooking/${b.body.rentalId}`, bearer(t.access_token));
    expect(read.status, read.text).toBe(200);
    expect(read.body.rentalId).toBe(b.body.rentalId);
    expect(read.headers.get('x-ratelimit-limit')).toBe('600');
    expect(read.headers.get('x-ratelimit-remaining')).toBe('599');
    within(trips(read), { total: 2, operation: 1 }, 'GET /api/v1/coreBooking/{id}');
    // Refusals by the gateway itself (scope) are counted too, in no more round trips.
    const denied = await get('/api/v1/renters', bearer(t.access_token));
    expectError(denied, 403, 'insufficient_scope');
    expect(denied.headers.get('x-ratelimit-remaining')).toBe('598');
    within(trips(denied), { total: 2 }, 'gateway scope refusal');

    // Uninstall: the very next request with the access token is refused.
    const un = await del(`/apps/installations/${t.installation_id}`, undefined, { key: op.adminKey });
    expect(un.status, un.text).toBe(200);
    expectError(await get(`/api/v1/coreBooking/${b.body.rentalId}`, bearer(t.access_token)), 401, 'unauthenticated');
  });

  it('a revoked access token is refused by the very next request, though the installation stays', async () => {
    const op = await createOperator();
    const partner = await registerPartner();
    const app = await createApp(partner);
    await approve(partner, app.appId);
    const t = await installAndToken(op, app, 'read:locations');
    const first = await get('/api/v1/location', bearer(t.access_token));
    expect(first.status, first.text).toBe(200);
    within(trips(first), { total: 2 }, 'GET /api/v1/location');
    const rev = await post('/oauth/revoke', { token: t.access_token, token_type_hint: 'access_token', client_id: app.appId, client_secret: app.clientSecret });
    expect(rev.status, rev.text).toBe(200);
    expectError(await get('/api/v1/location', bearer(t.access_token)), 401, 'unauthenticated');
    expect((await get(`/apps/installations/${t.installation_id}`, { key: op.adminKey })).body.status).toBe('active');
  });
});
