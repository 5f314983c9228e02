/**
 * The key's rate-limiter object holds the key's row (src/lib/credentials.ts): one call authenticates.
 * Each test warms that object with requests first, then changes what the row is made of through
 * the API, and proves the very next request sees the change.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, del, eventually, expectError, get, patch, post, signToken } from '../../harness';

const warm = async (key: string, path = '/customer') => {
  for (let i = 0; i < 3; i++) expect((await get(path, { key })).status).toBe(200);
};

describe('API keys held by their rate-limiter object', () => {
  it("a role change reaches the user's key at once (admin → staff → admin)", async () => {
    const op = await createOperator();
    const user = await op.addUser({ role: 'admin', permissions: ['admin'] });
    await warm(user.key, '/api-keys');
    const down = await patch('/userManagement', { id: user.userId, userRole: 'staff', permissions: [] }, { key: op.adminKey });
    expect(down.status, down.text).toBe(200);
    expectError(await get('/api-keys', { key: user.key }), 403);
    expect((await get('/customer', { key: user.key })).status).toBe(200);
    const up = await patch('/userManagement', { id: user.userId, userRole: 'admin', permissions: ['admin'] }, { key: op.adminKey });
    expect(up.status, up.text).toBe(200);
    expect((await get('/api-keys', { key: user.key })).status).toBe(200);
  });

  it("deleting a user stops their key at once; another operator's user answers 404 and leaves its key working", async () => {
    const op = await createOperator();
    const other = await createOperator();
    const user = await op.addUser({ role: 'staff' });
    const foreign = await other.addUser({ role: 'staff' });
    await warm(user.key);
    await warm(foreign.key);
    expectError(await del('/userManagement', { id: foreign.userId }, { key: op.adminKey }), 404);
    expect((await get('/customer', { key: foreign.key })).status).toBe(200);
    const gone = await del('/userManagement', { id: user.userId }, { key: op.adminKey });
    expect(gone.status, gone.text).toBe(200);
    expectError(await get('/customer', { key: user.key }), 401, 'unauthenticated');
  });

  it("a plan change reaches every key's rate limit at once", async () => {
    const token = await signToken({ sub: `idp|${crypto.randomUUID()}`, email: `plan-${crypto.randomUUID().slice(0, 6)}@example.test` });
    expect((await post('/customer', { name: 'Held Plan Co' }, { token })).status).toBe(201);
    expect((await post('/customer/payment-method', { paymentMethodId: 'pm_card_visa' }, { token })).status).toBe(200);
    const key = await post('/api-keys', { name: 'held' }, { token });
    expect(key.status, key.text).toBe(201);
    await warm(key.body.key);
    expect((await get('/customer', { key: key.body.key })).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await patch('/customer', { plan: 'enterprise' }, { token })).status).toBe(200);
    expect((await get('/customer', { key: key.body.key })).headers.get('x-ratelimit-limit')).toBe('500');
  });

  it('revoking a warmed key refuses it at once while the other keys keep working; a wrong key stays 401', async () => {
    const op = await createOperator();
    const a = await post('/api-keys', { name: 'a' }, { key: op.adminKey });
    const b = await post('/api-keys', { name: 'b' }, { key: op.adminKey });
    await warm(a.body.key);
    await warm(b.body.key);
    expect((await del(`/api-keys/${a.body.id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get('/customer', { key: a.body.key }), 401, 'unauthenticated');
    expect((await get('/customer', { key: b.body.key })).status).toBe(200);
    expectError(await get('/customer', { key: `${b.body.key.slice(0, -4)}zzzz` }), 401, 'unauthenticated');
    expectError(await get('/customer'), 401);
  });

  it("records a key's last use once the object answers it (after the response), and again only after five minutes", async () => {
    const op = await createOperator();
    const k = await post('/api-keys', { name: 'used' }, { key: op.adminKey });
    expect(k.status, k.text).toBe(201);
    expect(k.body.lastUsedAt).toBeNull();
    await warm(k.body.key);
    const used = await eventually(async () => {
      const list = await get('/api-keys', { key: op.adminKey });
      return list.body.data.find((x: { id: string; lastUsedAt: string | null }) => x.id === k.body.id)?.lastUsedAt;
    });
    expect(Date.now() - Date.parse(used)).toBeLessThan(60_000);
    await warm(k.body.key);
    const list = await get('/api-keys', { key: op.adminKey });
    expect(list.body.data.find((x: { id: string }) => x.id === k.body.id).lastUsedAt).toBe(used);
  });
});
