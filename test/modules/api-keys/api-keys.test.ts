import { describe, it, expect } from 'vitest';
import { createOperator, del, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';

describe('API keys', () => {
  it('creates a key shown once, lists without secrets, revokes instantly', async () => {
    const op = await createOperator();
    const c = await post('/api-keys', { name: 'Zapier' }, { key: op.adminKey });
    expect(c.status).toBe(201);
    expect(c.body.key).toMatch(/^brk_/);
    expect((await get('/customer', { key: c.body.key })).status).toBe(200);
    const list = await get('/api-keys', { key: op.adminKey });
    expect(list.body.data.find((k: any) => k.id === c.body.id).key).toBeUndefined();
    const r = await del(`/api-keys/${c.body.id}`, undefined, { key: op.adminKey });
    expect(r.body.revokedAt).toBeTruthy();
    expectError(await get('/customer', { key: c.body.key }), 401);
    await checkSecurity(op, { method: 'POST', path: '/api-keys', body: { name: 'x' }, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: '/api-keys', adminOnly: true });
    await checkSecurity(op, { method: 'DELETE', path: `/api-keys/${c.body.id}`, otherStatus: 404, adminOnly: true });
  });
});
