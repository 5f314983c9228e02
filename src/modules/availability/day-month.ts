import { addDays, localTime, toWallTime, wallTimeToUtc, weekdayOf, datesOfMonth } from '../../lib/time';
import { overlaps } from './intervals';
import type { Busy, EngineItem, ReasonCode } from './engine-types';
import { capacityOverride, departuresOn, openingOn, rentalSlotsOn } from './calendar';
import { checkWindow, liveBusy } from './windows';

// ------------------------------------------------------------------------------------------------
// Day and month views

export interface DaySlot {
  time: string;
  start: number;
  end: number;
  available: boolean;
  /** Rentals: assets free for this slot; null for tours. */
  unitsFree: number | null;
  seatsFree?: number;
  capacity: number;
  reasons?: ReasonCode[];
}

export interface DayView {
  date: string;
  closed: boolean;
  open: string | null;
  close: string | null;
  slots: DaySlot[];
  /** Busy intervals of the day (no renter data): booked, held or blocked, per asset for rentals. */
  busy: { start: number; end: number; assetId: string | null; kind: 'booked' | 'held' | 'blocked'; seats?: number }[];
}

export function dayAvailability(item: EngineItem, allBusy: Busy[], date: string, opts: { now: number; enforceRules?: boolean }): DayView {
  const busy = liveBusy(allBusy, opts.now);
  const { start: dayStart, end: dayEnd } = { start: wallTimeToUtc(date, '00:00', item.timezone), end: wallTimeToUtc(addDays(date, 1), '00:00', item.timezone) };
  const busyOut: DayView['busy'] = busy
    .filter((b) => overlaps(b.start, b.end, dayStart, dayEnd))
    .sort((a, b) => a.start - b.start)
    .map((b) => ({
      start: b.start,
      end: b.end,
      assetId: b.assetId,
      kind: b.kind === 'drydock' || b.kind === 'maintenance' ? ('blocked' as const) : b.kind === 'hold' ? ('held' as const) : ('booked' as const),
      ...(item.kind === 'tour' && b.assetId == null && b.kind !== 'drydock' && b.kind !== 'maintenance' ? { seats: b.seats } : {}),
    }));
  if (item.kind === 'tour') {
    const deps = departuresOn(item, date);
    const slots: DaySlot[] = deps.map((d) => {
      const c = checkWindow(item, busy, { start: d.start, end: d.end, seats: 1, now: opts.now, enforceRules: opts.enforceRules });
      return {
        time: d.time,
        start: d.start,
        end: d.end,
        available: c.available,
        unitsFree: null,
        seatsFree: c.seatsFree ?? 0,
        capacity: d.capacity,
        ...(c.available ? {} : { reasons: c.reasons.map((r) => r.code) }),
      };
    });
    return {
      date,
      closed: deps.length === 0,
      open: deps[0]?.time ?? null,
      close: deps.length ? localTime(deps[deps.length - 1].end, item.timezone) : null,
      slots,
      busy: busyOut,
    };
  }
  const opening = openingOn(item, date);
  const active = item.assets.filter((a) => a.status === 'active').length;
  const slots: DaySlot[] = rentalSlotsOn(item, date).map((s) => {
    const c = checkWindow(item, busy, { start: s.start, end: s.end, quantity: 1, now: opts.now, enforceRules: opts.enforceRules });
    return {
      time: s.time,
      start: s.start,
      end: s.end,
      available: c.available,
      unitsFree: c.unitsFree ?? 0,
      capacity: capacityOverride(item, date) ?? active,
      ...(c.available ? {} : { reasons: c.reasons.map((r) => r.code) }),
    };
  });
  return { date, closed: !opening, open: opening?.open ?? null, close: opening?.close ?? null, slots, busy: busyOut };
}

export type DayStatus = 'available' | 'sold_out' | 'closed' | 'unavailable';

export interface DaySummary {
  date: string;
  weekday: string;
  status: DayStatus;
  available: boolean;
  slotsTotal: number;
  slotsAvailable: number;
  /** Rentals: the most assets free in any slot of the day; tours: null. */
  unitsFree: number | null;
  /** Tours: seats left over all departures of the day. */
  seatsFree?: number;
}

const RULE_REASONS = new Set<ReasonCode>(['in_past', 'minimum_notice', 'too_far_ahead']);

export function summarizeDay(item: EngineItem, view: DayView): DaySummary {
  const open = view.slots.filter((s) => s.available);
  // Closed: nothing runs. Available: a slot can be booked. Unavailable: every slot is ruled out
  // by time (past, notice, advance window). Sold out: otherwise (taken or blocked).
  const status: DayStatus =
    view.closed || !view.slots.length
      ? 'closed'
      : open.length
        ? 'available'
        : view.slots.every((s) => s.reasons?.some((r) => RULE_REASONS.has(r)))
          ? 'unavailable'
          : 'sold_out';
  const base = {
    date: view.date,
    weekday: weekdayOf(view.date),
    status,
    available: open.length > 0,
    slotsTotal: view.slots.length,
    slotsAvailable: open.length,
  };
  if (item.kind === 'tour') return { ...base, unitsFree: null, seatsFree: open.reduce((n, s) => n + (s.seatsFree ?? 0), 0) };
  return { ...base, unitsFree: open.reduce((n, s) => Math.max(n, s.unitsFree ?? 0), 0) };
}

/** Margin around a local day inside which a busy interval can matter to that day's slots. */
const DAY_MARGIN_MS = 2 * 86_400_000;

/**
 * Splits busy intervals into one list per date: an interval goes to every date whose
 * [start - 2 days, end + 2 days) it overlaps (slots, buffers and departures of a day never reach
 * further). A month view then checks each slot against that day's few intervals instead of the
 * whole month's, with the same answers.
 */
export function busyByDate(item: EngineItem, busy: Busy[], dates: string[]): Map<string, Busy[]> {
  const out = new Map<string, Busy[]>(dates.map((d) => [d, []]));
  if (!dates.length) return out;
  const starts = dates.map((d) => wallTimeToUtc(d, '00:00', item.timezone));
  const ends = dates.map((d) => wallTimeToUtc(addDays(d, 1), '00:00', item.timezone));
  const lo = (i: number) => starts[i] - DAY_MARGIN_MS;
  const hi = (i: number) => ends[i] + DAY_MARGIN_MS;
  for (const b of busy) {
    const from = Math.min(b.blockedStart, b.start);
    const to = Math.max(b.blockedEnd, b.end);
    // First date whose window ends after `from` (dates are ordered): binary search.
    let l = 0;
    let r = dates.length;
    while (l < r) {
      const m = (l + r) >> 1;
      if (hi(m) <= from) l = m + 1;
      else r = m;
    }
    for (let i = l; i < dates.length && lo(i) < to; i++) out.get(dates[i])!.push(b);
  }
  return out;
}

/** Every day of a month `YYYY-MM`: status, slots free, units or seats left. */
export function monthAvailability(item: EngineItem, busy: Busy[], month: string, opts: { now: number; enforceRules?: boolean; withSlots?: boolean }) {
  const dates = datesOfMonth(month);
  const perDate = busyByDate(item, liveBusy(busy, opts.now), dates);
  return dates.map((date) => {
    const view = dayAvailability(item, perDate.get(date)!, date, opts);
    return { ...summarizeDay(item, view), ...(opts.withSlots ? { slots: view.slots } : {}) };
  });
}

/** Instant bounds of a month in the item's zone (first local midnight to the next month's). */
export function monthBounds(month: string, tz: string): { start: number; end: number } {
  const dates = datesOfMonth(month);
  return { start: wallTimeToUtc(dates[0], '00:00', tz), end: wallTimeToUtc(addDays(dates[dates.length - 1], 1), '00:00', tz) };
}

/** Wall-clock fields of an instant in the item's zone (re-exported for callers rendering times). */
export const wallOf = (item: EngineItem, t: number) => toWallTime(t, item.timezone);
