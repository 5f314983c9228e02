/**
 * The availability engine: pure functions (no I/O) that answer what is free on an inventory item.
 *
 * Inputs are the item (its model from `inventory_items.data`, its assets, its location's IANA
 * zone) and the time already taken out of it (`Busy`: active allocations of bookings, holds and
 * drydock, maintenance blocks from the model, and reservations pending inside the item's lock).
 * Every sales path (operator checkout, widget, channel, marketplace, holds, drydock) and every
 * availability endpoint goes through these functions, so "available" means the same everywhere.
 *
 * Days and slots are built per local date in the location's wall-clock time with the DST-safe
 * helpers of `src/lib/time.ts`: a 10:00 slot is 10:00 local on DST days too, a wall time that
 * does not exist (the skipped hour) is left out, and a repeated wall time (the fall-back hour)
 * gives one slot, at its first occurrence.
 */
import type { InventoryModel } from '../inventory/model';
import { addDays, localDate, localTime, toWallTime, wallTimeToUtc, weekdayOf, datesOfMonth } from '../../lib/time';

export type ItemKind = 'rental' | 'tour';

export interface EngineAsset {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  displayOrder: number;
}

export interface EngineItem {
  id: string;
  kind: ItemKind;
  model: InventoryModel;
  /** The pool (rentals); empty for tours. Inactive assets are never sold. */
  assets: EngineAsset[];
  timezone: string;
}

/** Reservations pending inside the lock object carry the kind they will have once written. */
export type BusyKind = 'booking' | 'hold' | 'drydock' | 'maintenance';

/**
 * Time taken out of an item. `assetId` null means seats of a tour departure (booking, hold,
 * pending) or the whole item (drydock, maintenance). Times are epoch milliseconds.
 */
export interface Busy {
  /** The allocation row id (when it is one): a reservation pending in the lock and its written row are the same time, counted once. */
  id?: string;
  sourceId: string;
  kind: BusyKind;
  assetId: string | null;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  seats: number;
  expiresAt: number | null;
}

export type ReasonCode =
  | 'invalid_window'
  | 'in_past'
  | 'minimum_notice'
  | 'too_far_ahead'
  | 'closed'
  | 'outside_hours'
  | 'no_departure'
  | 'blocked'
  | 'sold_out'
  | 'insufficient_units'
  | 'asset_unavailable'
  | 'capacity_limit';

export interface Reason {
  code: ReasonCode;
  message: string;
}

export interface Departure {
  slotId: string | null;
  /** Local wall-clock start, HH:mm. */
  time: string;
  date: string;
  start: number;
  end: number;
  capacity: number;
}

export interface WindowQuery {
  start: number;
  end: number;
  /** Rentals: assets wanted (default 1). */
  quantity?: number;
  /** Rentals: these assets exactly. */
  assetIds?: string[];
  /** Tours: seats wanted (default 1). A private charter asks for the whole departure (`privateCharter`). */
  seats?: number;
  privateCharter?: boolean;
  /** Busy rows of these sources are ignored (rescheduling a booking over its own time). */
  excludeSourceIds?: string[];
  /**
   * Apply the sales rules (minimum notice, advance window, start in the future). Opening hours,
   * closed days and departures always apply.
   */
  enforceRules?: boolean;
  /** Rentals: skip opening hours and closed days (holds span whole days and nights). */
  ignoreHours?: boolean;
  now: number;
}

export interface WindowCheck {
  available: boolean;
  reasons: Reason[];
  /** Rentals: assets free for the whole window (after capacity overrides); null for tours. */
  unitsFree: number | null;
  /** Tours: seats left on the departure. */
  seatsFree?: number;
  capacity?: number;
  /** Rentals: the free assets in pool order. */
  freeAssetIds: string[];
  departure?: Departure;
}

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const overlaps = (aStart: number, aEnd: number, bStart: number, bEnd: number) => aStart < bEnd && bStart < aEnd;
const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The instant of a wall time, or null when that wall time does not exist on that date (DST gap). */
export function existingWallTime(date: string, time: string, tz: string): number | null {
  const t = wallTimeToUtc(date, time, tz);
  return localDate(t, tz) === date && localTime(t, tz) === time ? t : null;
}

/** Busy rows still in force: expired holds no longer count. */
export function liveBusy(busy: Busy[], now: number, excludeSourceIds: string[] = []): Busy[] {
  const ex = new Set(excludeSourceIds);
  return busy.filter((b) => (b.expiresAt == null || b.expiresAt > now) && !ex.has(b.sourceId));
}

/** Maintenance blocks of the model as busy rows (per asset, or the whole item when no assets are named). */
export function maintenanceBusy(item: EngineItem): Busy[] {
  const out: Busy[] = [];
  for (const [i, m] of (item.model.maintenanceBlocks ?? []).entries()) {
    const start = Date.parse(m.start);
    const end = Date.parse(m.end);
    const sourceId = m.blockId ?? `maintenance_${i}`;
    const base = { sourceId, kind: 'maintenance' as const, start, end, blockedStart: start, blockedEnd: end, seats: 0, expiresAt: null };
    if (m.assetIds?.length) for (const assetId of m.assetIds) out.push({ ...base, assetId });
    else out.push({ ...base, assetId: null });
  }
  return out;
}

/** The trailing turnaround buffer of a booking: its asset is busy until `end + buffer`. */
export function bookingBlock(item: EngineItem, start: number, end: number): { blockedStart: number; blockedEnd: number } {
  return { blockedStart: start, blockedEnd: end + (item.model.turnaroundBufferMinutes ?? 0) * MIN };
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

function ruleReasons(item: EngineItem, start: number, now: number): Reason[] {
  const out: Reason[] = [];
  const m = item.model;
  if (start < now) out.push({ code: 'in_past', message: 'The start time has passed' });
  else if (start < now + (m.minimumNoticeHours ?? 0) * HOUR) out.push({ code: 'minimum_notice', message: `Bookings need ${m.minimumNoticeHours} hours of notice` });
  if (start > now + (m.maxAdvanceDays ?? 365) * DAY) out.push({ code: 'too_far_ahead', message: `Bookings open ${m.maxAdvanceDays ?? 365} days ahead` });
  return out;
}

/** Assets blocked at some point of [blockedStart, blockedEnd). */
function blockedAssets(item: EngineItem, busy: Busy[], blockedStart: number, blockedEnd: number): { assets: Set<string>; wholeItem: boolean; inUse: Set<string> } {
  const assets = new Set<string>();
  const inUse = new Set<string>();
  let wholeItem = false;
  for (const b of busy) {
    if (!overlaps(b.blockedStart, b.blockedEnd, blockedStart, blockedEnd)) continue;
    if (b.assetId == null) {
      if (b.kind === 'drydock' || b.kind === 'maintenance') wholeItem = true;
      continue;
    }
    assets.add(b.assetId);
    if (b.kind === 'booking' || b.kind === 'hold') inUse.add(b.assetId);
  }
  return { assets, wholeItem, inUse };
}

/** Rentals: every day a window touches must be open, the start at or after opening and the end at or before closing. */
function hoursReasons(item: EngineItem, start: number, end: number): Reason[] {
  const tz = item.timezone;
  const first = localDate(start, tz);
  const last = localDate(end - 1, tz);
  for (let d = first; d <= last; d = addDays(d, 1)) {
    if (!openingOn(item, d)) return [{ code: 'closed', message: `Closed on ${d}` }];
  }
  const firstDay = openingBounds(item, first)!;
  const lastDay = openingBounds(item, last)!;
  if (start < firstDay.open || end > lastDay.close) {
    return [{ code: 'outside_hours', message: `Outside opening hours (${firstDay.openTime}-${lastDay.closeTime} local)` }];
  }
  return [];
}

/**
 * Is the window free? Rentals: which assets are free for `[start, end + buffer)` and whether
 * `quantity` (or the named `assetIds`) can be had. Tours: the departure starting at `start` and
 * its seats left. Busy rows must already include pending reservations and maintenance.
 */
export function checkWindow(item: EngineItem, allBusy: Busy[], q: WindowQuery): WindowCheck {
  const reasons: Reason[] = [];
  if (!(q.end > q.start)) {
    return { available: false, reasons: [{ code: 'invalid_window', message: 'The end must be after the start' }], unitsFree: item.kind === 'tour' ? null : 0, freeAssetIds: [] };
  }
  if (q.enforceRules) reasons.push(...ruleReasons(item, q.start, q.now));
  const busy = liveBusy(allBusy, q.now, q.excludeSourceIds);

  if (item.kind === 'tour') {
    const dep = departureAt(item, q.start);
    if (!dep) {
      reasons.push({ code: 'no_departure', message: 'No departure starts at that time' });
      return { available: false, reasons, unitsFree: null, seatsFree: 0, capacity: 0, freeAssetIds: [] };
    }
    const seatsFree = departureSeatsFree(dep, busy);
    const wanted = q.privateCharter ? Math.max(dep.capacity, 1) : Math.max(q.seats ?? 1, 0);
    if (seatsFree === 0 && departureBlocked(dep, busy)) reasons.push({ code: 'blocked', message: 'The tour is out of service at that time' });
    else if (q.privateCharter && seatsFree < dep.capacity) reasons.push({ code: 'sold_out', message: 'A private charter needs a departure with no other guests' });
    else if (seatsFree < wanted) reasons.push({ code: 'sold_out', message: seatsFree ? `Only ${seatsFree} seats left` : 'This departure is fully booked' });
    return { available: reasons.length === 0, reasons, unitsFree: null, seatsFree, capacity: dep.capacity, freeAssetIds: [], departure: dep };
  }

  if (!q.ignoreHours) reasons.push(...hoursReasons(item, q.start, q.end));
  const { blockedStart, blockedEnd } = bookingBlock(item, q.start, q.end);
  const blocked = blockedAssets(item, busy, blockedStart, blockedEnd);
  const pool = item.assets.filter((a) => a.status === 'active').sort((a, b) => a.displayOrder - b.displayOrder || a.id.localeCompare(b.id));
  let free = blocked.wholeItem ? [] : pool.filter((a) => !blocked.assets.has(a.id)).map((a) => a.id);
  // A capacity override caps how many assets may be out at once on the start date.
  const cap = capacityOverride(item, localDate(q.start, item.timezone));
  let capacityLeft = Infinity;
  if (cap != null) {
    capacityLeft = Math.max(0, cap - blocked.inUse.size);
    if (free.length > capacityLeft) free = free.slice(0, capacityLeft);
  }
  const unitsFree = free.length;
  if (blocked.wholeItem) reasons.push({ code: 'blocked', message: 'The item is out of service (drydock or maintenance) at that time' });
  if (q.assetIds?.length) {
    const known = new Set(pool.map((a) => a.id));
    const missing = q.assetIds.filter((id) => !free.includes(id));
    if (missing.length && !blocked.wholeItem) {
      const unknown = missing.filter((id) => !known.has(id));
      reasons.push(
        unknown.length
          ? { code: 'asset_unavailable', message: `Not an active asset of this item: ${unknown.join(', ')}` }
          : { code: 'asset_unavailable', message: `Already taken at that time: ${missing.join(', ')}` },
      );
    }
  } else if (!blocked.wholeItem) {
    const wanted = Math.max(q.quantity ?? 1, 1);
    if (unitsFree < wanted) {
      if (cap != null && capacityLeft < wanted && pool.length - blocked.assets.size >= wanted) reasons.push({ code: 'capacity_limit', message: `Only ${capacityLeft} units may be out on that day` });
      else reasons.push(unitsFree ? { code: 'insufficient_units', message: `Only ${unitsFree} available` } : { code: 'sold_out', message: 'Fully booked at that time' });
    }
  }
  return { available: reasons.length === 0, reasons, unitsFree, freeAssetIds: free };
}

function departureBlocked(dep: Departure, busy: Busy[]): boolean {
  return busy.some((b) => b.assetId == null && (b.kind === 'drydock' || b.kind === 'maintenance') && overlaps(b.blockedStart, b.blockedEnd, dep.start, dep.end));
}

/** Seats left on a departure: capacity minus the seats of bookings, holds and pending reservations starting then. */
export function departureSeatsFree(dep: Departure, busy: Busy[]): number {
  if (departureBlocked(dep, busy)) return 0;
  let taken = 0;
  for (const b of busy) if (b.assetId == null && b.start === dep.start && (b.kind === 'booking' || b.kind === 'hold')) taken += b.seats;
  return Math.max(0, dep.capacity - taken);
}

/** Departures of a tour starting in [from, to). */
export function departuresBetween(item: EngineItem, from: number, to: number): Departure[] {
  const out: Departure[] = [];
  const last = localDate(to, item.timezone);
  for (let d = addDays(localDate(from, item.timezone), -1); d <= last; d = addDays(d, 1)) {
    for (const dep of departuresOn(item, d)) if (dep.start >= from && dep.start < to) out.push(dep);
  }
  return out;
}

/**
 * What stands in the way of blocking [start, end) (drydock). Rentals: anything on the chosen
 * assets (all assets when `assetIds` is null): bookings, holds, pending sales and other drydock
 * periods (an asset is in one drydock at a time, as the D1 guard also demands). Tours: the seats
 * of bookings and holds on departures running then.
 */
export function blockConflicts(item: EngineItem, allBusy: Busy[], q: { start: number; end: number; assetIds: string[] | null; now: number; excludeSourceIds?: string[] }): Busy[] {
  const busy = liveBusy(allBusy, q.now, q.excludeSourceIds).filter((b) => b.kind !== 'maintenance');
  if (item.kind === 'tour') return busy.filter((b) => b.assetId == null && b.kind !== 'drydock' && overlaps(b.start, b.end, q.start, q.end));
  const wanted = new Set(q.assetIds ?? item.assets.map((a) => a.id));
  return busy.filter((b) => b.assetId != null && wanted.has(b.assetId) && overlaps(b.blockedStart, b.blockedEnd, q.start, q.end));
}

/** Chooses the assets for a rental: the named ones, else the first free ones in pool order. */
export function pickAssets(check: WindowCheck, quantity: number, assetIds?: string[], prefer: string[] = []): string[] {
  if (assetIds?.length) return [...new Set(assetIds)];
  const free = new Set(check.freeAssetIds);
  const preferred = prefer.filter((id) => free.has(id));
  return [...new Set([...preferred, ...check.freeAssetIds])].slice(0, quantity);
}

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
      return { time: d.time, start: d.start, end: d.end, available: c.available, unitsFree: null, seatsFree: c.seatsFree ?? 0, capacity: d.capacity, ...(c.available ? {} : { reasons: c.reasons.map((r) => r.code) }) };
    });
    return { date, closed: deps.length === 0, open: deps[0]?.time ?? null, close: deps.length ? localTime(deps[deps.length - 1].end, item.timezone) : null, slots, busy: busyOut };
  }
  const opening = openingOn(item, date);
  const active = item.assets.filter((a) => a.status === 'active').length;
  const slots: DaySlot[] = rentalSlotsOn(item, date).map((s) => {
    const c = checkWindow(item, busy, { start: s.start, end: s.end, quantity: 1, now: opts.now, enforceRules: opts.enforceRules });
    return { time: s.time, start: s.start, end: s.end, available: c.available, unitsFree: c.unitsFree ?? 0, capacity: capacityOverride(item, date) ?? active, ...(c.available ? {} : { reasons: c.reasons.map((r) => r.code) }) };
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
    view.closed || !view.slots.length ? 'closed' : open.length ? 'available' : view.slots.every((s) => s.reasons?.some((r) => RULE_REASONS.has(r))) ? 'unavailable' : 'sold_out';
  const base = { date: view.date, weekday: weekdayOf(view.date), status, available: open.length > 0, slotsTotal: view.slots.length, slotsAvailable: open.length };
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
