/**
 * Roles are one model, tokens carry an expiry, platform staff have no operator account (issue 28,
 * items 3, 7 and 8): each hole as a test through HTTP.
 */
import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, patch, post, signToken, type Operator } from '../harness';

type Role = 'admin' | 'manager' | 'staff';
const ROLES: Role[] = ['admin', 'manager', 'staff'];
const TRANSITIONS = ROLES.flatMap((from) => ROLES.filter((to) => to !== from).map((to) => [from, to] as const));
const newEmail = () => `u-${crypto.randomUUID().slice(0, 8)}@example.test`;

/** What the user's key and bearer token may do on the next request: list webhooks and create users are admin work. */
async function reach(op: Operator, user: { userId: string; key: string }) {
  const token = await signToken({ sub: `test|${user.userId}` });
  const out: number[] = [];
  for (const c of [{ key: user.key }, { token }]) {
    out.push((await get('/webhooks', c)).status);
    out.push((await post('/userManagement', { email: newEmail(), customerId: op.customerId, name: 'Made by' }, c)).status);
  }
  return out;
}

describe('roles and permissions are one model', () => {
  it.each(TRANSITIONS)('%s -> %s: role and permissions change together and apply to the next request of every key and token', async (from, to) => {
    const op = await createOperator();
    const user = await op.addUser({ role: from, permissions: from === 'admin' ? ['admin', 'reports'] : ['reports'] });
    // Before: only an admin does admin work (the key and a bearer token alike).
    expect(await reach(op, user)).toEqual(from === 'admin' ? [200, 201, 200, 201] : [403, 403, 403, 403]);
    const r = await patch('/userManagement', { id: user.userId, userRole: to }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    // The admin permission follows the role; the other grants stay.
    expect(r.body.role).toBe(to);
    expect([...r.body.permissions].sort()).toEqual(to === 'admin' ? ['admin', 'reports'] : ['reports']);
    expect((await get('/user', { key: user.key })).body).toMatchObject({ role: to });
    expect(await reach(op, user)).toEqual(to === 'admin' ? [200, 201, 200, 201] : [403, 403, 403, 403]);
  });

  it('refuses the admin permission on a manager or staff member (a promotion is a role change); a row written before keeps no admin', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    expectError(await patch('/userManagement', { id: staff.userId, permissions: ['admin'] }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(
      await patch('/userManagement', { id: staff.userId, userRole: 'manager', permissions: ['admin'] }, { key: op.adminKey }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/userManagement', { email: newEmail(), customerId: op.customerId, name: 'x', role: 'staff', permissions: ['admin'] }, { key: op.adminKey }),
      400,
    );
    // A staff row that still says "admin" among its permissions (written before the one model) is read without it.
    const legacy = await op.addUser({ role: 'staff', permissions: ['admin'] });
    expect(await reach(op, legacy)).toEqual([403, 403, 403, 403]);
    expect((await get('/user', { key: legacy.key })).body.permissions).not.toContain('admin');
  });
});

describe('bearer tokens', () => {
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(env.JWT_ISSUER!)
      .setAudience(env.JWT_AUDIENCE!)
      .sign(new TextEncoder().encode(env.JWT_SECRET));

  it('must carry exp, at most 24 hours after issue', async () => {
    const op = await createOperator();
    const sub = `test|${op.adminId}`;
    const now = Math.floor(Date.now() / 1000);
    expectError(await get('/user', { token: await sign({ sub, iat: now }) }), 401, 'unauthenticated');
    expectError(await get('/user', { token: await sign({ sub, iat: now, exp: now + 48 * 3600 }) }), 401, 'unauthenticated');
    expectError(await get('/user', { token: await sign({ sub, exp: now + 10 * 365 * 86400 }) }), 401, 'unauthenticated');
    expect((await get('/user', { token: await sign({ sub, iat: now, exp: now + 24 * 3600 }) })).status).toBe(200);
    expect((await get('/user', { token: await signToken({ sub }, { expiresIn: '1h' }) })).status).toBe(200);
  });
});

describe("Berth's platform staff on operator routes", () => {
  it('answer 403 no_account, as /docs says', async () => {
    const platform = { headers: { 'x-platform-key': env.PLATFORM_API_KEY! } };
    expectError(await get('/customer', platform), 403, 'no_account');
    expectError(await get('/user', platform), 403, 'no_account');
  });
});
