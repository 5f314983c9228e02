import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { advanceClock, createOperator, db, del, eventually, expectError, get, post } from '../../harness';
import { testClocks } from '../../../src/db/schema/sandbox';
import { checkSecurity } from '../../security';

const DAY = 86_400_000;

describe('Sandbox test clocks', () => {
  it('creates a clock with a private operator seeded as of the clock, whose "now" is the clock', async () => {
    const sandbox = await createOperator({ sandbox: true });
    const frozenTime = '2027-02-10T14:30:00.000Z';
    const r = await post('/sandbox/test-clocks', { frozenTime: '2027-02-10T09:30:00-05:00', name: 'February' }, { key: sandbox.adminKey });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ object: 'test_clock', name: 'February', status: 'ready', frozenTime, targetTime: null, failure: null });
    expect(r.body.id).toMatch(/^clk_/);
    expect(r.body.customerId).toMatch(/^cus_tclk_/);
    expect(r.body.apiKey).toMatch(/^brk_/);

    // The private operator: a sandbox operator with the demo data, stamped with the clock's time.
    const key = r.body.apiKey;
    const me = await get('/customer', { key });
    expect(me.body).toMatchObject({ customerId: r.body.customerId, isSandbox: true });
    expect(me.body.createdAt).toBe(frozenTime);
    const locs = await get('/location', { key });
    expect(locs.body.data.map((l: any) => l.timezone).sort()).toEqual(['America/New_York', 'Europe/Berlin']);
    // A record written now is written at the clock's time.
    const renter = await post(
      '/renters',
      { customerId: r.body.customerId, firstName: 'Clock', lastName: 'Renter', email: 'clock.renter@example.test', address: '1 Pier Rd' },
      { key },
    );
    expect(renter.status, renter.text).toBe(201);
    expect((await get(`/renters/${renter.body.id}`, { key })).body.createdAt).toBe(frozenTime);

    // Both the creator and the clock's own operator see the clock; nobody else does.
    expect((await get(`/sandbox/test-clocks/${r.body.id}`, { key: sandbox.adminKey })).body.id).toBe(r.body.id);
    expect((await get(`/sandbox/test-clocks/${r.body.id}`, { key })).body.id).toBe(r.body.id);
    const list = await get('/sandbox/test-clocks', { key: sandbox.adminKey });
    expect(list.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(list.body.data[0]).not.toHaveProperty('apiKey');
    const stranger = await createOperator({ sandbox: true });
    expectError(await get(`/sandbox/test-clocks/${r.body.id}`, { key: stranger.adminKey }), 404, 'not_found');
    expectError(await post(`/sandbox/test-clocks/${r.body.id}/advance`, { frozenTime: '2027-03-01T00:00:00Z' }, { key: stranger.adminKey }), 404);
    expectError(await del(`/sandbox/test-clocks/${r.body.id}`, undefined, { key: stranger.adminKey }), 404);
    expect((await get('/sandbox/test-clocks', { key: stranger.adminKey })).body.total).toBe(0);
  });

  it('advances: advancing, then ready at the new time; errors for the past, more than two years, a live key, a clock still advancing', async () => {
    const op = await createOperator({ clockAt: '2027-05-01T12:00:00Z' });
    const id = op.clockId!;
    const key = op.adminKey;
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: '2027-04-30T12:00:00Z' }, { key }), 400, 'invalid_time');
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: '2027-05-01T12:00:00Z' }, { key }), 400, 'invalid_time');
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: '2029-05-01T12:00:01Z' }, { key }), 400, 'invalid_time');
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: 'tomorrow' }, { key }), 400, 'validation_failed');
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, {}, { key }), 400, 'validation_failed');
    expectError(await post(`/sandbox/test-clocks/clk_unknown/advance`, { frozenTime: '2027-06-01T00:00:00Z' }, { key }), 404, 'not_found');

    const started = await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: '2027-05-03T12:00:00Z' }, { key });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: 'advancing', targetTime: '2027-05-03T12:00:00.000Z' });
    const done = await eventually(async () => {
      const c = await get(`/sandbox/test-clocks/${id}`, { key });
      return c.body.status === 'ready' ? c.body : undefined;
    }, 30_000);
    expect(done).toMatchObject({ frozenTime: '2027-05-03T12:00:00.000Z', targetTime: null, failure: null });
    expect(done.progress.steps).toBeGreaterThan(0);
    // The operator's requests now read the new time.
    const renter = await post(
      '/renters',
      { customerId: op.customerId, firstName: 'Later', lastName: 'Renter', email: 'later@example.test', address: '1 Pier Rd' },
      { key },
    );
    expect(renter.status, renter.text).toBe(201);
    expect((await get(`/renters/${renter.body.id}`, { key })).body.createdAt).toBe('2027-05-03T12:00:00.000Z');

    // A clock still advancing refuses another advance.
    await db().update(testClocks).set({ status: 'advancing', targetTime: '2027-05-04T00:00:00.000Z' }).where(eq(testClocks.id, id));
    expectError(await post(`/sandbox/test-clocks/${id}/advance`, { frozenTime: '2027-05-05T12:00:00Z' }, { key }), 409, 'clock_advancing');
    await db().update(testClocks).set({ status: 'ready', targetTime: null }).where(eq(testClocks.id, id));
    const next = await advanceClock(id, '2027-05-05T12:00:00Z', key);
    expect(next).toMatchObject({ status: 'ready', frozenTime: '2027-05-05T12:00:00.000Z' });

    // A live operator's admin key: 403 not_sandbox, on every route.
    const live = await createOperator();
    for (const [m, p, b] of [
      ['POST', '/sandbox/test-clocks', { frozenTime: '2027-01-01T00:00:00Z' }],
      ['GET', '/sandbox/test-clocks', undefined],
      ['GET', `/sandbox/test-clocks/${id}`, undefined],
      ['POST', `/sandbox/test-clocks/${id}/advance`, { frozenTime: '2027-06-01T00:00:00Z' }],
      ['DELETE', `/sandbox/test-clocks/${id}`, undefined],
    ] as const) {
      const r =
        m === 'GET'
          ? await get(p, { key: live.adminKey })
          : m === 'DELETE'
            ? await del(p, undefined, { key: live.adminKey })
            : await post(p, b, { key: live.adminKey });
      expectError(r, 403, 'not_sandbox');
    }
  });

  it('refuses a frozen time more than two years away and bad input at creation; staff and anonymous callers', async () => {
    const sandbox = await createOperator({ sandbox: true, clockAt: '2027-01-01T00:00:00Z' });
    const key = sandbox.adminKey;
    expectError(await post('/sandbox/test-clocks', { frozenTime: '2029-01-02T00:00:00Z' }, { key }), 400, 'invalid_time');
    expectError(await post('/sandbox/test-clocks', { frozenTime: '2024-12-31T00:00:00Z' }, { key }), 400, 'invalid_time');
    expectError(await post('/sandbox/test-clocks', { frozenTime: '2027-01-01T00:00:00' }, { key }), 400, 'validation_failed');
    expectError(await post('/sandbox/test-clocks', { frozenTime: '2027-01-01T00:00:00Z', extra: 1 }, { key }), 400, 'validation_failed');
    expectError(await post('/sandbox/test-clocks', { frozenTime: '2027-01-01T00:00:00Z', name: '' }, { key }), 400, 'validation_failed');
    await checkSecurity(sandbox, {
      method: 'POST',
      path: '/sandbox/test-clocks',
      body: { frozenTime: '2027-01-01T00:00:00Z' },
      adminOnly: true,
      otherStatus: 403,
    });
    await checkSecurity(sandbox, { method: 'GET', path: `/sandbox/test-clocks/${sandbox.clockId}`, adminOnly: true, otherStatus: 403 });
    await checkSecurity(sandbox, { method: 'GET', path: '/sandbox/test-clocks', adminOnly: true });
  });

  it('deletes the clock and its operator: the key stops working, the clock answers 404', async () => {
    const sandbox = await createOperator({ sandbox: true });
    const c = await post('/sandbox/test-clocks', { frozenTime: new Date(Date.now() + 30 * DAY).toISOString() }, { key: sandbox.adminKey });
    expect(c.status, c.text).toBe(201);
    expect((await get('/customer', { key: c.body.apiKey })).status).toBe(200);
    const d = await del(`/sandbox/test-clocks/${c.body.id}`, undefined, { key: sandbox.adminKey });
    expect(d.body).toEqual({ id: c.body.id, object: 'test_clock', deleted: true });
    expectError(await get('/customer', { key: c.body.apiKey }), 401, 'unauthenticated');
    expectError(await get(`/sandbox/test-clocks/${c.body.id}`, { key: sandbox.adminKey }), 404);
    expect((await get('/sandbox/test-clocks', { key: sandbox.adminKey })).body.total).toBe(0);
  });
});
