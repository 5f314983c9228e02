import { percentOf } from '../../lib/money';

export interface PriceInput {
  unitPrice: number;
  quantity: number;
  taxRate: number;
}

export interface PricedLine {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
}

/**
 * Per-unit prices keep a tenth of a cent (fuel is priced 5.899 a gallon): inside, cents with one
 * decimal (589.9); in the API, dollars with three (5.899). Amounts (lines, totals) are whole cents.
 */
export const unitPriceCents = (dollars: number) => Math.round(dollars * 1000) / 10;
export const unitPriceDollars = (cents: number) => Math.round(cents * 10) / 1000;

/** A line's amount in whole cents: unit price x quantity, rounded half up once (3 gallons at 5.899 = 17.70). */
export const lineAmount = (unitPrice: number, quantity: number) => Math.round((Math.round(unitPrice * 10) * quantity) / 10);

/**
 * Prices a sale in cents: per line `unit price x quantity` (rounded to the cent); the order discount (a percentage of
 * each line, or a fixed amount shared by line value with the largest-remainder rule so the parts
 * add up to the cent) comes off before tax; each line's tax is its rate on what is left, rounded
 * half up per line.
 */
export function priceLines(lines: PriceInput[], discount: { percent?: number; amount?: number }): PricedLine[] {
  const subs = lines.map((l) => lineAmount(l.unitPrice, l.quantity));
  const total = subs.reduce((s, v) => s + v, 0);
  let discounts: number[];
  if (discount.percent) discounts = subs.map((s) => percentOf(s, discount.percent!));
  else if (discount.amount && total > 0) {
    const d = Math.min(discount.amount, total);
    const exact = subs.map((s) => (d * s) / total);
    discounts = exact.map(Math.floor);
    let left = d - discounts.reduce((s, v) => s + v, 0);
    const order = exact.map((v, i) => ({ i, frac: v - Math.floor(v) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
    for (const o of order) {
      if (left <= 0) break;
      discounts[o.i]++;
      left--;
    }
  } else discounts = subs.map(() => 0);
  return lines.map((l, i) => {
    const net = subs[i] - discounts[i];
    const tax = percentOf(net, l.taxRate);
    return { subtotal: subs[i], discount: discounts[i], tax, total: net + tax };
  });
}
