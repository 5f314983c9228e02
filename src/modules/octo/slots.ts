/**
 * OCTO availabilities of a product option, from the same engine as every other sales path
 * (`availabilityOf` with the channel's sales rules: minimum notice, advance window, opening hours,
 * departures, holds, drydock, maintenance, capacity overrides), and the prices of units (octo/pricing).
 */
import type { Ctx } from '../../lib/context';
import { addDays, dayBounds, localDate, localTime, zoneOffsetMs } from '../../lib/time';
import {
  allocationToBusy,
  availabilityOf,
  departuresOn,
  existingWallTime,
  loadAllocationsFor,
  maintenanceBusy,
  openingBounds,
  type Busy,
} from '../availability/service';
import { merchantCtx, type ChannelPrincipal } from '../channel/service';
import { rentalUnitPrice } from '../bookings/service';
import type { OptionDef, ProductDef, UnitDef } from './catalog';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export type SlotStatus = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';

export interface Slot {
  /** The OCTO availability id: the local start with its offset. */
  id: string;
  date: string;
  start: number;
  end: number;
  localStart: string;
  localEnd: string;
  allDay: boolean;
  openingHours: { from: string; to: string }[];
  capacity: number;
  vacancies: number;
  status: SlotStatus;
  available: boolean;
  utcCutoffAt: string;
}

/** Units wanted, as the engine counts them: seats of a tour, assets of a rental. */
export interface Demand {
  seats?: number;
  quantity?: number;
  privateCharter?: boolean;
}

/** `+HH:MM` / `-HH:MM` of the zone at an instant. */
export function offsetOf(t: number, tz: string): string {
  const o = Math.round(zoneOffsetMs(t, tz) / MIN);
  const a = Math.abs(o);
  return `${o < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** An instant as OCTO's local date-time: `2026-07-04T10:00:00-04:00`. */
export const localDateTime = (t: number, tz: string) => `${localDate(t, tz)}T${localTime(t, tz)}:00${offsetOf(t, tz)}`;

/** An instant as OCTO's UTC timestamp: `2026-07-04T14:00:00Z` (seconds, no fraction). */
export const utc = (t: number) => `${new Date(t).toISOString().slice(0, 19)}Z`;

const CLOSED_REASONS = new Set(['in_past', 'minimum_notice', 'too_far_ahead', 'closed', 'outside_hours', 'no_departure', 'blocked']);

/** The time windows an option offers on a local date (before checking what is free). */
export function windowsOn(def: ProductDef, option: OptionDef, date: string): { start: number; end: number; openingHours: { from: string; to: string }[] }[] {
  const item = def.it.item;
  const tz = item.timezone;
  if (option.kind === 'departure') return departuresOn(item, date).map((d) => ({ start: d.start, end: d.end, openingHours: [] }));
  const b = openingBounds(item, date);
  if (!b) return [];
  const hours = [{ from: b.openTime, to: b.closeTime }];
  if (option.kind === 'full_day') return [{ start: b.open, end: b.close, openingHours: hours }];
  const len = (option.minutes ?? 60) * MIN;
  const step = Math.max(5, item.model.slotIntervalMinutes ?? 60);
  const out: { start: number; end: number; openingHours: { from: string; to: string }[] }[] = [];
  const seen = new Set<number>();
  const first = Number(b.openTime.slice(0, 2)) * 60 + Number(b.openTime.slice(3, 5));
  for (let m = first; m < 24 * 60; m += step) {
    const time = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const start = existingWallTime(date, time, tz);
    if (start == null) continue;
    if (start + len > b.close) break;
    if (seen.has(start)) continue;
    seen.add(start);
    out.push({ start, end: start + len, openingHours: [] });
  }
  return out;
}

/** The busy time of an item over local dates (allocations, holds, drydock, maintenance), read once. */
async function busyOver(ctx: Ctx, def: ProductDef, first: string, last: string, now: number): Promise<Busy[]> {
  const tz = def.it.item.timezone;
  const from = dayBounds(first, tz).start - DAY;
  const to = dayBounds(last, tz).end + DAY;
  const rows = (await loadAllocationsFor(ctx.db, [{ id: def.it.row.id, customerId: def.it.row.customerId }], from, to, now)).get(def.it.row.id) ?? [];
  return [...rows.map(allocationToBusy), ...maintenanceBusy(def.it.item)];
}

/** Every date from `first` to `last` (inclusive). */
export function datesBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = first; d <= last && out.length < 400; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The availabilities of an option over local dates. Past starts are left out; a start the sales
 * rules refuse (minimum notice, advance window, out of service) is CLOSED; SOLD_OUT when nothing
 * is left; LIMITED when less than half the capacity is left; `available` when the demand fits.
 */
export async function slotsFor(ctx: Ctx, p: ChannelPrincipal, def: ProductDef, option: OptionDef, dates: string[], demand: Demand = {}): Promise<Slot[]> {
  if (!dates.length) return [];
  // The seller's context and clock: past starts are those before the seller's "now".
  const mctx = await merchantCtx(ctx, p, def.conn);
  const now = mctx.clock.now();
  const tz = def.it.item.timezone;
  const busy = await busyOver(ctx, def, dates[0], dates[dates.length - 1], now);
  const isTour = def.kind === 'tour';
  const pool = def.it.item.assets.filter((a) => a.status === 'active').length;
  const notice = (def.it.item.model.minimumNoticeHours ?? 0) * HOUR;
  const out: Slot[] = [];
  for (const date of dates) {
    for (const w of windowsOn(def, option, date)) {
      if (w.start < now) continue;
      const a = await availabilityOf(
        mctx,
        def.it,
        {
          start: w.start,
          end: w.end,
          source: 'channel',
          ...(isTour ? { seats: Math.max(1, demand.seats ?? 1) } : { quantity: Math.max(1, demand.quantity ?? 1) }),
        },
        busy,
      );
      const capacity = isTour ? (a.capacity ?? 0) : pool;
      const vacancies = Math.max(0, isTour ? (a.seatsFree ?? 0) : (a.unitsFree ?? 0));
      const closed = (a.reasons ?? []).some((r) => CLOSED_REASONS.has(r.code));
      const status: SlotStatus = closed ? 'CLOSED' : vacancies === 0 ? 'SOLD_OUT' : vacancies * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
      const wanted = isTour ? (demand.privateCharter ? capacity : Math.max(1, demand.seats ?? 1)) : Math.max(1, demand.quantity ?? 1);
      const allDay = def.availabilityType === 'OPENING_HOURS';
      const dayStart = allDay ? dayBounds(date, tz) : null;
      out.push({
        id: localDateTime(dayStart ? dayStart.start : w.start, tz),
        date,
        start: w.start,
        end: w.end,
        localStart: localDateTime(dayStart ? dayStart.start : w.start, tz),
        localEnd: localDateTime(dayStart ? dayStart.end : w.end, tz),
        allDay,
        openingHours: w.openingHours,
        capacity,
        vacancies,
        status,
        available: (status === 'AVAILABLE' || status === 'LIMITED') && vacancies >= wanted,
        utcCutoffAt: utc(w.start - notice),
      });
    }
  }
  return out;
}

/** The slot of an availability id (`2026-07-04T10:00:00-04:00`), checked against the option's windows of that date; null when it is none. */
export async function slotById(ctx: Ctx, p: ChannelPrincipal, def: ProductDef, option: OptionDef, availabilityId: string, demand: Demand = {}) {
  const m = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)$/.exec(availabilityId);
  if (!m) return null;
  const slots = await slotsFor(ctx, p, def, option, [m[1]], demand);
  return slots.find((s) => s.id === availabilityId || s.localStart === availabilityId) ?? null;
}

// ------------------------------------------------------------------------------------------------
// Prices (cents): retail is what the guest pays (tax included), net what the reseller owes the
// operator (retail minus the connection's commission on the pre-tax price), as the channel settles.

export interface Price {
  pre: number;
  retail: number;
  net: number;
  tax: number;
  taxes: { name: string; retail: number; net: number }[];
}

export function priceOf(def: ProductDef, preTax: number): Price {
  const taxes = def.taxes.map((t) => {
    const amount = Math.round((preTax * t.rate) / 100);
    return { name: t.name, retail: amount, net: amount };
  });
  const tax = taxes.reduce((s, t) => s + t.retail, 0);
  const retail = preTax + tax;
  return { pre: preTax, retail, net: retail - Math.round((preTax * def.commissionRate) / 100), tax, taxes };
}

export const sumPrices = (list: Price[]): Price => ({
  pre: list.reduce((s, p) => s + p.pre, 0),
  retail: list.reduce((s, p) => s + p.retail, 0),
  net: list.reduce((s, p) => s + p.net, 0),
  tax: list.reduce((s, p) => s + p.tax, 0),
  taxes: list
    .flatMap((p) => p.taxes)
    .reduce<{ name: string; retail: number; net: number }[]>((acc, t) => {
      const hit = acc.find((a) => a.name === t.name);
      if (hit) {
        hit.retail += t.retail;
        hit.net += t.net;
      } else acc.push({ ...t });
      return acc;
    }, []),
});

/** OCTO's pricing object of a price. */
export function pricingOut(p: Price, currency: string) {
  return {
    original: p.retail,
    retail: p.retail,
    net: p.net,
    currency: currency.toUpperCase(),
    currencyPrecision: 2,
    includedTaxes: p.taxes.map((t) => ({ name: t.name, retail: t.retail, original: t.retail, net: t.net })),
  };
}

/** Pre-tax price of one unit for a window (cents), or null when the operator set no price for it. */
export function unitPreTax(def: ProductDef, unit: UnitDef, start: number, end: number): number | null {
  if (def.kind === 'tour') return unit.priceCents;
  try {
    return rentalUnitPrice(def.it.item, start, end).amount;
  } catch {
    return null;
  }
}

/** A private charter's price for a headcount: the base price covers the base headcount, each extra guest adds the extra price. */
export function charterPreTax(def: ProductDef, guests: number): number | null {
  const pp = def.it.item.model.tourPricing?.privatePricing;
  if (!pp) return null;
  return Math.round(pp.basePrice * 100) + Math.max(0, guests - pp.baseHeadcount) * Math.round((pp.extraParticipantPrice ?? 0) * 100);
}

/** The lowest pre-tax unit price of an option over the next week (rentals vary by weekday and season), for `pricingFrom`. */
export function unitPreTaxFrom(def: ProductDef, option: OptionDef, unit: UnitDef, now: number): number | null {
  if (def.kind === 'tour') return def.privateCharter ? charterPreTax(def, def.it.item.model.tourPricing?.privatePricing?.baseHeadcount ?? 1) : unit.priceCents;
  const tz = def.it.item.timezone;
  let best: number | null = null;
  for (let i = 1; i <= 7; i++) {
    const date = localDate(now + i * DAY, tz);
    const w = windowsOn(def, option, date)[0];
    if (!w) continue;
    const p = unitPreTax(def, unit, w.start, w.end);
    if (p != null && (best == null || p < best)) best = p;
  }
  return best;
}
