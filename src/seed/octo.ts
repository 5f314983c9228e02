import { inArray } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { systemCtx } from '../lib/context';
import { inventoryItems } from '../db/schema/inventory';
import { octoSettings } from '../db/schema/octo';
import { InventoryData, type InventoryDataInput } from '../modules/inventory/types';
import { reorderInventory, setupInventory } from '../modules/inventory/service';
import { putSettings } from '../modules/octo/service';

const DEMO = SEED.demo;

/** The sandbox's OCTO showcase: a shared harbor cruise (seats by fare tier) and kayaks rented by the day (an OPENING_HOURS product). */
export const DEMO_OCTO_ITEMS = { harborCruise: 'inv_demo_harbor_cruise', kayak: 'inv_demo_kayak_day' } as const;

const EVERY_DAY = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const FLORIDA_TAX = { taxId: 'fl_sales_tax', name: 'Florida sales tax', rate: 7, appliesTo: 'all' as const };

function items(): { id: string; assets?: number; data: InventoryDataInput }[] {
  return [
    {
      id: DEMO_OCTO_ITEMS.harborCruise,
      data: {
        name: 'Harbor Sightseeing Cruise',
        type: 'tour',
        locationId: DEMO.miamiId,
        description: 'Ninety minutes around Biscayne Bay, the Port of Miami and Millionaires Row, with live commentary. Shared cruise, 80 seats.',
        category: 'Tour',
        capacity: 80,
        currency: 'usd',
        timeSlots: ['09:00', '11:00', '13:00', '15:00'].map((time) => ({ slotId: `hc_${time.slice(0, 2)}`, time, durationMinutes: 90 })),
        minimumNoticeHours: 2,
        tourPricing: {
          priceTiers: [
            { tierId: 'adult', name: 'Adult', price: 39, isStandard: true, minAge: 13, maxAge: 64 },
            { tierId: 'child', name: 'Child', price: 24, minAge: 3, maxAge: 12 },
            { tierId: 'senior', name: 'Senior', price: 34, minAge: 65 },
            { tierId: 'infant', name: 'Infant (on lap)', price: 0, minAge: 0, maxAge: 2, seats: 0 },
          ],
          minParticipants: 1,
        },
        taxes: [FLORIDA_TAX],
      },
    },
    {
      id: DEMO_OCTO_ITEMS.kayak,
      assets: 12,
      data: {
        name: 'Kayak Day Rental',
        type: 'rental',
        locationId: DEMO.miamiId,
        description: 'A sit-on-top kayak with paddle and life jacket for the day, launched from our beach.',
        category: 'Kayak',
        capacity: 1,
        currency: 'usd',
        fullDayOnly: true,
        operatingHours: Object.fromEntries(EVERY_DAY.map((d) => [d, { open: '08:00', close: '18:00' }])),
        minimumNoticeHours: 2,
        seasons: [
          {
            seasonId: 'kayak_all_year',
            name: 'All year',
            dailyPrices: Object.fromEntries(EVERY_DAY.map((d) => [d, d === 'Saturday' || d === 'Sunday' ? 70 : 60])),
          },
        ],
        taxes: [FLORIDA_TAX],
      },
    },
  ];
}

/**
 * OCTO in the sandbox: the two showcase items (the cruise listed first, so an OCTO certification
 * run books a departure with room for all its test reservations) and Demo Marina's OCTO
 * cancellation policy (1 hour before the start). The sandbox reseller's test key
 * (DEMO_CHANNEL_TEST_KEY) sells them on /octo/v1. Idempotent.
 */
async function seedOcto(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const all = items();
  const existing = new Set(
    (
      await db
        .select({ id: inventoryItems.id })
        .from(inventoryItems)
        .where(
          inArray(
            inventoryItems.id,
            all.map((i) => i.id),
          ),
        )
        .all()
    ).map((r) => r.id),
  );
  const ctx = systemCtx(env, { customerId: DEMO.customerId, requestId: 'seed_octo' });
  let wrote = false;
  for (const item of all) {
    if (existing.has(item.id)) continue;
    const data = InventoryData.parse({
      ...item.data,
      ...(item.assets ? { assets: Array.from({ length: item.assets }, (_, i) => ({ assetId: `${item.id}_${i + 1}`, name: `Kayak #${i + 1}` })) } : {}),
    });
    await setupInventory(ctx, { data, inventory_id: item.id }, { fixedIds: true });
    wrote = true;
  }
  if (!existing.has(DEMO_OCTO_ITEMS.harborCruise)) await reorderInventory(ctx, { orderedBoats: [DEMO_OCTO_ITEMS.harborCruise] });
  const settings = await db
    .select()
    .from(octoSettings)
    .where(inArray(octoSettings.customerId, [DEMO.customerId]))
    .get();
  if (!settings) {
    await putSettings(ctx, { cancellationCutoffHours: 1 });
    wrote = true;
  }
  return wrote;
}

export const octoSeed: SeedStep = { name: 'octo', run: seedOcto };
