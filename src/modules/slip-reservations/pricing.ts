/**
 * Slip pricing in integer cents. The base is the rate per foot × the billable length
 * (max(boat LOA, slip length)) × the period: nights for `nightly`; calendar months for `monthly`,
 * a partial month pro-rated by its days (17 nights of a 31-day January bill 17/31 of a month);
 * the whole term once for `seasonal` and `annual`. Each line is rounded to the cent (half up).
 * Fees and utilities are charged per stay, night, month (pro-rated the same way) or foot; the
 * discount comes off before tax; tax applies to the base and the taxable lines.
 */
import type { SlipChargeLine, SlipPricing } from '../../db/schema/slip-reservations';
import { shareByWeight } from '../../lib/money';
import type { RateType } from '../marina-settings/service';

export interface PriceInput {
  rateType: RateType;
  arrivalDate: string;
  departureDate: string;
  ratePerFootCents: number;
  billableLengthFt: number;
  fees: SlipChargeLine[];
  utilities: SlipChargeLine[];
  taxRatePercent: number;
  discountCents: number;
}

export interface PriceResult {
  pricing: SlipPricing;
  nights: number;
  baseCents: number;
  feesCents: number;
  utilitiesCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  /** The first period of the base (a night, a month, or the whole term), for first_night / first_month deposits. */
  firstPeriodCents: number;
}

const DAY = 86_400_000;
const dayNum = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
export const nightsBetween = (a: string, b: string) => Math.round(dayNum(b) - dayNum(a));

/** The calendar-month segments of a stay: nights in each month over the days of that month. */
export function monthSegments(arrival: string, departure: string): { month: string; nights: number; daysInMonth: number }[] {
  const out: { month: string; nights: number; daysInMonth: number }[] = [];
  let d = arrival;
  while (d < departure) {
    const [y, m] = d.split('-').map(Number);
    const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const nextMonth = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`;
    const end = nextMonth < departure ? nextMonth : departure;
    out.push({ month: d.slice(0, 7), nights: nightsBetween(d, end), daysInMonth });
    d = end;
  }
  return out;
}

/** Feet in hundredths, so 32.5 ft × 350 cents is exact before the single rounding. */
const hundredths = (ft: number) => Math.round(ft * 100);

export function priceReservation(p: PriceInput): PriceResult {
  const nights = nightsBetween(p.arrivalDate, p.departureDate);
  const ftH = hundredths(p.billableLengthFt);
  const segments = monthSegments(p.arrivalDate, p.departureDate);
  const lines: SlipPricing['lines'] = [];
  let base = 0;
  let firstPeriod = 0;
  const rate = p.ratePerFootCents;
  if (p.rateType === 'nightly') {
    base = Math.round((rate * ftH * nights) / 100);
    firstPeriod = Math.round((rate * ftH) / 100);
    lines.push({
      kind: 'base',
      description: `${nights} night(s) × ${p.billableLengthFt} ft × ${rate} cents per foot per night`,
      quantity: nights,
      amountCents: base,
    });
  } else if (p.rateType === 'monthly') {
    for (const s of segments) {
      const amount = Math.round((rate * ftH * s.nights) / (100 * s.daysInMonth));
      if (!firstPeriod) firstPeriod = amount;
      base += amount;
      lines.push({
        kind: 'base',
        description: `${s.month}: ${s.nights === s.daysInMonth ? 'full month' : `${s.nights}/${s.daysInMonth} of a month`} × ${p.billableLengthFt} ft × ${rate} cents per foot per month`,
        quantity: Math.round((s.nights / s.daysInMonth) * 10_000) / 10_000,
        amountCents: amount,
      });
    }
  } else {
    base = firstPeriod = Math.round((rate * ftH) / 100);
    lines.push({
      kind: 'base',
      description: `${p.rateType === 'seasonal' ? 'Season' : 'Year'}: ${p.billableLengthFt} ft × ${rate} cents per foot`,
      quantity: 1,
      amountCents: base,
    });
  }

  const charge = (l: SlipChargeLine): { amount: number; quantity: number } => {
    switch (l.per) {
      case 'night':
        return { amount: l.amountCents * nights, quantity: nights };
      case 'foot':
        return { amount: Math.round((l.amountCents * ftH) / 100), quantity: p.billableLengthFt };
      case 'month': {
        const amount = segments.reduce((sum, s) => sum + Math.round((l.amountCents * s.nights) / s.daysInMonth), 0);
        const qty = segments.reduce((sum, s) => sum + s.nights / s.daysInMonth, 0);
        return { amount, quantity: Math.round(qty * 10_000) / 10_000 };
      }
      default:
        return { amount: l.amountCents, quantity: 1 };
    }
  };
  let fees = 0;
  let utilities = 0;
  let taxable = base;
  for (const [kind, list] of [
    ['fee', p.fees],
    ['utility', p.utilities],
  ] as const) {
    for (const l of list) {
      const { amount, quantity } = charge(l);
      if (kind === 'fee') fees += amount;
      else utilities += amount;
      if (l.taxable) taxable += amount;
      lines.push({ kind, description: `${l.name} (${l.amountCents} cents per ${l.per})`, quantity, amountCents: amount });
    }
  }
  const discount = Math.min(Math.max(0, p.discountCents), base + fees + utilities);
  if (discount) lines.push({ kind: 'discount', description: 'Discount', quantity: 1, amountCents: -discount });
  const tax = Math.round((Math.max(0, taxable - discount) * p.taxRatePercent) / 100);
  if (tax) lines.push({ kind: 'tax', description: `Tax (${p.taxRatePercent}%)`, quantity: 1, amountCents: tax });
  return {
    pricing: {
      ratePerFootCents: rate,
      billableLengthFt: p.billableLengthFt,
      fees: p.fees,
      utilities: p.utilities,
      taxRatePercent: p.taxRatePercent,
      discountCents: p.discountCents,
      lines,
    },
    nights,
    baseCents: base,
    feesCents: fees,
    utilitiesCents: utilities,
    discountCents: discount,
    taxCents: tax,
    totalCents: base + fees + utilities - discount + tax,
    firstPeriodCents: firstPeriod,
  };
}

/** The deposit a reservation needs before it is confirmed through a payment (capped at the total). */
export function depositFor(policy: { policy: string; amountCents: number; percent: number }, price: PriceResult): number {
  let d = 0;
  if (policy.policy === 'fixed') d = policy.amountCents;
  else if (policy.policy === 'percent') d = Math.round((price.totalCents * policy.percent) / 100);
  else if (policy.policy === 'first_night' || policy.policy === 'first_month') d = price.firstPeriodCents;
  return Math.min(Math.max(0, d), price.totalCents);
}

/** Months (YYYY-MM) of a stay with the share of `amount` each earns by nights: whole cents adding up to `amount`, each within a cent (shareByWeight). */
export function monthlyShares(arrival: string, departure: string, amount: number): { month: string; amountCents: number }[] {
  const segs = monthSegments(arrival, departure);
  const shares = shareByWeight(
    amount,
    segs.map((s) => s.nights),
  );
  return segs.map((s, i) => ({ month: s.month, amountCents: shares[i] }));
}
