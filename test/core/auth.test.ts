import { describe, it, expect } from 'vitest';
import { SignJWT, generateKeyPair, exportJWK } from 'jose';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, signToken, db } from '../harness';
import { users } from '../../src/db/schema/accounts';

describe('authentication', () => {
  it('accepts an API key and refuses missing or unknown ones with 401', async () => {
    const op = await createOperator();
    expect((await get('/customer', { key: op.adminKey })).status).toBe(200);
    expectError(await get('/customer'), 401, 'unauthenticated');
    expectError(await get('/customer', { key: 'brk_wrongwrongwrongwrongwrongwrongwrongwrong' }), 401, 'unauthenticated');
    expectError(await get('/customer', { key: 'short' }), 401, 'unauthenticated');
  });

  it('accepts a valid bearer token of a known user', async () => {
    const op = await createOperator();
    const token = await signToken({ sub: `test|${op.adminId}` });
    const r = await get('/user', { token });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(op.adminId);
  });

  it('refuses expired tokens, wrong issuer or audience, wrong secret and malformed headers', async () => {
    const op = await createOperator();
    const sub = `test|${op.adminId}`;
    expectError(await get('/user', { token: await signToken({ sub }, { expiresIn: '-10m' }) }), 401);
    expectError(await get('/user', { token: await signToken({ sub }, { issuer: 'https://evil.example/' }) }), 401);
    expectError(await get('/user', { token: await signToken({ sub }, { audience: 'other-api' }) }), 401);
    expectError(await get('/user', { token: await signToken({ sub }, { secret: 'not-the-secret-not-the-secret-123' }) }), 401);
    expectError(await get('/user', { headers: { authorization: 'Basic abc' } }), 401);
    expectError(await get('/user', { token: 'not.a.jwt' }), 401);
  });

  it('refuses unsigned tokens (alg none)', async () => {
    const op = await createOperator();
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: `test|${op.adminId}`, iss: env.JWT_ISSUER, aud: env.JWT_AUDIENCE, iat: now, exp: now + 600 })}.`;
    expectError(await get('/user', { token: unsigned }), 401, 'unauthenticated');
  });

  it('refuses tokens signed with an algorithm outside the allow-list (algorithm confusion)', async () => {
    const op = await createOperator();
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(`test|${op.adminId}`)
      .setIssuer(env.JWT_ISSUER)
      .setAudience(env.JWT_AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
    expectError(await get('/user', { token: rs }), 401, 'unauthenticated');
    const hs512 = await signToken({ sub: `test|${op.adminId}` }, { alg: 'HS512' });
    expectError(await get('/user', { token: hs512 }), 401, 'unauthenticated');
    void exportJWK;
  });

  it('lets a signed-in identity without an account create one, and only once', async () => {
    const sub = `idp|${crypto.randomUUID()}`;
    const email = `founder-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const token = await signToken({ sub, email, name: 'Founder' });
    expectError(await get('/customer', { token }), 404, 'not_found');
    const created = await post('/customer', { name: 'New Charters', business_name: 'New Charters LLC' }, { token });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('New Charters');
    expect(created.body.paymentCustomerId).toMatch(/^cus_sim_/);
    const me = await get('/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('admin');
    expect(me.body.customerId).toBe(created.body.customerId);
    const again = await post('/customer', { name: 'Second' }, { token });
    expectError(again, 409, 'already_exists');
    const row = await db().select().from(users).all();
    expect(row.filter((u) => u.idpSubject === sub)).toHaveLength(1);
  });

  it('carries the permissions of the user who created the key: staff keys cannot do admin work', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    expectError(await get(`/user/${op.adminId}/audit-logs`, { key: staff.key }), 403, 'forbidden');
    expect((await get(`/user/${op.adminId}/audit-logs`, { key: op.adminKey })).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('counts per credential per minute: the 101st request on the standard plan is 429 with Retry-After', async () => {
    // A new key: its first request opens its own one-minute window (durable-objects/rate-limiter.ts), so no wait.
    const op = await createOperator({ plan: 'standard' });
    const other = await op.addUser({ role: 'admin' });
    const first = await get('/customer', { key: op.adminKey });
    expect(first.headers.get('x-ratelimit-limit')).toBe('100');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const rest = await Promise.all(Array.from({ length: 99 }, () => get('/customer', { key: op.adminKey })));
    expect(rest.every((r) => r.status === 200)).toBe(true);
    const remaining = rest.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining[0]).toBe(0);
    expect(new Set(remaining).size).toBe(99);
    const over = await get('/customer', { key: op.adminKey });
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another credential of the same operator has its own bucket.
    expect((await get('/customer', { key: other.key })).status).toBe(200);
  });

  it('gives the enterprise plan 500 per minute', async () => {
    const op = await createOperator({ plan: 'enterprise' });
    const r = await get('/customer', { key: op.adminKey });
    expect(r.headers.get('x-ratelimit-limit')).toBe('500');
  });
});
