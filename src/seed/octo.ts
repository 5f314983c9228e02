import { and, eq, inArray } from 'drizzle-orm';
import type { Env } from '../env';
import { DEMO_OPERATOR, SEED, demoId, type DemoOperator, type OperatorSeedStep, type SeedStep } from './types';
import { systemCtx, type Ctx } from '../lib/context';
import { inventoryItems } from '../db/schema/inventory';
import { octoSettings } from '../db/schema/octo';
import { InventoryData, type InventoryDataInput } from '../modules/inventory/types';
import { reorderInventory, setupInventory } from '../modules/inventory/service';
import { seedPhoto, type Scene } from './photos';
import { putSettings } from '../modules/octo/service';

/** The ids of an operator's OCTO showcase: a shared harbor cruise (seats by fare tier) and kayaks rented by the day (an OPENING_HOURS product). */
export const octoItemIds = (op: { tag: string }) => ({ harborCruise: demoId(op, 'inv', 'harbor_cruise'), kayak: demoId(op, 'inv', 'kayak_day') });

/** Demo Marina's OCTO showcase (`inv_demo_harbor_cruise`, `inv_demo_kayak_day`). */
export const DEMO_OCTO_ITEMS = octoItemIds(DEMO_OPERATOR);

const EVERY_DAY = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const FLORIDA_TAX = { taxId: 'fl_sales_tax', name: 'Florida sales tax', rate: 7, appliesTo: 'all' as const };

function items(op: DemoOperator): { id: string; assets?: number; scene: Scene; data: InventoryDataInput }[] {
  const ids = octoItemIds(op);
  return [
    {
      id: ids.harborCruise,
      scene: 'cruise',
      data: {
        name: 'Harbor Sightseeing Cruise',
        type: 'tour',
        locationId: op.miamiId,
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
      id: ids.kayak,
      scene: 'kayak',
      assets: 12,
      data: {
        name: 'Kayak Day Rental',
        type: 'rental',
        locationId: op.miamiId,
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
 * OCTO in a sandbox: the operator's two showcase items (the cruise listed first, so an OCTO
 * certification run books a departure with room for all its test reservations) and its OCTO
 * cancellation policy (1 hour before the start). `ctx` acts for `op.customerId`. Idempotent.
 *
 * Demo Marina's (the `octo` step of `seedSandbox`) is sold by the demo reseller's test key
 * (DEMO_CHANNEL_TEST_KEY); a private sandbox of a reseller (modules/partners/sandbox.ts) gets its own.
 */
async function seedOctoFor(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const all = items(op);
  const ids = octoItemIds(op);
  const existing = new Set(
    (
      await db
        .select({ id: inventoryItems.id })
        .from(inventoryItems)
        .where(
          and(
            eq(inventoryItems.customerId, op.customerId),
            inArray(
              inventoryItems.id,
              all.map((i) => i.id),
            ),
          ),
        )
        .all()
    ).map((r) => r.id),
  );
  let wrote = false;
  for (const item of all) {
    if (existing.has(item.id)) continue;
    const data = InventoryData.parse({
      ...item.data,
      ...(item.assets ? { assets: Array.from({ length: item.assets }, (_, i) => ({ assetId: `${item.id}_${i + 1}`, name: `Kayak #${i + 1}` })) } : {}),
    });
    await setupInventory(ctx, { data, inventory_id: item.id }, { fixedIds: true });
    await seedPhoto(ctx, item.id, item.scene);
    wrote = true;
  }
  if (!existing.has(ids.harborCruise)) await reorderInventory(ctx, { orderedBoats: [ids.harborCruise] });
  const settings = await db.select().from(octoSettings).where(eq(octoSettings.customerId, op.customerId)).get();
  if (!settings) {
    await putSettings(ctx, { cancellationCutoffHours: 1 });
    wrote = true;
  }
  return wrote;
}

/** Demo Marina's OCTO showcase (`seedSandbox`, on the wall clock). */
export const octoSeed: SeedStep = {
  name: 'octo',
  run: (env: Env) => seedOctoFor(systemCtx(env, { customerId: SEED.demo.customerId, requestId: 'seed_octo' }), DEMO_OPERATOR),
};

/** A private sandbox operator's OCTO showcase (an operator step: `ctx` acts for the operator on its clock). */
export const octoOperatorSeed: OperatorSeedStep = { name: 'octo', run: seedOctoFor };
