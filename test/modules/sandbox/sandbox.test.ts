import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { expectError, get } from '../../harness';
import { seedSandbox } from '../../../src/seed';

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
