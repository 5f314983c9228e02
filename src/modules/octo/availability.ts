/**
 * Availability check and calendar of a product option, answered by the same engine as every other
 * sales path (see slots.ts). Times are local with their offset; `utcCutoffAt` is UTC.
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import type { OctoCaller } from './auth';
import type { ProductDef, UnitDef } from './catalog';
import { octoFail } from './errors';
import { optionOrFail } from './holds';
import { findProduct } from './queries';
import { openingOn } from '../availability/service';
import { charterPreTax, datesBetween, slotsFor, unitPreTax, windowsOn, type Demand, type Slot } from './slots';
import { availabilityOut, slotPricing } from './views';
import type { AvailabilityCalendarBody, AvailabilityCheckBody } from './schemas';

const MAX_CHECK_DAYS = 90;
const MAX_CALENDAR_DAYS = 366;

const bad = (message: string) => new ApiError('bad_request', message);

/** The demand of `units` ([{id, quantity}]), for the engine. */
function demandOfUnits(def: ProductDef, units: { id: string; quantity: number }[] | undefined): Demand & { count: number } {
  if (!units?.length) return { count: 1 };
  let seats = 0;
  let count = 0;
  for (const u of units) {
    const unit = def.units.find((x) => x.id === u.id);
    if (!unit) throw octoFail('INVALID_UNIT_ID', `The unitId was missing or invalid: ${u.id}`, { extra: { unitId: u.id } });
    seats += unit.seats * u.quantity;
    count += u.quantity;
  }
  return def.kind === 'tour' ? { seats: def.privateCharter ? count : seats, privateCharter: def.privateCharter, count } : { quantity: count, count };
}

function range(first: string, last: string, max: number) {
  if (last < first) throw bad('localDateEnd must not be before localDateStart');
  const dates = datesBetween(first, last);
  if (dates.length > max) throw bad(`Ask for at most ${max} days at a time`);
  return dates;
}

function pricingFor(def: ProductDef, slot: Pick<Slot, 'start' | 'end'>, count: number) {
  return slotPricing(
    def,
    slot,
    (u: UnitDef) => unitPreTax(def, u, slot.start, slot.end),
    def.pricingPer === 'BOOKING' ? charterPreTax(def, Math.max(count, def.minUnits)) : null,
  );
}

/** POST /octo/v1/availability: one of `localDate`, `localDateStart` + `localDateEnd`, or `availabilityIds`. */
export async function checkAvailability(ctx: Ctx, caller: OctoCaller, body: z.output<typeof AvailabilityCheckBody>) {
  const forms = [body.localDate != null, body.localDateStart != null || body.localDateEnd != null, body.availabilityIds != null].filter(Boolean).length;
  if (forms !== 1) throw bad('Give exactly one of localDate, localDateStart with localDateEnd, or availabilityIds');
  if ((body.localDateStart == null) !== (body.localDateEnd == null)) throw bad('localDateStart and localDateEnd go together');
  const def = await findProduct(ctx, caller.p, body.productId);
  const option = optionOrFail(def, body.optionId);
  const demand = demandOfUnits(def, body.units);
  let slots: Slot[];
  if (body.availabilityIds) {
    const dates = [...new Set(body.availabilityIds.map((id) => /^(\d{4}-\d{2}-\d{2})T/.exec(id)?.[1]).filter((d): d is string => !!d))].sort();
    if (dates.length > MAX_CHECK_DAYS) throw bad(`Ask for at most ${MAX_CHECK_DAYS} days at a time`);
    const all = await slotsFor(ctx, caller.p, def, option, dates, demand);
    slots = all.filter((s) => body.availabilityIds!.includes(s.id));
  } else {
    const first = body.localDate ?? body.localDateStart!;
    const last = body.localDate ?? body.localDateEnd!;
    slots = await slotsFor(ctx, caller.p, def, option, range(first, last, MAX_CHECK_DAYS), demand);
  }
  return slots.map((s) => availabilityOut(s, pricingFor(def, s, demand.count), caller));
}

/** The opening hours of a local date (also on a date whose start has passed): OPENING_HOURS products always show them. */
function hoursOn(def: ProductDef, date: string) {
  const o = openingOn(def.it.item, date);
  return o ? [{ from: o.open, to: o.close }] : [];
}

const RANK = { AVAILABLE: 3, LIMITED: 2, SOLD_OUT: 1, CLOSED: 0 } as const;

/** POST /octo/v1/availability/calendar: one line per local date (up to a year). */
export async function availabilityCalendar(ctx: Ctx, caller: OctoCaller, body: z.output<typeof AvailabilityCalendarBody>) {
  const def = await findProduct(ctx, caller.p, body.productId);
  const option = optionOrFail(def, body.optionId);
  const demand = demandOfUnits(def, body.units);
  const dates = range(body.localDateStart, body.localDateEnd, MAX_CALENDAR_DAYS);
  const slots = await slotsFor(ctx, caller.p, def, option, dates, demand);
  const byDate = new Map<string, Slot[]>();
  for (const s of slots) byDate.set(s.date, [...(byDate.get(s.date) ?? []), s]);
  return dates.map((date) => {
    const day = byDate.get(date) ?? [];
    const best = day.reduce<Slot | null>(
      (b, s) => (!b || RANK[s.status] > RANK[b.status] || (RANK[s.status] === RANK[b.status] && s.vacancies > b.vacancies) ? s : b),
      null,
    );
    const open = day.filter((s) => s.status !== 'CLOSED');
    // Every date carries its prices (octo/pricing), also a date with nothing left to sell: from its first window.
    const window = best ?? windowsOn(def, option, date)[0];
    const pricing = window
      ? pricingFor(def, window, demand.count)
      : def.pricingPer === 'UNIT'
        ? { unitPricing: [] }
        : pricingFor(def, { start: 0, end: 0 }, demand.count);
    const from =
      'unitPricing' in pricing ? { unitPricingFrom: pricing.unitPricing } : 'pricing' in pricing && pricing.pricing ? { pricingFrom: pricing.pricing } : {};
    return {
      localDate: date,
      available: day.some((s) => s.available),
      status: best?.status ?? 'CLOSED',
      vacancies: open.length ? Math.max(...open.map((s) => s.vacancies)) : 0,
      capacity: day.length ? Math.max(...day.map((s) => s.capacity)) : 0,
      openingHours: def.availabilityType === 'OPENING_HOURS' ? hoursOn(def, date) : [],
      ...(caller.capabilities.includes('octo/pricing') ? from : {}),
    };
  });
}
