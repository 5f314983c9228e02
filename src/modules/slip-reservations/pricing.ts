/**
 * Slip pricing in integer cents. The base is the rate per foot × the billable length
 * (max(boat LOA, slip length)) × the period: nights for `nightly`; calendar months for `monthly`,
 * a partial month pro-rated by its days (17 nights of a 31-day January bill 17/31 of a month);
 * terms for `seasonal` (a season is six calendar months) and `annual` (twelve): each whole term
 * from the arrival date costs the rate once, and the rest is pro-rated by its days over the nights
 * of the term it begins (a year and 90 nights from 1 Feb 2027 bill 1 + 90/366 years). Each line is
 * rounded to the cent (half up). Fees and utilities are charged per stay, night, month (pro-rated
 * the same way) or foot; the discount comes off before tax; tax applies to the base and the
 * taxable lines. Every rate type needs at least one of its periods (`minimumDeparture`: a night,
 * a month, a season, a year); that rule is checked where a stay is chosen (quote.ts `checkTerm`).
 */
import type { SlipChargeLine, SlipPricing } from '../../db/schema/slip-reservations';
import { formatMoney, formatRate, shareByWeight } from '../../lib/money';
import { addDays } from '../../lib/time';
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
  /** The currency the bill's lines name their rates in (default usd). */
  currency?: string;
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
  /** The first period of the base (a night, a month, or one whole term), for first_night / first_month deposits. */
  firstPeriodCents: number;
  /** One night of the stay at its own rate (a `first_night` deposit): a nightly stay's night, else the first period over its nights. */
  firstNightCents: number;
  /** One month of the stay at its own rate (a `first_month` deposit): a nightly stay's nights of its first month, else a month's share of the period. */
  firstMonthCents: number;
}

const DAY = 86_400_000;
const dayNum = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
export const nightsBetween = (a: string, b: string) => Math.round(dayNum(b) - dayNum(a));

/** Calendar months of one period of a rate type: a month, a season (six months), a year; 0 for nightly (a night). */
export const PERIOD_MONTHS: Record<RateType, number> = { nightly: 0, monthly: 1, seasonal: 6, annual: 12 };
/** One period of a rate type, in words. */
export const PERIOD_NAME: Record<RateType, string> = { nightly: 'night', monthly: 'month', seasonal: 'season', annual: 'year' };

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `date` plus `n` calendar months, on the same day of the month or that month's last day (31 Jan + 1 month = 28 or 29 Feb). */
export function addCalendarMonths(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(Math.min(d, last))}`;
}

/** The earliest departure a rate type takes: one night, or one month, season or year after the arrival. */
export function minimumDeparture(rateType: RateType, arrivalDate: string): string {
  const months = PERIOD_MONTHS[rateType];
  return months ? addCalendarMonths(arrivalDate, months) : addDays(arrivalDate, 1);
}

/**
 * A stay cut into terms of `months` calendar months from its arrival (each ends on the arrival's day
 * of the month, or that month's last day): the whole terms, and the rest (from `restStart`) with its
 * nights and the nights of the term it begins.
 */
export function termSplit(months: number, arrival: string, departure: string) {
  let terms = 0;
  while (addCalendarMonths(arrival, (terms + 1) * months) <= departure) terms++;
  const restStart = addCalendarMonths(arrival, terms * months);
  return {
    terms,
    restStart,
    restNights: nightsBetween(restStart, departure),
    termNights: nightsBetween(restStart, addCalendarMonths(arrival, (terms + 1) * months)),
  };
}

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
const share = (x: number) => Math.round(x * 10_000) / 10_000;

/** A rate as a renter reads it: "$3.50 per ft per night". */
const perFoot = (p: PriceInput, rate: number, period: string) => `${formatRate(rate, p.currency ?? 'usd')} per ft per ${period}`;

type Lines = SlipPricing['lines'];
/** The base of a stay: its lines, their sum and its first period. */
interface Base {
  lines: Lines;
  base: number;
  firstPeriod: number;
}
const sumOf = (lines: Lines) => lines.reduce((n, l) => n + l.amountCents, 0);

function nightlyBase(p: PriceInput, ftH: number, nights: number): Base {
  const rate = p.ratePerFootCents;
  const base = Math.round((rate * ftH * nights) / 100);
  const lines: Lines = [
    { kind: 'base', description: `${nights} night(s) × ${p.billableLengthFt} ft × ${perFoot(p, rate, 'night')}`, quantity: nights, amountCents: base },
  ];
  return { lines, base, firstPeriod: Math.round((rate * ftH) / 100) };
}

function monthlyBase(p: PriceInput, ftH: number, segments: ReturnType<typeof monthSegments>): Base {
  const rate = p.ratePerFootCents;
  const lines: Lines = segments.map((s) => ({
    kind: 'base',
    description: `${s.month}: ${s.nights === s.daysInMonth ? 'full month' : `${s.nights}/${s.daysInMonth} of a month`} × ${p.billableLengthFt} ft × ${perFoot(p, rate, 'month')}`,
    quantity: share(s.nights / s.daysInMonth),
    amountCents: Math.round((rate * ftH * s.nights) / (100 * s.daysInMonth)),
  }));
  return { lines, base: sumOf(lines), firstPeriod: lines.find((l) => l.amountCents)?.amountCents ?? 0 };
}

/** Seasonal and annual: each whole term at the rate, the rest pro-rated by its days over the term it begins. */
function termBase(p: PriceInput, ftH: number): Base {
  const rate = p.ratePerFootCents;
  const name = PERIOD_NAME[p.rateType];
  const one = Math.round((rate * ftH) / 100);
  const split = termSplit(PERIOD_MONTHS[p.rateType], p.arrivalDate, p.departureDate);
  const lines: Lines = [];
  if (split.terms)
    lines.push({
      kind: 'base',
      description: `${split.terms} ${name}(s) × ${p.billableLengthFt} ft × ${perFoot(p, rate, name)}`,
      quantity: split.terms,
      amountCents: one * split.terms,
    });
  if (split.restNights > 0)
    lines.push({
      kind: 'base',
      description: `${split.restStart} to ${p.departureDate}: ${split.restNights}/${split.termNights} of a ${name} × ${p.billableLengthFt} ft × ${perFoot(p, rate, name)}`,
      quantity: share(split.restNights / split.termNights),
      amountCents: Math.round((rate * ftH * split.restNights) / (100 * split.termNights)),
    });
  return { lines, base: sumOf(lines), firstPeriod: one };
}

/** What one fee or utility line charges for the stay, and its quantity. */
function chargeOf(l: SlipChargeLine, nights: number, ftH: number, billableLengthFt: number, segments: ReturnType<typeof monthSegments>) {
  switch (l.per) {
    case 'night':
      return { amount: l.amountCents * nights, quantity: nights };
    case 'foot':
      return { amount: Math.round((l.amountCents * ftH) / 100), quantity: billableLengthFt };
    case 'month': {
      const amount = segments.reduce((sum, s) => sum + Math.round((l.amountCents * s.nights) / s.daysInMonth), 0);
      const qty = segments.reduce((sum, s) => sum + s.nights / s.daysInMonth, 0);
      return { amount, quantity: share(qty) };
    }
    default:
      return { amount: l.amountCents, quantity: 1 };
  }
}

/**
 * The first night and the first month of a stay at its own rate (what `first_night` and `first_month` deposits ask):
 * a nightly stay's first night, and its nights up to the same day next month; for a monthly stay one month, and that
 * month over its nights; for a season or a year, the term over its months and over its nights. Rounded to the cent.
 */
function firstNightAndMonth(p: PriceInput, ftH: number, nights: number): { night: number; month: number } {
  const one = (p.ratePerFootCents * ftH) / 100;
  const monthNights = nightsBetween(p.arrivalDate, addCalendarMonths(p.arrivalDate, 1));
  if (p.rateType === 'nightly') return { night: Math.round(one), month: Math.round(one * Math.min(nights, monthNights)) };
  if (p.rateType === 'monthly') return { night: Math.round(one / monthNights), month: Math.round(one) };
  const months = PERIOD_MONTHS[p.rateType];
  const termNights = nightsBetween(p.arrivalDate, addCalendarMonths(p.arrivalDate, months));
  return { night: Math.round(one / termNights), month: Math.round(one / months) };
}

export function priceReservation(p: PriceInput): PriceResult {
  const nights = nightsBetween(p.arrivalDate, p.departureDate);
  const ftH = hundredths(p.billableLengthFt);
  const segments = monthSegments(p.arrivalDate, p.departureDate);
  const { lines, base, firstPeriod } =
    p.rateType === 'nightly' ? nightlyBase(p, ftH, nights) : p.rateType === 'monthly' ? monthlyBase(p, ftH, segments) : termBase(p, ftH);
  let fees = 0;
  let utilities = 0;
  let taxable = base;
  for (const [kind, list] of [
    ['fee', p.fees],
    ['utility', p.utilities],
  ] as const) {
    for (const l of list) {
      const { amount, quantity } = chargeOf(l, nights, ftH, p.billableLengthFt, segments);
      if (kind === 'fee') fees += amount;
      else utilities += amount;
      if (l.taxable) taxable += amount;
      lines.push({
        kind,
        description: `${l.name} (${formatMoney(l.amountCents, p.currency ?? 'usd')} per ${l.per === 'foot' ? 'ft' : l.per})`,
        quantity,
        amountCents: amount,
      });
    }
  }
  const discount = Math.min(Math.max(0, p.discountCents), base + fees + utilities);
  if (discount) lines.push({ kind: 'discount', description: 'Discount', quantity: 1, amountCents: -discount });
  const tax = Math.round((Math.max(0, taxable - discount) * p.taxRatePercent) / 100);
  const first = firstNightAndMonth(p, ftH, nights);
  if (tax) lines.push({ kind: 'tax', description: `Tax (${p.taxRatePercent}%)`, quantity: 1, amountCents: tax });
  return {
    pricing: {
      ratePerFootCents: p.ratePerFootCents,
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
    firstNightCents: first.night,
    firstMonthCents: first.month,
  };
}

/** The deposit a reservation needs before it is confirmed through a payment (capped at the total). */
export function depositFor(policy: { policy: string; amountCents: number; percent: number }, price: PriceResult): number {
  let d = 0;
  if (policy.policy === 'fixed') d = policy.amountCents;
  else if (policy.policy === 'percent') d = Math.round((price.totalCents * policy.percent) / 100);
  else if (policy.policy === 'first_night') d = price.firstNightCents;
  else if (policy.policy === 'first_month') d = price.firstMonthCents;
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
