import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, del, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';
import { seedSandbox } from '../../../src/seed';

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

describe('Message outbox', () => {
  it("lists the operator's messages only", async () => {
    const op = await createOperator();
    const u = await op.addUser();
    await post(`/userManagement/${u.userId}/resend-invitation`, {}, { key: op.adminKey });
    const r = await get('/outbox/messages?channel=email', { key: op.adminKey });
    expect(r.body.data.map((m: any) => m.to)).toContain(u.email);
    const other = await createOperator();
    expect((await get('/outbox/messages', { key: other.adminKey })).body.data.map((m: any) => m.to)).not.toContain(u.email);
    await checkSecurity(op, { method: 'GET', path: '/outbox/messages' });
  });
});

describe('Sandbox seed', () => {
  it('is idempotent and makes the demo keys work', async () => {
    await seedSandbox(env);
    await seedSandbox(env);
    const demo = await get('/customer', { key: env.DEMO_API_KEY });
    expect(demo.body).toMatchObject({ customerId: 'cus_demo_marina', name: 'Demo Marina', plan: 'enterprise', isSandbox: true });
    const locs = await get('/location', { key: env.DEMO_API_KEY });
    expect(locs.body.data.map((l: any) => l.timezone).sort()).toEqual(['America/New_York', 'Europe/Berlin']);
    const other = await get('/customer', { key: env.OTHER_API_KEY });
    expect(other.body.customerId).toBe('cus_other_rentals');
    expectError(await get('/location?inventoryId=x', { key: env.OTHER_API_KEY }), 404);
    const users = await get('/userManagement', { key: env.DEMO_API_KEY });
    expect(users.body.data.flatMap((u: any) => u.userSkills)).toEqual(expect.arrayContaining(['captain', 'coach']));
  });
});
