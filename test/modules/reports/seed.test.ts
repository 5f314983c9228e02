/** The counter gift-card seed step: idempotent, and the reports show the cards as liability, not revenue. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { get } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';
import { MIAMI_TZ } from '../../../src/seed/types';
import { localDate } from '../../../src/lib/time';

describe('gift cards at the counter seed', () => {
  it('sells DOCK-GIFT-75 and reloads it once; the sales journal of that day shows 100.00 of gift cards sold', async () => {
    const steps = SEED_STEPS.filter((s) => ['accounts', 'pos', 'promo-codes', 'gift-cards'].includes(s.name));
    expect(steps).toHaveLength(4);
    for (const s of steps) await s.run(env);
    expect(await steps[3].run(env)).toBe(false);
    const key = { key: env.DEMO_API_KEY };
    const card = await get('/promoGiftCards/balance?promoCode=dock-gift-75', key);
    expect(card.body).toMatchObject({ balance: 100, active: true });
    expect(card.body.entries.map((e: any) => [e.kind, e.amount]).sort()).toEqual([
      ['purchase', 25],
      ['purchase', 75],
    ]);
    const sales = await get(`/pos/transaction?locationId=${SEED.demo.miamiId}`, key);
    const sold = sales.body.data.filter((t: any) => t.items.some((l: any) => l.giftCard?.code === 'DOCK-GIFT-75'));
    expect(sold).toHaveLength(2);
    // The days the seed sold them (Miami's dates of the sales), whatever day the test runs.
    const days = sold.map((t: any) => localDate(Date.parse(t.createdAt), MIAMI_TZ)).sort();
    const r = await get(`/reports/sales-journal?locationId=${SEED.demo.miamiId}&from=${days[0]}&to=${days[1]}`, key);
    expect(r.status, r.text).toBe(200);
    expect(r.body.totals.giftCardsSoldCents).toBeGreaterThanOrEqual(10000);
    expect(r.body.giftCardLiability.liabilityCents).toBeGreaterThanOrEqual(10000);
  });
});
