import { addDays, localDate } from '../../lib/time';
import { DAY, HOUR, MIN, overlaps } from './intervals';
import type { Busy, Departure, EngineItem, Reason, WindowCheck, WindowQuery } from './engine-types';
import { capacityOverride, departureAt, departuresOn, openingBounds, openingOn } from './calendar';

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

function ruleReasons(item: EngineItem, start: number, now: number): Reason[] {
  const out: Reason[] = [];
  const m = item.model;
  if (start < now) out.push({ code: 'in_past', message: 'The start time has passed' });
  else if (start < now + (m.minimumNoticeHours ?? 0) * HOUR)
    out.push({ code: 'minimum_notice', message: `Bookings need ${m.minimumNoticeHours} hours of notice` });
  if (start > now + (m.maxAdvanceDays ?? 365) * DAY) out.push({ code: 'too_far_ahead', message: `Bookings open ${m.maxAdvanceDays ?? 365} days ahead` });
  return out;
}

/** Assets blocked at some point of [blockedStart, blockedEnd). */
function blockedAssets(
  item: EngineItem,
  busy: Busy[],
  blockedStart: number,
  blockedEnd: number,
): { assets: Set<string>; wholeItem: boolean; inUse: Set<string> } {
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
    return {
      available: false,
      reasons: [{ code: 'invalid_window', message: 'The end must be after the start' }],
      unitsFree: item.kind === 'tour' ? null : 0,
      freeAssetIds: [],
    };
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
    else if (q.privateCharter && seatsFree < dep.capacity)
      reasons.push({ code: 'sold_out', message: 'A private charter needs a departure with no other guests' });
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
      if (cap != null && capacityLeft < wanted && pool.length - blocked.assets.size >= wanted)
        reasons.push({ code: 'capacity_limit', message: `Only ${capacityLeft} units may be out on that day` });
      else
        reasons.push(
          unitsFree ? { code: 'insufficient_units', message: `Only ${unitsFree} available` } : { code: 'sold_out', message: 'Fully booked at that time' },
        );
    }
  }
  return { available: reasons.length === 0, reasons, unitsFree, freeAssetIds: free };
}

function departureBlocked(dep: Departure, busy: Busy[]): boolean {
  return busy.some(
    (b) => b.assetId == null && (b.kind === 'drydock' || b.kind === 'maintenance') && overlaps(b.blockedStart, b.blockedEnd, dep.start, dep.end),
  );
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
export function blockConflicts(
  item: EngineItem,
  allBusy: Busy[],
  q: { start: number; end: number; assetIds: string[] | null; now: number; excludeSourceIds?: string[] },
): Busy[] {
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
