import { inArray } from 'drizzle-orm';
import { DEMO_OPERATOR, HAMBURG_TZ, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { inventoryItems } from '../db/schema/inventory';
import { InventoryData, type InventoryDataInput } from '../modules/inventory/types';
import { setupInventory } from '../modules/inventory/service';
import { seedPhoto, type Scene } from './photos';

/** The ids of an operator's demo inventory (`inv_<tag>_pontoon`). */
export const inventoryIds = (op: { tag: string }) => ({
  centerConsole: demoId(op, 'inv', 'center_console'),
  pontoon: demoId(op, 'inv', 'pontoon'),
  sailboatHamburg: demoId(op, 'inv', 'sailboat_hh'),
  dolphinTour: demoId(op, 'inv', 'dolphin_tour'),
});

/** The ids of an operator's demo assets (`ast_<tag>_pt_1`). */
export const assetIds = (op: { tag: string }) => ({
  centerConsole: [1, 2, 3, 4].map((i) => demoId(op, 'ast', `cc_${i}`)),
  pontoon: [1, 2, 3].map((i) => demoId(op, 'ast', `pt_${i}`)),
  sailboatHamburg: [1, 2].map((i) => demoId(op, 'ast', `hh_${i}`)),
});

/** Fixed ids of the sandbox inventory, so other modules, docs and tests can refer to them. */
export const DEMO_INVENTORY = inventoryIds(DEMO_OPERATOR);
export const DEMO_ASSETS = assetIds(DEMO_OPERATOR);

/** The next `MM-DD` on or after `today` (YYYY-MM-DD). */
const nextAnnual = (today: string, monthDay: string) => {
  const y = Number(today.slice(0, 4));
  return `${today.slice(5) <= monthDay ? y : y + 1}-${monthDay}`;
};

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday'] as const;
const WEEKEND = ['Friday', 'Saturday', 'Sunday'] as const;

/** A weekday/weekend price map. */
function week<T>(weekday: T, weekend: T): Record<string, T> {
  return Object.fromEntries([...WEEKDAYS.map((d) => [d, weekday]), ...WEEKEND.map((d) => [d, weekend])]);
}

const hourly = (basePrice: number) => ({
  basePrice,
  minimumHours: 2,
  maximumHours: 8,
  multiHourDiscounts: [
    { hours: 4, discountPercentage: 10 },
    { hours: 6, discountPercentage: 15 },
  ],
});

const FLORIDA_TAX = { taxId: 'fl_sales_tax', name: 'Florida sales tax', rate: 7, appliesTo: 'all' as const };
const COOLER = { addonId: 'cooler', name: 'Cooler with ice', price: 15, priceType: 'flat' as const, maxQuantity: 2 };

function items(op: DemoOperator, hamburgToday: string): { id: string; assets?: readonly string[]; scene?: Scene; data: InventoryDataInput }[] {
  const d = op;
  const inv = inventoryIds(op);
  const assets = assetIds(op);
  const miamiHours = { open: '08:00', close: '18:00' };
  return [
    {
      id: inv.centerConsole,
      scene: 'console',
      assets: assets.centerConsole,
      data: {
        name: 'Center Console 24',
        type: 'rental',
        locationId: d.miamiId,
        description: 'A 24-foot center console with a 250 hp outboard, bimini top and swim ladder. Up to 8 guests.',
        category: 'Powerboat',
        capacity: 8,
        currency: 'usd',
        operatingHours: Object.fromEntries([...WEEKDAYS, ...WEEKEND].map((day) => [day, miamiHours])),
        slotIntervalMinutes: 60,
        durations: [2, 4, 6, 8],
        turnaroundBufferMinutes: 30,
        minimumNoticeHours: 2,
        seasons: [
          {
            seasonId: 'cc_high',
            name: 'High season',
            startDate: '12-01',
            endDate: '04-30',
            dailyPrices: week(650, 750),
            hourlyPrices: week(hourly(125), hourly(145)),
          },
          {
            seasonId: 'cc_low',
            name: 'Low season',
            startDate: '05-01',
            endDate: '11-30',
            dailyPrices: week(550, 650),
            hourlyPrices: week(hourly(105), hourly(125)),
          },
        ],
        addons: [
          COOLER,
          { addonId: 'tube', name: 'Towable tube', price: 40, priceType: 'per_day', maxQuantity: 1 },
          { addonId: 'snorkel', name: 'Snorkel set', price: 10, priceType: 'per_person', maxQuantity: 8 },
          { addonId: 'captain', name: 'Licensed captain', price: 50, priceType: 'per_hour', maxQuantity: 1 },
        ],
        taxes: [FLORIDA_TAX],
        deposit: { amount: 500, required: true },
      },
    },
    {
      id: inv.pontoon,
      scene: 'pontoon',
      assets: assets.pontoon,
      data: {
        name: 'Pontoon 22',
        type: 'rental',
        locationId: d.miamiId,
        description: 'A 22-foot pontoon with shade, a swim platform and a Bluetooth stereo. Up to 10 guests.',
        category: 'Pontoon',
        capacity: 10,
        currency: 'usd',
        operatingHours: Object.fromEntries([...WEEKDAYS, ...WEEKEND].map((day) => [day, miamiHours])),
        durations: [2, 3, 4, 8],
        turnaroundBufferMinutes: 30,
        minimumNoticeHours: 2,
        seasons: [{ seasonId: 'pt_all_year', name: 'All year', dailyPrices: week(495, 595), hourlyPrices: week(hourly(95), hourly(110)) }],
        addons: [COOLER, { addonId: 'paddleboard', name: 'Stand-up paddleboard', price: 35, priceType: 'per_day', maxQuantity: 2 }],
        taxes: [FLORIDA_TAX],
        deposit: { amount: 300, required: true },
      },
    },
    {
      id: inv.sailboatHamburg,
      scene: 'sailboat',
      assets: assets.sailboatHamburg,
      data: {
        name: 'Segelboot Elbe 28',
        type: 'rental',
        locationId: d.hamburgId,
        description: 'A 28-foot sloop for the Elbe and the harbour. Sailing licence (SKS) required. Up to 6 guests.',
        category: 'Sailboat',
        capacity: 6,
        currency: 'eur',
        operatingHours: Object.fromEntries([...WEEKDAYS, ...WEEKEND].map((day) => [day, { open: '09:00', close: '20:00' }])),
        durations: [3, 4, 8],
        turnaroundBufferMinutes: 60,
        minimumNoticeHours: 12,
        seasons: [
          {
            seasonId: 'hh_summer',
            name: 'Sommer',
            startDate: '04-01',
            endDate: '10-31',
            dailyPrices: week(390, 450),
            hourlyPrices: week({ basePrice: 60, minimumHours: 3, maximumHours: 10 }, { basePrice: 70, minimumHours: 3, maximumHours: 10 }),
          },
        ],
        // The harbour's birthday in May: the next one in Hamburg's calendar.
        scheduleExceptions: [{ date: nextAnnual(hamburgToday, '05-08'), closed: true, note: 'Hafengeburtstag: harbour closed to rentals' }],
        addons: [{ addonId: 'skipper', name: 'Skipper', price: 45, priceType: 'per_hour', maxQuantity: 1 }],
        taxes: [{ taxId: 'de_vat', name: 'MwSt', rate: 19, appliesTo: 'all' }],
        deposit: { amount: 750, required: true },
      },
    },
    {
      id: inv.dolphinTour,
      scene: 'dolphin',
      data: {
        name: 'Sunset Dolphin Tour',
        type: 'tour',
        locationId: d.miamiId,
        description: 'Two hours on Biscayne Bay with a naturalist guide, looking for bottlenose dolphins. Shared tour or private charter.',
        category: 'Tour',
        capacity: 12,
        currency: 'usd',
        timeSlots: [
          { slotId: 'morning', time: '10:00', durationMinutes: 120 },
          { slotId: 'sunset', time: '18:00', durationMinutes: 120 },
        ],
        minimumNoticeHours: 1,
        tourPricing: {
          priceTiers: [
            { tierId: 'adult', name: 'Adult', price: 65, isStandard: true, minAge: 13 },
            { tierId: 'child', name: 'Child', price: 45, minAge: 3, maxAge: 12 },
            { tierId: 'infant', name: 'Infant (on lap)', price: 0, minAge: 0, maxAge: 2, seats: 0 },
          ],
          minParticipants: 2,
          isPrivate: false,
          privatePricing: { basePrice: 650, baseHeadcount: 6, extraParticipantPrice: 55 },
        },
        addons: [
          { addonId: 'photos', name: 'Photo package', price: 25, priceType: 'flat', maxQuantity: 1 },
          { addonId: 'drinks', name: 'Drinks package', price: 12, priceType: 'per_person', maxQuantity: 12 },
        ],
        taxes: [FLORIDA_TAX],
      },
    },
  ];
}

/** The operator's rentals and tour. Idempotent: an item that exists is left as it is. */
async function seedInventory(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const all = items(op, todayIn(ctx, HAMBURG_TZ));
  const db = ctx.db;
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
  let wrote = false;
  for (const item of all) {
    if (existing.has(item.id)) continue;
    const data = InventoryData.parse({
      ...item.data,
      ...(item.assets ? { assets: item.assets.map((assetId, i) => ({ assetId, name: `${item.data.name} #${i + 1}` })) } : {}),
    });
    await setupInventory(ctx, { data, inventory_id: item.id }, { fixedIds: true });
    if (item.scene) await seedPhoto(ctx, item.id, item.scene);
    wrote = true;
  }
  return wrote;
}

export const inventorySeed: OperatorSeedStep = { name: 'inventory', run: seedInventory };
