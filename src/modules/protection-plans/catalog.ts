/**
 * The protection-plan catalog Berth ships, per industry (plans and bundles are the platform's, not
 * an operator's; locations choose which to offer and may override a plan's percentage and cap).
 * A premium is `percentage` of the booking total, capped by `maxCap` and floored by `minimum`
 * (cents). Inactive plans are retired offerings, listed to admins only.
 */
export interface PlanDef {
  planCode: string;
  industry: string;
  name: string;
  description: string;
  category: 'damage' | 'cancellation' | 'equipment' | 'weather' | 'liability';
  percentage: number;
  /** Cents. */
  minimum: number;
  maxCap: number | null;
  coverage: Record<string, unknown>;
  active: boolean;
}

export interface BundleDef {
  bundleCode: string;
  industry: string;
  name: string;
  description: string;
  planCodes: string[];
  /** Percent off the sum of the plans' premiums. */
  discountPercentage: number;
  active: boolean;
}

export const INDUSTRIES = ['marine', 'powersports'] as const;
export type Industry = (typeof INDUSTRIES)[number];

export const PLANS: PlanDef[] = [
  {
    planCode: 'MARINE_DAMAGE_WAIVER',
    industry: 'marine',
    name: 'Damage waiver',
    description: 'Waives the renter’s liability for accidental damage to the vessel above the deductible.',
    category: 'damage',
    percentage: 12,
    minimum: 1500,
    maxCap: 25000,
    coverage: { deductible: 250, limit: 25000 },
    active: true,
  },
  {
    planCode: 'MARINE_CANCELLATION',
    industry: 'marine',
    name: 'Cancellation cover',
    description: 'Refunds the booking when the renter cancels for a covered reason (illness, travel disruption) up to 24 hours before the start.',
    category: 'cancellation',
    percentage: 8,
    minimum: 1000,
    maxCap: 15000,
    coverage: { refundPercent: 100, noticeHours: 24 },
    active: true,
  },
  {
    planCode: 'MARINE_FUEL_EQUIPMENT',
    industry: 'marine',
    name: 'Fuel and equipment cover',
    description: 'Covers lost or damaged equipment on board (life jackets, anchors, electronics) and an emergency fuel delivery.',
    category: 'equipment',
    percentage: 5,
    minimum: 500,
    maxCap: 7500,
    coverage: { equipmentLimit: 1500, fuelDeliveries: 1 },
    active: true,
  },
  {
    planCode: 'MARINE_WEATHER',
    industry: 'marine',
    name: 'Weather guarantee',
    description: 'Reschedules or refunds the rental when the harbour master closes the water for weather.',
    category: 'weather',
    percentage: 6,
    minimum: 800,
    maxCap: 10000,
    coverage: { reschedule: true, refundPercent: 100 },
    active: true,
  },
  {
    planCode: 'MARINE_DAMAGE_WAIVER_2023',
    industry: 'marine',
    name: 'Damage waiver (2023 edition)',
    description: 'The former damage waiver; kept for bookings that bought it.',
    category: 'damage',
    percentage: 15,
    minimum: 2000,
    maxCap: 30000,
    coverage: { deductible: 500, limit: 20000 },
    active: false,
  },
  {
    planCode: 'PS_DAMAGE_WAIVER',
    industry: 'powersports',
    name: 'Damage waiver',
    description: 'Waives liability for accidental damage to the machine above the deductible.',
    category: 'damage',
    percentage: 15,
    minimum: 2000,
    maxCap: 30000,
    coverage: { deductible: 300, limit: 15000 },
    active: true,
  },
  {
    planCode: 'PS_CANCELLATION',
    industry: 'powersports',
    name: 'Cancellation cover',
    description: 'Refunds the booking when the renter cancels for a covered reason.',
    category: 'cancellation',
    percentage: 7,
    minimum: 800,
    maxCap: 12000,
    coverage: { refundPercent: 100, noticeHours: 24 },
    active: true,
  },
];

export const BUNDLES: BundleDef[] = [
  {
    bundleCode: 'MARINE_ESSENTIALS',
    industry: 'marine',
    name: 'Essentials',
    description: 'Damage waiver with fuel and equipment cover.',
    planCodes: ['MARINE_DAMAGE_WAIVER', 'MARINE_FUEL_EQUIPMENT'],
    discountPercentage: 10,
    active: true,
  },
  {
    bundleCode: 'MARINE_COMPLETE',
    industry: 'marine',
    name: 'Complete peace of mind',
    description: 'Damage waiver, cancellation cover, fuel and equipment cover and the weather guarantee.',
    planCodes: ['MARINE_DAMAGE_WAIVER', 'MARINE_CANCELLATION', 'MARINE_FUEL_EQUIPMENT', 'MARINE_WEATHER'],
    discountPercentage: 15,
    active: true,
  },
  {
    bundleCode: 'PS_COMBO',
    industry: 'powersports',
    name: 'Rider combo',
    description: 'Damage waiver and cancellation cover.',
    planCodes: ['PS_DAMAGE_WAIVER', 'PS_CANCELLATION'],
    discountPercentage: 10,
    active: true,
  },
];

export const planOf = (code: string) => PLANS.find((p) => p.planCode === code);
export const bundleOf = (code: string) => BUNDLES.find((b) => b.bundleCode === code);

/** The premium in cents: percentage of the total, capped by maxCap, floored by the minimum (the minimum wins over the cap). */
export function premiumOf(totalCents: number, p: { percentage: number; minimum: number; maxCap: number | null }): number {
  let v = Math.round((totalCents * p.percentage) / 100);
  if (p.maxCap !== null) v = Math.min(v, p.maxCap);
  return Math.max(v, p.minimum);
}
