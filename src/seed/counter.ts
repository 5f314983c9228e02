import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { posFolderItems, posFolders, posItems, posStock, posVariants } from '../db/schema/pos';
import { giftCardEntries, promoCodes } from '../db/schema/promo-codes';
import { affiliates } from '../db/schema/affiliates';
import { protectionSettings } from '../db/schema/protection-plans';

const D = SEED.demo;
const now = () => new Date().toISOString();

/** Counter sales of Demo Marina Miami: a fuel item, drinks and ice in a folder of till-1. */
async function seedPos(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  if (await db.select({ id: posItems.id }).from(posItems).where(eq(posItems.id, 'pitm_demo_fuel')).get()) return false;
  const item = (id: string, name: string, category: string, taxRate: number, tags: string[], allowNegativeStock = false) =>
    db.insert(posItems).values({ id, customerId: D.customerId, locationId: D.miamiId, name, category, taxRate, tags, allowNegativeStock });
  const variant = (id: string, itemId: string, name: string, price: number, quantity: number, unit: string | null = null, allowNegative = false) => [
    db.insert(posVariants).values({ id, customerId: D.customerId, itemId, name, price, unit }),
    db.insert(posStock).values({ id: `pstk_${id}`, customerId: D.customerId, itemId, variantId: id, tillId: '', quantity, allowNegative }),
  ];
  await db.batch([
    item('pitm_demo_fuel', 'Marine fuel', 'Fuel', 0, ['fuel'], true),
    ...variant('pvar_demo_fuel_regular', 'pitm_demo_fuel', 'Regular (gallon)', 549, 0, 'gallon', true),
    item('pitm_demo_soda', 'Soda', 'Drinks', 7, ['cold']),
    ...variant('pvar_demo_soda_can', 'pitm_demo_soda', 'Can', 199, 48),
    ...variant('pvar_demo_soda_bottle', 'pitm_demo_soda', 'Bottle', 299, 24),
    item('pitm_demo_ice', 'Ice bag', 'Supplies', 7, []),
    ...variant('pvar_demo_ice', 'pitm_demo_ice', 'Default', 450, 30),
    db.insert(posFolders).values({
      id: 'pfld_demo_dock',
      customerId: D.customerId,
      locationId: D.miamiId,
      tillId: 'till-1',
      name: 'Dock store',
      color: '#1e88e5',
      favorite: true,
      position: 0,
    }),
    db.insert(posFolderItems).values({ folderId: 'pfld_demo_dock', itemId: 'pitm_demo_soda', customerId: D.customerId }),
    db.insert(posFolderItems).values({ folderId: 'pfld_demo_dock', itemId: 'pitm_demo_ice', customerId: D.customerId }),
  ]);
  return true;
}

/** Promo codes of Demo Marina: SUMMER10 (10%, 100 uses, affiliate), a 50 dollar gift card DEMO-GIFT-50. */
async function seedPromoCodes(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  if (await db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.id, 'promo_demo_summer10')).get()) return false;
  const expiry = `${new Date().getUTCFullYear() + 2}-12-31T23:59:59.999Z`;
  await db.batch([
    db
      .insert(affiliates)
      .values({ id: 'aff_demo_harbor_blog', customerId: D.customerId, name: 'Harbor Blog', email: 'hello@harbor-blog.test', percentageEarned: 10 }),
    db.insert(promoCodes).values({
      id: 'promo_demo_summer10',
      customerId: D.customerId,
      code: 'SUMMER10',
      codeKey: 'summer10',
      kind: 'promo',
      details: { '%Discount': 10 },
      percentOff: 10,
      expiryDate: expiry,
      usageLimit: 100,
      affiliateId: 'aff_demo_harbor_blog',
    }),
    db.insert(promoCodes).values({
      id: 'promo_demo_gift50',
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
      id: 'gce_demo_gift50_issue',
      customerId: D.customerId,
      promoCodeId: 'promo_demo_gift50',
      kind: 'issue',
      amount: 5000,
      reference: 'sandbox seed',
    }),
  ]);
  return true;
}

/** Protection settings of Demo Marina Miami: every marine plan but the weather guarantee, a 10% damage waiver capped at 200 dollars. */
async function seedProtection(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  if (await db.select({ id: protectionSettings.id }).from(protectionSettings).where(eq(protectionSettings.id, 'pset_demo_miami')).get()) return false;
  await db.insert(protectionSettings).values({
    id: 'pset_demo_miami',
    customerId: D.customerId,
    locationId: D.miamiId,
    industry: 'marine',
    enabledPlanCodes: ['MARINE_DAMAGE_WAIVER', 'MARINE_CANCELLATION', 'MARINE_FUEL_EQUIPMENT'],
    enabledBundleCodes: ['MARINE_ESSENTIALS', 'MARINE_COMPLETE'],
    planOverrides: { MARINE_DAMAGE_WAIVER: { percentage: 10, maxCap: 200 } },
    updatedAt: now(),
  });
  return true;
}

export const posSeed: SeedStep = { name: 'pos', run: seedPos };
export const promoCodesSeed: SeedStep = { name: 'promo-codes', run: seedPromoCodes };
export const protectionSeed: SeedStep = { name: 'protection-plans', run: seedProtection };
