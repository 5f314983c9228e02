import { eq } from 'drizzle-orm';
import { MIAMI_TZ, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { nowIso, todayIn } from '../lib/clock';
import { posFolderItems, posFolders, posItems, posStock, posVariants } from '../db/schema/pos';
import { giftCardEntries, promoCodes } from '../db/schema/promo-codes';
import { affiliates } from '../db/schema/affiliates';
import { protectionSettings } from '../db/schema/protection-plans';

/** The ids of an operator's counter records (`pitm_<tag>_fuel`, `promo_<tag>_summer10`, ...). */
export const counterIds = (op: { tag: string }) => ({
  fuel: demoId(op, 'pitm', 'fuel'),
  fuelRegular: demoId(op, 'pvar', 'fuel_regular'),
  soda: demoId(op, 'pitm', 'soda'),
  sodaCan: demoId(op, 'pvar', 'soda_can'),
  sodaBottle: demoId(op, 'pvar', 'soda_bottle'),
  ice: demoId(op, 'pitm', 'ice'),
  iceVariant: demoId(op, 'pvar', 'ice'),
  folder: demoId(op, 'pfld', 'dock'),
  harborBlog: demoId(op, 'aff', 'harbor_blog'),
  summer10: demoId(op, 'promo', 'summer10'),
  gift50: demoId(op, 'promo', 'gift50'),
  gift50Issue: demoId(op, 'gce', 'gift50_issue'),
  protection: demoId(op, 'pset', 'miami'),
});

/** Counter sales of the operator's Miami location: a fuel item, drinks and ice in a folder of till-1. */
async function seedPos(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const ids = counterIds(D);
  if (await db.select({ id: posItems.id }).from(posItems).where(eq(posItems.id, ids.fuel)).get()) return false;
  const item = (id: string, name: string, category: string, taxRate: number, tags: string[], allowNegativeStock = false) =>
    db.insert(posItems).values({ id, customerId: D.customerId, locationId: D.miamiId, name, category, taxRate, tags, allowNegativeStock });
  const variant = (id: string, itemId: string, name: string, price: number, quantity: number, unit: string | null = null, allowNegative = false) => [
    db.insert(posVariants).values({ id, customerId: D.customerId, itemId, name, price, unit }),
    db.insert(posStock).values({ id: `pstk_${id}`, customerId: D.customerId, itemId, variantId: id, tillId: '', quantity, allowNegative }),
  ];
  await db.batch([
    item(ids.fuel, 'Marine fuel', 'Fuel', 0, ['fuel'], true),
    ...variant(ids.fuelRegular, ids.fuel, 'Regular (gallon)', 549, 0, 'gallon', true),
    item(ids.soda, 'Soda', 'Drinks', 7, ['cold']),
    ...variant(ids.sodaCan, ids.soda, 'Can', 199, 48),
    ...variant(ids.sodaBottle, ids.soda, 'Bottle', 299, 24),
    item(ids.ice, 'Ice bag', 'Supplies', 7, []),
    ...variant(ids.iceVariant, ids.ice, 'Default', 450, 30),
    db.insert(posFolders).values({
      id: ids.folder,
      customerId: D.customerId,
      locationId: D.miamiId,
      tillId: 'till-1',
      name: 'Dock store',
      color: '#1e88e5',
      favorite: true,
      position: 0,
    }),
    db.insert(posFolderItems).values({ folderId: ids.folder, itemId: ids.soda, customerId: D.customerId }),
    db.insert(posFolderItems).values({ folderId: ids.folder, itemId: ids.ice, customerId: D.customerId }),
  ]);
  return true;
}

/**
 * Promo codes of the operator: SUMMER10 (10%, 100 uses, affiliate), a 50 dollar gift card
 * DEMO-GIFT-50, both valid to the end of the year after next (Miami's year, from the clock).
 */
async function seedPromoCodes(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const ids = counterIds(D);
  if (await db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.id, ids.summer10)).get()) return false;
  const expiry = `${Number(todayIn(ctx, MIAMI_TZ).slice(0, 4)) + 2}-12-31T23:59:59.999Z`;
  await db.batch([
    db.insert(affiliates).values({ id: ids.harborBlog, customerId: D.customerId, name: 'Harbor Blog', email: 'hello@harbor-blog.test', percentageEarned: 10 }),
    db.insert(promoCodes).values({
      id: ids.summer10,
      customerId: D.customerId,
      code: 'SUMMER10',
      codeKey: 'summer10',
      kind: 'promo',
      details: { '%Discount': 10 },
      percentOff: 10,
      expiryDate: expiry,
      usageLimit: 100,
      affiliateId: ids.harborBlog,
    }),
    db.insert(promoCodes).values({
      id: ids.gift50,
      customerId: D.customerId,
      code: 'DEMO-GIFT-50',
      codeKey: 'demo-gift-50',
      kind: 'gift_card',
      details: { $Discount: 50, type: 'gift_card' },
      amountOff: 5000,
      balance: 5000,
      expiryDate: expiry,
    }),
    db.insert(giftCardEntries).values({
      id: ids.gift50Issue,
      customerId: D.customerId,
      promoCodeId: ids.gift50,
      kind: 'issue',
      amount: 5000,
      reference: 'sandbox seed',
    }),
  ]);
  return true;
}

/** Protection settings of the operator's Miami location: every marine plan but the weather guarantee, a 10% damage waiver capped at 200 dollars. */
async function seedProtection(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const id = counterIds(D).protection;
  if (await db.select({ id: protectionSettings.id }).from(protectionSettings).where(eq(protectionSettings.id, id)).get()) return false;
  await db.insert(protectionSettings).values({
    id,
    customerId: D.customerId,
    locationId: D.miamiId,
    industry: 'marine',
    enabledPlanCodes: ['MARINE_DAMAGE_WAIVER', 'MARINE_CANCELLATION', 'MARINE_FUEL_EQUIPMENT'],
    enabledBundleCodes: ['MARINE_ESSENTIALS', 'MARINE_COMPLETE'],
    planOverrides: { MARINE_DAMAGE_WAIVER: { percentage: 10, maxCap: 200 } },
    updatedAt: nowIso(ctx),
  });
  return true;
}

export const posSeed: OperatorSeedStep = { name: 'pos', run: seedPos };
export const promoCodesSeed: OperatorSeedStep = { name: 'promo-codes', run: seedPromoCodes };
export const protectionSeed: OperatorSeedStep = { name: 'protection-plans', run: seedProtection };
