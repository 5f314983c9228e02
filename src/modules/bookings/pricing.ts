/**
 * Server-side pricing (pure, cents inside). The client never sets a price: it may send the total
 * it showed, and the booking commit refuses it when it differs from this by more than a cent.
 *
 * Rentals: the season of the start's local date (a season with `YYYY-MM-DD` bounds beats a
 * recurring `MM-DD` one, which beats a season without dates); by the day when the rental covers
 * the opening day (or several days, or the item rents by the day only) and a daily price exists
 * for each day; else by the hour with the weekday's rule (minimum and maximum hours, the largest
 * multi-hour discount reached), a bare number read as `{basePrice}`; else a half-day price for up
 * to half the opening day; times the number of assets. The day-rate cap: a rental never costs more
 * than a longer rate that covers it (the half-day or the day's price), unless the item turns it off
 * (`dayRateCap: false`). An item's `durations` are the only lengths it rents for below a full day.
 * Tours: fares per tier, or a private charter (base price for the base headcount plus each extra
 * guest). Add-ons by `priceType`.
 * Discounts (bundle, promo code, manual, membership) come off before tax; taxes by `appliesTo`; tips are
 * never taxed.
 */
import { z } from '@hono/zod-openapi';
import { shareByWeight, toDollars, toCents } from '../../lib/money';
import type { Addon, InventoryModel, Season } from '../inventory/types';
import { ApiError } from '../../lib/errors';
import { addDays, localDate, weekdayOf } from '../../lib/time';
import { openingOn, type EngineItem } from '../availability/service';

type AddonDef = z.output<typeof Addon>;
type SeasonDef = z.output<typeof Season>;
type Weekday = keyof SeasonDef['dailyPrices'];

const HOUR = 3_600_000;
const cents = toCents;

export interface AddonLine {
  addonId: string;
  name: string;
  priceType: AddonDef['priceType'];
  unitPrice: number;
  quantity: number;
  amount: number;
  taxable: boolean;
  global: boolean;
}

export interface TicketLine {
  tier: string;
  quantity: number;
  unitPrice: number;
  seats: number;
  amount: number;
}

export interface Discount {
  type: 'bundle' | 'promo' | 'manual' | 'membership';
  code?: string;
  percent?: number;
  amount: number;
}

export interface TaxLine {
  name: string;
  rate: number;
  appliesTo: 'all' | 'rental' | 'addons';
  amount: number;
}

/** The price of one rental line (cents). */
export interface LineQuote {
  unit: 'hour' | 'day' | 'half_day' | 'ticket' | 'charter' | 'override';
  hours: number;
  days: number;
  season: string | null;
  rental: number;
  tickets?: TicketLine[];
  addons: AddonLine[];
  subtotal: number;
  discounts: Discount[];
  discountTotal: number;
  taxes: TaxLine[];
  taxTotal: number;
  tip: number;
  total: number;
}

// ------------------------------------------------------------------------------------------------
// Seasons and rental prices

function inSeason(s: SeasonDef, date: string): boolean {
  if (!s.startDate || !s.endDate) return true;
  if (s.startDate.length === 10) return s.startDate <= date && date <= s.endDate;
  const md = date.slice(5);
  return s.startDate <= s.endDate ? s.startDate <= md && md <= s.endDate : md >= s.startDate || md <= s.endDate;
}

/** The season of a local date. */
export function seasonFor(model: InventoryModel, date: string): SeasonDef | undefined {
  const seasons = model.seasons ?? [];
  return (
    seasons.find((s) => s.startDate?.length === 10 && inSeason(s, date)) ??
    seasons.find((s) => s.startDate?.length === 5 && inSeason(s, date)) ??
    seasons.find((s) => !s.startDate)
  );
}

function hourlyRule(season: SeasonDef | undefined, weekday: Weekday) {
  const r = season?.hourlyPrices?.[weekday] as
    { basePrice: number; minimumHours?: number; maximumHours?: number; multiHourDiscounts?: { hours: number; discountPercentage: number }[] } | undefined;
  return r && r.basePrice != null ? r : undefined;
}

const noPrice = (what: string) =>
  new ApiError('bad_request', `No price is configured for ${what}; the operator must set one in the item's pricing`, { extra: { reason: 'no_price' } });

/** Local dates a window touches (the end is exclusive). */
export function datesTouched(start: number, end: number, tz: string): string[] {
  const out: string[] = [];
  const last = localDate(end - 1, tz);
  for (let d = localDate(start, tz); d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

function openingHours(item: EngineItem, date: string): number {
  const o = openingOn(item, date);
  if (!o) return 24;
  const [oh, om] = o.open.split(':').map(Number);
  const [ch, cm] = o.close.split(':').map(Number);
  let minutes = ch * 60 + cm - (oh * 60 + om);
  if (minutes <= 0) minutes += 24 * 60;
  return minutes / 60;
}

/**
 * The day-rate cap (on unless the item sets `dayRateCap: false`): a rental shorter than the opening
 * day never costs more than a longer rate that covers it, the half-day price up to half the day and
 * the date's full-day price; the cheapest such rate is charged instead (and named as the unit).
 */
export const dayRateCapOn = (model: InventoryModel) => (model as { dayRateCap?: unknown }).dayRateCap !== false;

/** A day rental: the whole opening day of its first date or more, several dates, or a full-day-only item. */
function isDayRental(item: EngineItem, start: number, end: number): boolean {
  const dates = datesTouched(start, end, item.timezone);
  return !!item.model.fullDayOnly || dates.length > 1 || (end - start) / HOUR >= openingHours(item, dates[0]);
}

const hoursText = (h: number) => String(Math.round(h * 100) / 100);
const orList = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/**
 * Allowed durations: when a rental item lists `durations` (hours), a rental shorter than the opening
 * day must last one of them (to the minute); a day rental (see isDayRental) is not limited by them.
 * Every sales path meets this rule where its lines are prepared (400 `bad_request`, reason
 * `duration_not_allowed`, with `allowedDurations`).
 */
export function checkAllowedDuration(item: EngineItem, start: number, end: number): void {
  const allowed = item.kind === 'rental' ? item.model.durations : undefined;
  if (!allowed?.length || isDayRental(item, start, end)) return;
  const minutes = Math.round((end - start) / 60_000);
  if (allowed.some((h) => Math.round(h * 60) === minutes)) return;
  const list = [...new Set(allowed)].sort((a, b) => a - b);
  const message = `A rental of ${hoursText(minutes / 60)} hours is not offered: this item rents for ${orList(list.map(hoursText))} hours, or by the full day`;
  throw new ApiError('bad_request', message, {
    details: [{ field: 'rentalDetails.endTime', message: `allowed durations: ${list.map(hoursText).join(', ')} hours, or the full day` }],
    extra: { reason: 'duration_not_allowed', allowedDurations: list },
  });
}

type UnitPrice = { amount: number; unit: LineQuote['unit']; season: string | null };

/** The hourly rule's limits (minimum and maximum hours of the weekday). */
function checkHourLimits(rule: NonNullable<ReturnType<typeof hourlyRule>>, hours: number, weekday: Weekday): void {
  if (rule.minimumHours != null && hours < rule.minimumHours - 1e-9)
    throw new ApiError('bad_request', `The shortest rental on ${weekday} is ${rule.minimumHours} hours`, { extra: { reason: 'duration_not_allowed' } });
  if (rule.maximumHours != null && rule.maximumHours > 0 && hours > rule.maximumHours + 1e-9)
    throw new ApiError('bad_request', `The longest rental on ${weekday} is ${rule.maximumHours} hours`, { extra: { reason: 'duration_not_allowed' } });
}

/** `price` capped by the longer rates that cover it (the day-rate cap): the cheapest of them, when the cap is on. */
function capped(price: UnitPrice, covering: { amount: number | undefined; unit: LineQuote['unit'] }[], on: boolean): UnitPrice {
  if (!on) return price;
  let best = price;
  for (const c of covering) if (c.amount != null && c.amount < best.amount) best = { ...price, amount: c.amount, unit: c.unit };
  return best;
}

/** Price of one asset of a rental for [start, end). */
export function rentalUnitPrice(item: EngineItem, start: number, end: number): UnitPrice {
  checkAllowedDuration(item, start, end);
  const tz = item.timezone;
  const model = item.model;
  const hours = (end - start) / HOUR;
  const dates = datesTouched(start, end, tz);
  const first = dates[0];
  const weekday = weekdayOf(first) as Weekday;
  const season = seasonFor(model, first);
  const dayLength = openingHours(item, first);
  const byDay = model.fullDayOnly || dates.length > 1 || hours >= dayLength;
  const daily = () => {
    let sum = 0;
    for (const d of dates) {
      const price = seasonFor(model, d)?.dailyPrices?.[weekdayOf(d) as Weekday];
      if (price == null) return undefined;
      sum += cents(price);
    }
    return sum;
  };
  const seasonName = season?.name ?? null;
  if (byDay) {
    const amount = daily();
    if (amount != null) return { amount, unit: 'day', season: seasonName };
  }
  // Within the opening day: the longer rates that cover this rental cap its price.
  const half = season?.halfDayPrices?.[weekday];
  const halfCovers = half != null && hours <= dayLength / 2;
  const covering = [
    { amount: halfCovers ? cents(half) : undefined, unit: 'half_day' as const },
    { amount: byDay ? undefined : daily(), unit: 'day' as const },
  ];
  const cap = dayRateCapOn(model);
  const rule = hourlyRule(season, weekday);
  if (rule) {
    checkHourLimits(rule, hours, weekday);
    const pct = Math.max(0, ...(rule.multiHourDiscounts ?? []).filter((d) => hours >= d.hours).map((d) => d.discountPercentage));
    return capped({ amount: Math.round(cents(rule.basePrice) * hours * (1 - pct / 100)), unit: 'hour', season: seasonName }, covering, cap);
  }
  if (halfCovers) return capped({ amount: cents(half), unit: 'half_day', season: seasonName }, covering.slice(1), cap);
  const amount = daily();
  if (amount != null) return { amount, unit: 'day', season: seasonName };
  throw noPrice(`${weekday} (${first})`);
}

// ------------------------------------------------------------------------------------------------
// Tours

export interface TourDemand {
  /** Tickets per tier name or tier id, e.g. `{Adult: 2, Child: 1}`. */
  tickets?: Record<string, number>;
  /** Without tickets: this many standard-fare tickets (private charters: the headcount). */
  quantity?: number;
}

export interface TourQuote {
  amount: number;
  unit: 'ticket' | 'charter';
  tickets: TicketLine[];
  seats: number;
  participants: number;
  privateCharter: boolean;
}

/** The standard adult fare: the tier marked standard, else the one named Adult, else the first. */
export function standardTier(model: InventoryModel) {
  const tiers = model.tourPricing?.priceTiers ?? [];
  return tiers.find((t) => t.isStandard) ?? tiers.find((t) => t.name.toLowerCase() === 'adult') ?? tiers[0];
}

/** Seats and participants of a tour demand, and its price when the tour has fares (`priced` false otherwise). */
export function tourQuote(model: InventoryModel, demand: TourDemand, opts: { requirePrice: boolean }): TourQuote {
  const tp = model.tourPricing;
  const tiers = tp?.priceTiers ?? [];
  const isPrivate = !!tp?.isPrivate;
  const entries = Object.entries(demand.tickets ?? {}).filter(([, n]) => n > 0);
  const lines: TicketLine[] = [];
  if (entries.length) {
    for (const [key, n] of entries) {
      const tier = tiers.find((t) => t.name === key || t.tierId === key) ?? tiers.find((t) => t.name.toLowerCase() === key.toLowerCase());
      if (!tier) {
        if (tiers.length || opts.requirePrice)
          throw new ApiError('bad_request', `Unknown ticket tier "${key}"${tiers.length ? `; tiers: ${tiers.map((t) => t.name).join(', ')}` : ''}`, {
            details: [{ field: 'rentalDetails.tickets', message: `unknown tier ${key}` }],
          });
        lines.push({ tier: key, quantity: n, unitPrice: 0, seats: n, amount: 0 });
        continue;
      }
      lines.push({ tier: tier.name, quantity: n, unitPrice: cents(tier.price), seats: n * (tier.seats ?? 1), amount: n * cents(tier.price) });
    }
  } else {
    const n = demand.quantity ?? 1;
    const tier = standardTier(model);
    if (tier) lines.push({ tier: tier.name, quantity: n, unitPrice: cents(tier.price), seats: n * (tier.seats ?? 1), amount: n * cents(tier.price) });
    else lines.push({ tier: 'Guest', quantity: n, unitPrice: 0, seats: n, amount: 0 });
  }
  const participants = lines.reduce((s, l) => s + l.quantity, 0);
  const seats = lines.reduce((s, l) => s + l.seats, 0);
  // The party was asked for by tickets, or by quantity (standard-fare tickets): the refusal names that field.
  const partyField = Object.keys(demand.tickets ?? {}).length ? 'rentalDetails.tickets' : 'rentalDetails.quantity';
  if (participants < 1)
    throw new ApiError('bad_request', 'A tour booking needs at least one ticket', {
      details: [{ field: partyField, message: 'at least one ticket' }],
    });
  const min = tp?.minParticipants ?? 1;
  if (participants < min)
    throw new ApiError('bad_request', `This tour runs for parties of at least ${min}`, {
      details: [{ field: partyField, message: `at least ${min} participants` }],
    });
  if (isPrivate) {
    const pp = tp?.privatePricing;
    if (!pp && opts.requirePrice) throw noPrice('this private charter');
    const amount = pp ? cents(pp.basePrice) + Math.max(0, participants - pp.baseHeadcount) * cents(pp.extraParticipantPrice ?? 0) : 0;
    return { amount, unit: 'charter', tickets: lines, seats: participants, participants, privateCharter: true };
  }
  if (opts.requirePrice && (!tp || !tiers.length)) throw noPrice('this tour');
  return { amount: lines.reduce((s, l) => s + l.amount, 0), unit: 'ticket', tickets: lines, seats, participants, privateCharter: false };
}

// ------------------------------------------------------------------------------------------------
// Add-ons, discounts, taxes

export interface AddonSelection {
  addonId: string;
  quantity?: number;
}

/**
 * Prices the chosen add-ons. `flat`: price x quantity; `per_hour`: x hours; `per_day`: x days
 * (local dates touched); `per_person`: price x quantity, the quantity defaulting to the party size.
 */
export function priceAddons(
  selections: AddonSelection[],
  catalog: { def: AddonDef; global: boolean }[],
  basis: { hours: number; days: number; participants: number; globalOnly?: boolean },
): AddonLine[] {
  const out: AddonLine[] = [];
  for (const sel of selections) {
    const hit = catalog.find((c) => c.def.addonId === sel.addonId && (!basis.globalOnly || c.global));
    if (!hit)
      throw new ApiError('bad_request', `Unknown add-on "${sel.addonId}"${basis.globalOnly ? ' (not a global add-on of this location)' : ' for this item'}`, {
        details: [{ field: basis.globalOnly ? 'globalAddons' : 'selectedBoatAddons', message: `unknown addon ${sel.addonId}` }],
      });
    const def = hit.def;
    const quantity = sel.quantity ?? (def.priceType === 'per_person' ? basis.participants : 1);
    if (quantity < 1 || quantity > (def.maxQuantity ?? 10))
      throw new ApiError('bad_request', `Add-on "${def.name}": quantity must be between 1 and ${def.maxQuantity ?? 10}`, {
        details: [{ field: 'addons', message: 'quantity out of range' }],
      });
    const unit = cents(def.price);
    const factor = def.priceType === 'per_hour' ? basis.hours : def.priceType === 'per_day' ? basis.days : 1;
    out.push({
      addonId: def.addonId,
      name: def.name,
      priceType: def.priceType,
      unitPrice: unit,
      quantity,
      amount: Math.round(unit * factor * quantity),
      taxable: def.taxable !== false,
      global: hit.global,
    });
  }
  return out;
}

export interface OrderDiscount {
  type: Discount['type'];
  code?: string;
  percent?: number;
  /** A fixed amount off the whole order (cents), shared across lines by their value. */
  amount?: number;
}

export interface LineInput {
  unit: LineQuote['unit'];
  hours: number;
  days: number;
  season: string | null;
  rental: number;
  tickets?: TicketLine[];
  addons: AddonLine[];
  taxes: { name: string; rate: number; appliesTo: 'all' | 'rental' | 'addons' }[];
  /** Percent off this line only (a bundle's discount). */
  linePercent?: number;
}

function taxesOf(line: LineInput, rentalBase: number, addonsTaxableBase: number): TaxLine[] {
  return line.taxes.map((t) => {
    const base = t.appliesTo === 'rental' ? rentalBase : t.appliesTo === 'addons' ? addonsTaxableBase : rentalBase + addonsTaxableBase;
    return { name: t.name, rate: t.rate, appliesTo: t.appliesTo, amount: Math.round((Math.max(0, base) * t.rate) / 100) };
  });
}

/**
 * Prices an order: per line the subtotal (rental + add-ons), its discounts (bundle percent on the
 * line, order discounts as percent of each line or a fixed amount shared by value), taxes on what
 * remains (the discount shared between rental and add-ons by value) and the tip on the first line.
 */
export function quoteOrder(lines: LineInput[], opts: { discounts?: OrderDiscount[]; tip?: number }): LineQuote[] {
  const subtotals = lines.map((l) => l.rental + l.addons.reduce((s, a) => s + a.amount, 0));
  const lineDiscounts: Discount[][] = lines.map((l, i) =>
    l.linePercent ? [{ type: 'bundle' as const, percent: l.linePercent, amount: Math.round((subtotals[i] * l.linePercent) / 100) }] : [],
  );
  for (const d of opts.discounts ?? []) {
    if (d.percent != null) {
      lines.forEach((_, i) => {
        const left = subtotals[i] - lineDiscounts[i].reduce((s, x) => s + x.amount, 0);
        lineDiscounts[i].push({ type: d.type, code: d.code, percent: d.percent, amount: Math.round((left * d.percent!) / 100) });
      });
    } else if (d.amount != null) {
      const lefts = lines.map((_, i) => Math.max(0, subtotals[i] - lineDiscounts[i].reduce((s, x) => s + x.amount, 0)));
      const pool = lefts.reduce((s, x) => s + x, 0);
      const shares = shareByWeight(Math.min(d.amount, pool), lefts);
      lines.forEach((_, i) => lineDiscounts[i].push({ type: d.type, code: d.code, amount: shares[i] }));
    }
  }
  return lines.map((l, i) => {
    const subtotal = subtotals[i];
    const discountTotal = Math.min(
      subtotal,
      lineDiscounts[i].reduce((s, x) => s + x.amount, 0),
    );
    const addonsTotal = l.addons.reduce((s, a) => s + a.amount, 0);
    const addonsTaxable = l.addons.filter((a) => a.taxable).reduce((s, a) => s + a.amount, 0);
    const rentalDiscount = subtotal ? Math.round((discountTotal * l.rental) / subtotal) : 0;
    const addonsDiscount = discountTotal - rentalDiscount;
    const addonsTaxableDiscount = addonsTotal ? Math.round((addonsDiscount * addonsTaxable) / addonsTotal) : 0;
    const taxes = taxesOf(l, l.rental - rentalDiscount, addonsTaxable - addonsTaxableDiscount);
    const taxTotal = taxes.reduce((s, t) => s + t.amount, 0);
    const tip = i === 0 ? Math.max(0, opts.tip ?? 0) : 0;
    return {
      unit: l.unit,
      hours: l.hours,
      days: l.days,
      season: l.season,
      rental: l.rental,
      ...(l.tickets ? { tickets: l.tickets } : {}),
      addons: l.addons,
      subtotal,
      discounts: lineDiscounts[i].filter((d) => d.amount > 0),
      discountTotal,
      taxes,
      taxTotal,
      tip,
      total: subtotal - discountTotal + taxTotal + tip,
    };
  });
}

/**
 * A price set by a reseller: `total` is tax-inclusive; the pre-tax part is total / (1 + rate) and
 * the tax is split across the item's taxes by rate.
 */
export function quoteFromTotal(total: number, base: Pick<LineInput, 'hours' | 'days' | 'season' | 'taxes' | 'tickets'>, tip = 0): LineQuote {
  const rate = base.taxes.reduce((s, t) => s + t.rate, 0);
  const pre = Math.round(total / (1 + rate / 100));
  const taxTotal = total - pre;
  let left = taxTotal;
  const taxes = base.taxes.map((t, i) => {
    const amount = i === base.taxes.length - 1 ? left : rate ? Math.round((taxTotal * t.rate) / rate) : 0;
    left -= amount;
    return { name: t.name, rate: t.rate, appliesTo: t.appliesTo, amount };
  });
  return {
    unit: 'override',
    hours: base.hours,
    days: base.days,
    season: base.season,
    rental: pre,
    ...(base.tickets ? { tickets: base.tickets } : {}),
    addons: [],
    subtotal: pre,
    discounts: [],
    discountTotal: 0,
    taxes,
    taxTotal,
    tip,
    total: total + tip,
  };
}

/** Loyalty points: one per whole dollar of the pre-tax total (after discounts, without tip). */
export const loyaltyPointsFor = (q: Pick<LineQuote, 'subtotal' | 'discountTotal'>) => Math.max(0, Math.floor((q.subtotal - q.discountTotal) / 100));

/** Money out of the API: dollars with two decimals. */
/** Cents to dollars (the API speaks dollars). */
export const dollars = toDollars;

export function quoteOut(q: LineQuote) {
  return {
    unit: q.unit,
    hours: Math.round(q.hours * 100) / 100,
    days: q.days,
    season: q.season,
    rental: dollars(q.rental),
    ...(q.tickets ? { tickets: q.tickets.map((t) => ({ ...t, unitPrice: dollars(t.unitPrice), amount: dollars(t.amount) })) } : {}),
    addons: q.addons.map((a) => ({ ...a, unitPrice: dollars(a.unitPrice), amount: dollars(a.amount) })),
    subtotal: dollars(q.subtotal),
    discounts: q.discounts.map((d) => ({ ...d, amount: dollars(d.amount) })),
    discountTotal: dollars(q.discountTotal),
    taxes: q.taxes.map((t) => ({ ...t, amount: dollars(t.amount) })),
    taxTotal: dollars(q.taxTotal),
    tip: dollars(q.tip),
    total: dollars(q.total),
  };
}
