import { WEEKDAY_NAMES, type InventoryModel } from './model';

/** How a starting price is quoted. */
export type PriceUnit = 'hr' | 'day' | 'person' | 'charter' | null;

/** Cheapest price for card display. A tour's starting price is the standard adult fare; an absent price is null, never 0. */
export function startingPrice(m: InventoryModel): { startingPrice: number | null; priceUnit: PriceUnit } {
  if (m.type === 'tour') {
    const tp = m.tourPricing;
    if (!tp) return { startingPrice: null, priceUnit: null };
    if (tp.isPrivate && tp.privatePricing) return { startingPrice: tp.privatePricing.basePrice, priceUnit: 'charter' };
    const tiers = tp.priceTiers ?? [];
    const std = tiers.find((t) => t.isStandard) ?? tiers.find((t) => /^adult/i.test(t.name)) ?? tiers[0];
    return std ? { startingPrice: std.price, priceUnit: 'person' } : { startingPrice: null, priceUnit: null };
  }
  const hourly: number[] = [];
  const daily: number[] = [];
  for (const s of m.seasons ?? []) {
    for (const d of WEEKDAY_NAMES) {
      const h = s.hourlyPrices?.[d];
      if (h && h.basePrice > 0) hourly.push(h.basePrice);
      const p = s.dailyPrices?.[d];
      if (p !== undefined && p > 0) daily.push(p);
    }
  }
  if (hourly.length) return { startingPrice: Math.min(...hourly), priceUnit: 'hr' };
  if (daily.length) return { startingPrice: Math.min(...daily), priceUnit: 'day' };
  return { startingPrice: null, priceUnit: null };
}
