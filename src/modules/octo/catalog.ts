/**
 * How Berth's items become OCTO products (one product per item offered to the key, with the
 * item's id):
 *
 * - a tour is a START_TIME product with one option `DEFAULT` whose start times are its departures;
 *   its units are the fare tiers (Adult, Child, ...: type from the tier's name, ages from the tier);
 *   a private charter is priced per booking (party-size pricing: the base price covers the base
 *   headcount, each extra guest adds the extra price) with one unit `guest`;
 * - a rental with hourly prices is a START_TIME product with one option per allowed duration
 *   (`PT2H`, `PT4H`, ...) plus `FULL_DAY` when it has day rates; its one unit `unit` is one rented
 *   asset (a boat); start times step by the item's slot interval within the opening hours;
 * - a rental by the day only (`fullDayOnly`, or day rates without hourly ones) is an OPENING_HOURS
 *   product with one option `FULL_DAY` covering the opening hours.
 */
import { WEEKDAY_NAMES, type InventoryModel } from '../inventory/types';
import type { ItemContext } from '../availability/service';
import type { ConnectionRow } from '../channel/service';
import { narrowedTaxes } from '../channel/service';

export type UnitType = 'ADULT' | 'YOUTH' | 'CHILD' | 'INFANT' | 'FAMILY' | 'SENIOR' | 'STUDENT' | 'MILITARY' | 'OTHER';

export interface UnitDef {
  id: string;
  name: string;
  type: UnitType;
  minAge: number;
  maxAge: number;
  paxCount: number;
  /** Seats a unit takes on a tour departure (0 for an infant on a lap); 1 asset for rentals. */
  seats: number;
  /** The fare tier (tours), by the key the pricing reads. */
  tierKey: string | null;
  /** Pre-tax price of one unit in cents (tier fare); null for rentals (priced per window) and private charters. */
  priceCents: number | null;
}

export interface OptionDef {
  id: string;
  name: string;
  isDefault: boolean;
  kind: 'departure' | 'duration' | 'full_day';
  /** Rental duration in minutes (kind `duration`). */
  minutes: number | null;
  startTimes: string[];
}

export interface ProductDef {
  it: ItemContext;
  conn: ConnectionRow;
  kind: 'tour' | 'rental';
  privateCharter: boolean;
  availabilityType: 'START_TIME' | 'OPENING_HOURS';
  pricingPer: 'UNIT' | 'BOOKING';
  options: OptionDef[];
  units: UnitDef[];
  currency: string;
  minUnits: number;
  maxUnits: number | null;
  taxes: { name: string; rate: number }[];
  commissionRate: number;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'unit';

function unitTypeOf(name: string): UnitType {
  const n = name.toLowerCase();
  if (/infant|baby|toddler/.test(n)) return 'INFANT';
  if (/child|kid/.test(n)) return 'CHILD';
  if (/youth|teen|junior/.test(n)) return 'YOUTH';
  if (/senior|elder/.test(n)) return 'SENIOR';
  if (/student/.test(n)) return 'STUDENT';
  if (/military|veteran/.test(n)) return 'MILITARY';
  if (/family/.test(n)) return 'FAMILY';
  if (/adult/.test(n)) return 'ADULT';
  return 'OTHER';
}

/** Opening hours by weekday as the model sets them (08:00-18:00 when absent); null on a closed weekday. */
function weekHours(m: InventoryModel): ({ open: string; close: string } | null)[] {
  return WEEKDAY_NAMES.map((d) => {
    if (!m.operatingHours) return { open: '08:00', close: '18:00' };
    const h = m.operatingHours[d];
    return h && !h.closed ? { open: h.open, close: h.close } : null;
  });
}

const dayLength = (h: { open: string; close: string }) => {
  const len = toMinutes(h.close) - toMinutes(h.open);
  return len > 0 ? len : len + 24 * 60;
};

/** Start times of a rental of `minutes` on a typical week: every slot interval from opening while the rental fits before closing. */
function rentalStartTimes(m: InventoryModel, minutes: number): string[] {
  const step = Math.max(5, m.slotIntervalMinutes ?? 60);
  const out = new Set<string>();
  for (const h of weekHours(m)) {
    if (!h) continue;
    const open = toMinutes(h.open);
    for (let t = open; t < 24 * 60 && t - open + minutes <= dayLength(h); t += step) out.add(fromMinutes(t));
  }
  return [...out].sort();
}

function durationOptionId(minutes: number) {
  return minutes % 60 === 0 ? `PT${minutes / 60}H` : `PT${minutes}M`;
}

function hoursLabel(minutes: number) {
  const h = minutes / 60;
  return `${Number.isInteger(h) ? h : h.toFixed(1)} hour${h === 1 ? '' : 's'}`;
}

/** The allowed rental durations in minutes: the item's `durations`, else every whole hour within its hourly rules' minimum and maximum. */
function rentalDurations(m: InventoryModel): number[] {
  if (m.durations?.length) return [...new Set(m.durations.map((h) => Math.round(h * 60)))].sort((a, b) => a - b);
  const rules = (m.seasons ?? []).flatMap((s) => Object.values(s.hourlyPrices ?? {})) as { minimumHours?: number; maximumHours?: number }[];
  const min = Math.max(1, Math.ceil(Math.min(...rules.map((r) => r.minimumHours ?? 1))));
  const max = Math.min(12, Math.floor(Math.max(...rules.map((r) => (r.maximumHours && r.maximumHours > 0 ? r.maximumHours : 8)))));
  const out: number[] = [];
  for (let h = min; h <= max; h++) out.push(h * 60);
  return out;
}

/** The OCTO product of an item offered through a connection. */
export function productDef(it: ItemContext, conn: ConnectionRow): ProductDef {
  const m = it.item.model;
  const { taxes } = narrowedTaxes(m);
  const base = { it, conn, currency: it.currency, taxes, commissionRate: conn.commissionRate ?? 0 };
  if (it.item.kind === 'tour') {
    const tp = m.tourPricing;
    const privateCharter = !!tp?.isPrivate;
    const startTimes = [...new Set((m.timeSlots ?? []).map((s) => s.time))].sort();
    const options: OptionDef[] = [{ id: 'DEFAULT', name: it.row.name, isDefault: true, kind: 'departure', minutes: null, startTimes }];
    const tiers = tp?.priceTiers ?? [];
    const units: UnitDef[] =
      privateCharter || !tiers.length
        ? [{ id: 'guest', name: 'Guest', type: 'ADULT', minAge: 0, maxAge: 120, paxCount: 1, seats: 1, tierKey: null, priceCents: null }]
        : tiers.map((t) => ({
            id: t.tierId ?? slug(t.name),
            name: t.name,
            type: unitTypeOf(t.name),
            minAge: t.minAge ?? 0,
            maxAge: t.maxAge ?? 120,
            paxCount: 1,
            seats: t.seats ?? 1,
            tierKey: t.tierId ?? t.name,
            priceCents: Math.round(t.price * 100),
          }));
    return {
      ...base,
      kind: 'tour',
      privateCharter,
      availabilityType: 'START_TIME',
      pricingPer: privateCharter ? 'BOOKING' : 'UNIT',
      options,
      units,
      minUnits: tp?.minParticipants ?? 1,
      maxUnits: privateCharter ? m.capacity || null : null,
    };
  }
  const seasons = m.seasons ?? [];
  const hasHourly = seasons.some((s) => Object.keys(s.hourlyPrices ?? {}).length > 0);
  const hasDaily = seasons.some((s) => Object.keys(s.dailyPrices ?? {}).length > 0);
  const opens = [...new Set(weekHours(m).flatMap((h) => (h ? [h.open] : [])))].sort();
  const fullDay: OptionDef = { id: 'FULL_DAY', name: 'Full day', isDefault: false, kind: 'full_day', minutes: null, startTimes: opens };
  const assets = it.item.assets.filter((a) => a.status === 'active').length;
  const units: UnitDef[] = [
    { id: 'unit', name: it.row.name, type: 'OTHER', minAge: 0, maxAge: 120, paxCount: Math.max(1, m.capacity || 1), seats: 1, tierKey: null, priceCents: null },
  ];
  const rental = { ...base, kind: 'rental' as const, privateCharter: false, pricingPer: 'UNIT' as const, units, minUnits: 1, maxUnits: assets || null };
  if (m.fullDayOnly || !hasHourly) {
    return { ...rental, availabilityType: 'OPENING_HOURS', options: [{ ...fullDay, isDefault: true, startTimes: [] }] };
  }
  const longest = Math.max(0, ...weekHours(m).map((h) => (h ? dayLength(h) : 0)));
  const options: OptionDef[] = rentalDurations(m)
    .filter((min) => min <= longest)
    .map((min) => ({
      id: durationOptionId(min),
      name: hoursLabel(min),
      isDefault: false,
      kind: 'duration' as const,
      minutes: min,
      startTimes: rentalStartTimes(m, min),
    }))
    .filter((o) => o.startTimes.length);
  if (hasDaily) options.push(fullDay);
  if (options.length) options[0].isDefault = true;
  return { ...rental, availabilityType: 'START_TIME', options };
}

/** An option of a product, or null. */
export const optionOf = (def: ProductDef, optionId: string) => def.options.find((o) => o.id === optionId) ?? null;
