import { addDays, localDate, localTime, wallTimeToUtc, weekdayOf } from '../../lib/time';
import { fromMinutes, MIN, toMinutes } from './intervals';
import type { Departure, EngineItem } from './engine-types';

/** The instant of a wall time, or null when that wall time does not exist on that date (DST gap). */
export function existingWallTime(date: string, time: string, tz: string): number | null {
  const t = wallTimeToUtc(date, time, tz);
  return localDate(t, tz) === date && localTime(t, tz) === time ? t : null;
}

export function exceptionOn(item: EngineItem, date: string) {
  return item.model.scheduleExceptions?.find((e) => e.date === date);
}

/** Opening hours of a rental on a local date (wall-clock), or null when closed. */
export function openingOn(item: EngineItem, date: string): { open: string; close: string } | null {
  const ex = exceptionOn(item, date);
  if (ex?.closed) return null;
  const weekday = weekdayOf(date);
  let open = '08:00';
  let close = '18:00';
  const hours = item.model.operatingHours;
  if (hours) {
    const day = hours[weekday];
    if (!day || day.closed) {
      if (!(ex?.open && ex?.close)) return null;
    } else {
      open = day.open;
      close = day.close;
    }
  }
  if (ex?.open) open = ex.open;
  if (ex?.close) close = ex.close;
  return { open, close };
}

/** Opening window of a local date as instants; a close at or before the opening means midnight or later. */
export function openingBounds(item: EngineItem, date: string): { open: number; close: number; openTime: string; closeTime: string } | null {
  const o = openingOn(item, date);
  if (!o) return null;
  const tz = item.timezone;
  const open = wallTimeToUtc(date, o.open, tz);
  const close = toMinutes(o.close) <= toMinutes(o.open) ? wallTimeToUtc(addDays(date, 1), o.close, tz) : wallTimeToUtc(date, o.close, tz);
  return { open, close, openTime: o.open, closeTime: o.close };
}

/** Capacity override of a date (and tour slot time): the slot's own first, then the whole day's. */
export function capacityOverride(item: EngineItem, date: string, time?: string): number | undefined {
  const list = item.model.capacityOverrides ?? [];
  if (time) {
    const own = list.find((c) => c.date === date && c.time === time);
    if (own) return own.capacity;
  }
  return list.find((c) => c.date === date && !c.time)?.capacity;
}

/** Departures of a tour on a local date, in start order. */
export function departuresOn(item: EngineItem, date: string): Departure[] {
  const ex = exceptionOn(item, date);
  if (ex?.closed) return [];
  const weekday = weekdayOf(date);
  const slots = (ex?.timeSlots ?? item.model.timeSlots ?? []).filter((s) => !s.weekdays?.length || s.weekdays.includes(weekday));
  const seen = new Set<number>();
  const out: Departure[] = [];
  for (const s of slots) {
    const start = existingWallTime(date, s.time, item.timezone);
    if (start == null || seen.has(start)) continue;
    seen.add(start);
    const capacity = capacityOverride(item, date, s.time) ?? s.capacity ?? item.model.capacity ?? 0;
    out.push({ slotId: s.slotId ?? null, time: s.time, date, start, end: start + s.durationMinutes * MIN, capacity });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The departure starting at an instant, if any. */
export function departureAt(item: EngineItem, start: number): Departure | undefined {
  const date = localDate(start, item.timezone);
  return departuresOn(item, date).find((d) => d.start === start);
}

/**
 * Length of a rental slot shown by the day views (minutes): a full day when the item rents by
 * the day only, else the shortest allowed duration, the hourly rule's minimum, or the interval.
 */
export function slotLengthMinutes(item: EngineItem, date: string): number {
  const m = item.model;
  if (m.durations?.length) return Math.round(Math.min(...m.durations) * 60);
  const weekday = weekdayOf(date);
  for (const s of m.seasons ?? []) {
    const rule = s.hourlyPrices?.[weekday] as { minimumHours?: number } | undefined;
    if (rule?.minimumHours) return Math.round(rule.minimumHours * 60);
  }
  return m.slotIntervalMinutes ?? 60;
}

export interface RentalSlot {
  time: string;
  start: number;
  end: number;
}

/** Start times of a rental on a local date: every interval from opening, while the slot fits before closing. */
export function rentalSlotsOn(item: EngineItem, date: string): RentalSlot[] {
  const b = openingBounds(item, date);
  if (!b) return [];
  if (item.model.fullDayOnly) {
    return [{ time: b.openTime, start: b.open, end: b.close }];
  }
  const len = slotLengthMinutes(item, date) * MIN;
  const step = Math.max(5, item.model.slotIntervalMinutes ?? 60);
  const out: RentalSlot[] = [];
  const seen = new Set<number>();
  const first = toMinutes(b.openTime);
  // Walk the wall clock (not the UTC line) so DST days keep their local slot times.
  for (let m = first; m < 24 * 60; m += step) {
    const time = fromMinutes(m);
    const start = existingWallTime(date, time, item.timezone);
    if (start == null) continue;
    if (start + len > b.close) break;
    if (seen.has(start)) continue;
    seen.add(start);
    out.push({ time, start, end: start + len });
  }
  return out;
}
