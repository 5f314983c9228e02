import { describe, it, expect } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { get } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';
import { DEMO_ASSETS, DEMO_INVENTORY } from '../../../src/seed/inventory';

async function runSteps() {
  const out: Record<string, boolean> = {};
  for (const step of SEED_STEPS.filter((s) => s.name === 'accounts' || s.name === 'inventory')) out[step.name] = await step.run(env);
  return out;
}

describe('sandbox seed: inventory', () => {
  it('creates the Demo Marina items with fixed ids, idempotently', async () => {
    await runSteps();
    const again = await runSteps();
    expect(again.inventory).toBe(false);
    const key = env.DEMO_API_KEY!;
    const r = await get(`/inventory/customer?customer_id=${SEED.demo.customerId}`, { key });
    expect(r.status, r.text).toBe(200);
    const byId = Object.fromEntries(r.body.data.map((i: any) => [i.inventory_id, i]));
    for (const id of Object.values(DEMO_INVENTORY)) expect(byId[id], id).toBeDefined();

    const cc = byId[DEMO_INVENTORY.centerConsole];
    // Version 2: the item, then its photo (drawn in code, stored with its variants).
    expect(cc).toMatchObject({ kind: 'rental', locationId: SEED.demo.miamiId, timezone: 'America/New_York', version: 2 });
    expect(cc.data.images).toHaveLength(1);
    expect(cc.data.images[0]).toMatch(new RegExp(`/inventory/photos/${SEED.demo.customerId}/${DEMO_INVENTORY.centerConsole}/[0-9a-z]{26}-720x540/w720\\.jpg$`));
    const photo = await SELF.fetch(cc.data.images[0].replace(/w720\.jpg$/, 'w320.jpg'));
    expect([photo.status, photo.headers.get('content-type'), photo.headers.get('x-photo-height')]).toEqual([200, 'image/jpeg', '240']);
    await photo.arrayBuffer();
    expect(cc.assets.map((a: any) => a.assetId)).toEqual([...DEMO_ASSETS.centerConsole]);
    expect(cc.data.seasons).toHaveLength(2);
    expect(cc.data.seasons[0].hourlyPrices.Monday).toMatchObject({ basePrice: 125, minimumHours: 2, maximumHours: 8 });
    expect(cc.data.taxes[0]).toMatchObject({ name: 'Florida sales tax', rate: 7 });

    expect(byId[DEMO_INVENTORY.pontoon].assets.map((a: any) => a.assetId)).toEqual([...DEMO_ASSETS.pontoon]);
    const hh = byId[DEMO_INVENTORY.sailboatHamburg];
    expect(hh).toMatchObject({ locationId: SEED.demo.hamburgId, timezone: 'Europe/Berlin' });
    expect(hh.data.currency).toBe('eur');

    const tour = byId[DEMO_INVENTORY.dolphinTour];
    expect(tour).toMatchObject({ kind: 'tour', assets: [] });
    expect(tour.data.capacity).toBe(12);
    expect(tour.data.timeSlots.map((s: any) => s.time)).toEqual(['10:00', '18:00']);
    expect(tour.data.tourPricing).toMatchObject({ minParticipants: 2, privatePricing: { basePrice: 650, baseHeadcount: 6 } });
    expect(tour.data.tourPricing.priceTiers.map((t: any) => t.name)).toEqual(['Adult', 'Child', 'Infant (on lap)']);

    const pricing = await get(`/inventory-pricing?inventory_id=${DEMO_INVENTORY.pontoon}`, { key });
    expect(pricing.body.data.hourlyPrices.Saturday).toMatchObject({ basePrice: 110 });
    // The other operator sees none of it.
    const other = await get(`/inventory-pricing?inventory_id=${DEMO_INVENTORY.pontoon}`, { key: env.OTHER_API_KEY! });
    expect(other.status).toBe(404);
  });
});
