/** The counter-sales seed steps: idempotent, and the sandbox shows them through the API. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { get } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';

describe('counter sales seed', () => {
  it('seeds the fuel item, promo codes and protection settings once', async () => {
    const steps = SEED_STEPS.filter((s) => ['accounts', 'pos', 'promo-codes', 'protection-plans'].includes(s.name));
    expect(steps).toHaveLength(4);
    for (const s of steps) await s.run(env);
    for (const s of steps.slice(1)) expect(await s.run(env), s.name).toBe(false);
    const key = { key: env.DEMO_API_KEY };
    expect((await get(`/pos/gas-price?locationId=${SEED.demo.miamiId}`, key)).body).toMatchObject({ price: 5.49, unit: 'gallon' });
    expect((await get('/promoGiftCards/balance?promoCode=demo-gift-50', key)).body).toMatchObject({ balance: 50 });
    const s = await get(`/api/v2/locations/${SEED.demo.miamiId}/protection-settings`, key);
    expect(s.body).toMatchObject({ isDefault: false, planOverrides: { MARINE_DAMAGE_WAIVER: { percentage: 10, maxCap: 200 } } });
  });
});
