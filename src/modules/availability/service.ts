/**
 * Availability services (transport-free). Reads go straight to D1 through the engine; sales go
 * through the item's lock object (lock.ts). `getItemAvailability` is what the channel's
 * availability lines and the operator's checkout use: it applies exactly the checks a booking
 * moments later will meet.
 */
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { addDays, isoMonth, localDate, localTime, WEEKDAYS, type Weekday } from '../../lib/time';
import { bookings } from '../../db/schema/bookings';
import {
  checkWindow,
  dayAvailability,
  departuresOn,
  monthAvailability,
  monthBounds,
  rentalSlotsOn,
  summarizeDay,
  type Busy,
  type DaySlot,
  type Reason,
} from './engine';
import { loadBusy, loadItemContext, type ItemContext } from './state';

const HOUR = 3_600_000;

export interface AvailabilityQuery {
  start: number;
  end: number;
  /** Rentals: assets wanted (default 1). */
  quantity?: number;
  /** Rentals: these assets exactly. */
  assetIds?: string[];
  /** Tours: seats wanted (default 1). */
  seats?: number;
  /** Ignore this booking's own allocations (moving it). */
  excludeRentalId?: string;
  /** Who would sell: the operator skips the notice and advance-window rules, like its bookings do. */
  source?: 'operator' | 'widget' | 'channel' | 'marketplace';
}

export interface ItemAvailability {
  available: boolean;
  /** Assets free for the whole window (rentals); null for tours, which answer `seatsFree`. */
  unitsFree: number | null;
  seatsFree?: number;
  capacity?: number;
  reasons?: Reason[];
}

/** Is [start, end) bookable on an item of the caller's operator? A booking placed moments later meets the same checks. */
export async function getItemAvailability(ctx: Ctx, itemId: string, q: AvailabilityQuery): Promise<ItemAvailability> {
  const item = await loadItemContext(ctx.db, itemId, tenantOf(ctx));
  return availabilityOf(ctx, item, q);
}

/** GET /availability: the operator's check of a window given as ISO strings. */
export async function windowAvailability(
  ctx: Ctx,
  q: {
    inventoryId: string;
    startTime: string;
    endTime: string;
    quantity?: number;
    seats?: number;
    excludeRentalId?: string;
    source?: AvailabilityQuery['source'];
  },
) {
  const start = Date.parse(q.startTime);
  const end = Date.parse(q.endTime);
  if (!(end > start))
    throw new ApiError('bad_request', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  return getItemAvailability(ctx, q.inventoryId, { start, end, quantity: q.quantity, seats: q.seats, excludeRentalId: q.excludeRentalId, source: q.source });
}

export async function availabilityOf(ctx: Ctx, item: ItemContext, q: AvailabilityQuery, loaded?: Busy[]): Promise<ItemAvailability> {
  const now = Date.now();
  const busy = loaded ?? (await loadBusy(ctx.db, item, q.start, q.end, now));
  const c = checkWindow(item.item, busy, {
    start: q.start,
    end: q.end,
    quantity: q.quantity,
    assetIds: q.assetIds,
    seats: q.seats,
    privateCharter: item.item.kind === 'tour' && !!item.item.model.tourPricing?.isPrivate,
    excludeSourceIds: q.excludeRentalId ? [q.excludeRentalId] : [],
    enforceRules: (q.source ?? 'operator') !== 'operator',
    now,
  });
  return {
    available: c.available,
    unitsFree: item.item.kind === 'tour' ? null : c.unitsFree,
    ...(item.item.kind === 'tour' ? { seatsFree: c.seatsFree ?? 0, capacity: c.capacity ?? 0 } : {}),
    ...(c.reasons.length ? { reasons: c.reasons } : {}),
  };
}

/**
 * An item for a public read: it must exist, be public (or belong to the authenticated caller)
 * and, when a location is named, be at that location. Anything else answers 404.
 */
export async function publicItem(ctx: Ctx, inventoryId: string, locationId?: string): Promise<ItemContext> {
  const item = await loadItemContext(ctx.db, inventoryId, null);
  const own = ctx.principal.customerId === item.row.customerId;
  if (!own && (!item.row.isPublic || item.item.model.isPublic === false)) throw notFound('Inventory item');
  if (locationId && item.row.locationId !== locationId) throw notFound('Inventory item at this location');
  return item;
}

/** HH:mm of an instant in the display zone (the location's unless the caller asked for another). */
const renderSlot = (s: DaySlot, tz: string, displayTz: string) => ({
  startTime: new Date(s.start).toISOString(),
  endTime: new Date(s.end).toISOString(),
  time: s.time,
  ...(displayTz !== tz ? { displayTime: localTime(s.start, displayTz), displayDate: localDate(s.start, displayTz) } : {}),
  available: s.available,
  unitsFree: s.unitsFree,
  ...(s.seatsFree !== undefined ? { seatsFree: s.seatsFree } : {}),
  capacity: s.capacity,
  ...(s.reasons ? { reasons: s.reasons } : {}),
});

function itemHeader(item: ItemContext, displayTz?: string) {
  return {
    inventoryId: item.row.id,
    locationId: item.row.locationId,
    name: item.row.name,
    type: item.item.kind,
    timezone: item.item.timezone,
    displayTimezone: displayTz ?? item.item.timezone,
  };
}

/**
 * Computed month views of this isolate, keyed by what they depend on: the item's `version` (its
 * model) and `allocSeq` (bumped by triggers on every allocation write, whichever path wrote it),
 * the zone and the month. Time-based rules (past, minimum notice, holds expiring) move with the
 * clock, so an entry lives at most MONTH_CACHE_TTL_MS and never past the first hold expiry in it.
 */
const MONTH_CACHE_TTL_MS = 30_000;
const MONTH_CACHE_MAX = 500;
const monthCache = new Map<string, { validUntil: number; days: ReturnType<typeof monthAvailability> }>();

async function monthDays(ctx: Ctx, item: ItemContext, month: string, withSlots: boolean) {
  const now = Date.now();
  const key = `${item.row.id}|${item.row.version}|${item.row.allocSeq}|${item.row.updatedAt}|${item.item.timezone}|${month}|${withSlots ? 1 : 0}`;
  const hit = monthCache.get(key);
  if (hit && hit.validUntil > now) return hit.days;
  const { start, end } = monthBounds(month, item.item.timezone);
  const busy = await loadBusy(ctx.db, item, start, end, now);
  const days = monthAvailability(item.item, busy, month, { now, enforceRules: true, withSlots });
  const firstExpiry = busy.reduce((m, b) => (b.expiresAt != null && b.expiresAt > now ? Math.min(m, b.expiresAt) : m), Infinity);
  if (monthCache.size >= MONTH_CACHE_MAX) monthCache.delete(monthCache.keys().next().value!);
  monthCache.set(key, { validUntil: Math.min(now + MONTH_CACHE_TTL_MS, firstExpiry), days });
  return days;
}

/** Days of a month with their status, for the booking widget's calendar (sales rules applied). */
export async function monthView(ctx: Ctx, item: ItemContext, month: string, opts: { displayTz?: string; withSlots?: boolean } = {}) {
  if (!isoMonth.test(month)) throw new ApiError('bad_request', 'month must be YYYY-MM', { details: [{ field: 'month', message: 'must be YYYY-MM' }] });
  const tz = item.item.timezone;
  const display = opts.displayTz ?? tz;
  const days = await monthDays(ctx, item, month, Boolean(opts.withSlots));
  return {
    ...itemHeader(item, display),
    month,
    days: days.map((d) => ({ ...d, ...('slots' in d && d.slots ? { slots: d.slots.map((s) => renderSlot(s, tz, display)) } : {}) })),
  };
}

/** Slots of one local date and the busy intervals (no renter data) for the widget's day view. */
export async function dayView(ctx: Ctx, item: ItemContext, date: string, opts: { displayTz?: string } = {}) {
  const now = Date.now();
  const tz = item.item.timezone;
  const display = opts.displayTz ?? tz;
  const from = Date.parse(`${addDays(date, -1)}T00:00:00Z`);
  const to = Date.parse(`${addDays(date, 2)}T00:00:00Z`);
  const busy = await loadBusy(ctx.db, item, from, to, now);
  const view = dayAvailability(item.item, busy, date, { now, enforceRules: true });
  return {
    ...itemHeader(item, display),
    date,
    summary: summarizeDay(item.item, view),
    open: view.open,
    close: view.close,
    slots: view.slots.map((s) => renderSlot(s, tz, display)),
    bookings: view.busy.map((b) => ({
      startTime: new Date(b.start).toISOString(),
      endTime: new Date(b.end).toISOString(),
      ...(display !== tz
        ? {
            displayStart: `${localDate(b.start, display)} ${localTime(b.start, display)}`,
            displayEnd: `${localDate(b.end, display)} ${localTime(b.end, display)}`,
          }
        : {}),
      assetId: b.assetId,
      kind: b.kind,
      ...(b.seats !== undefined ? { seats: b.seats } : {}),
    })),
  };
}

/** Is this asset free for [start, end)? Bookings (with the turnaround buffer), holds, drydock and maintenance count; opening hours do not. */
export async function checkAsset(ctx: Ctx, q: { inventoryId: string; assetId: string; startUtc: number; endUtc: number; excludeRentalId?: string }) {
  const item = await publicItem(ctx, q.inventoryId);
  if (!item.item.assets.some((a) => a.id === q.assetId)) throw notFound('Asset of this inventory item');
  const start = q.startUtc * 1000;
  const end = q.endUtc * 1000;
  if (!(end > start)) throw new ApiError('bad_request', 'endUtc must be after startUtc', { details: [{ field: 'endUtc', message: 'must be after startUtc' }] });
  const now = Date.now();
  const busy = await loadBusy(ctx.db, item, start, end, now);
  const c = checkWindow(item.item, busy, {
    start,
    end,
    assetIds: [q.assetId],
    ignoreHours: true,
    excludeSourceIds: q.excludeRentalId ? [q.excludeRentalId] : [],
    now,
  });
  const buffer = (item.item.model.turnaroundBufferMinutes ?? 0) * 60_000;
  const conflicts = busy
    .filter((b) => b.sourceId !== q.excludeRentalId && (b.expiresAt == null || b.expiresAt > now))
    .filter(
      (b) =>
        (b.assetId === q.assetId || (b.assetId == null && (b.kind === 'drydock' || b.kind === 'maintenance'))) &&
        b.blockedStart < end + buffer &&
        start < b.blockedEnd,
    )
    .map((b) => ({
      startTime: new Date(b.start).toISOString(),
      endTime: new Date(b.end).toISOString(),
      kind: b.kind === 'drydock' || b.kind === 'maintenance' ? 'blocked' : b.kind === 'hold' ? 'held' : 'booked',
    }));
  return {
    inventoryId: item.row.id,
    assetId: q.assetId,
    startUtc: q.startUtc,
    endUtc: q.endUtc,
    available: c.available,
    turnaroundBufferMinutes: item.item.model.turnaroundBufferMinutes ?? 0,
    conflicts,
    ...(c.reasons.length ? { reasons: c.reasons } : {}),
  };
}

const WEEKDAY_ALIASES: Record<string, Weekday> = Object.fromEntries(
  WEEKDAYS.flatMap((d, i) => [
    [d.toLowerCase(), d],
    [d.slice(0, 3).toLowerCase(), d],
    [String(i), d],
  ]),
) as Record<string, Weekday>;

/** `Monday`, `mon`, or 0-6 (0 = Sunday) to a weekday name; 400 otherwise. */
export function parseWeekday(v: string): Weekday {
  const d = WEEKDAY_ALIASES[v.trim().toLowerCase()];
  if (!d)
    throw new ApiError('bad_request', 'dayOfWeek must be a weekday name (Monday) or 0-6 with 0 = Sunday', {
      details: [{ field: 'dayOfWeek', message: 'unknown weekday' }],
    });
  return d;
}

/**
 * How often each start time is booked: bookings (not cancelled) of the last 365 days and the next
 * 365, grouped by local start time, optionally on one weekday and of one duration (whole hours).
 */
export async function timeSlotPopularity(ctx: Ctx, item: ItemContext, q: { dayOfWeek?: string; duration?: number }) {
  const weekday = q.dayOfWeek ? parseWeekday(q.dayOfWeek) : null;
  const now = Date.now();
  const tz = item.item.timezone;
  const rows = await ctx.db
    .select({ start: bookings.start, end: bookings.end, localDate: bookings.localDate, quantity: bookings.quantity })
    .from(bookings)
    .where(
      and(
        eq(bookings.itemId, item.row.id),
        eq(bookings.customerId, item.row.customerId),
        inArray(bookings.status, ['pending', 'confirmed', 'checked_in', 'completed']),
        gte(bookings.start, now - 365 * 24 * HOUR),
        lt(bookings.start, now + 365 * 24 * HOUR),
      ),
    )
    .all();
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    const date = localDate(r.start, tz);
    if (weekday && WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()] !== weekday) continue;
    if (q.duration != null && Math.round((r.end - r.start) / HOUR) !== q.duration) continue;
    const t = localTime(r.start, tz);
    counts.set(t, (counts.get(t) ?? 0) + 1);
    total++;
  }
  // Every start time the item offers on such a day, even when never booked.
  let probe = localDate(now, tz);
  if (weekday) for (let i = 0; i < 7 && WEEKDAYS[new Date(`${probe}T12:00:00Z`).getUTCDay()] !== weekday; i++) probe = addDays(probe, 1);
  const offered = item.item.kind === 'tour' ? departuresOn(item.item, probe).map((d) => d.time) : rentalSlotsOn(item.item, probe).map((s) => s.time);
  for (const t of offered) if (!counts.has(t)) counts.set(t, 0);
  const max = Math.max(0, ...counts.values());
  const slots = [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([time, n]) => ({
      time,
      bookings: n,
      share: total ? Math.round((n / total) * 1000) / 1000 : 0,
      popularity: n === 0 ? 'none' : n >= max * 0.66 ? 'high' : n >= max * 0.33 ? 'medium' : 'low',
    }));
  return { ...itemHeader(item), dayOfWeek: weekday, duration: q.duration ?? null, totalBookings: total, slots };
}

// What other modules use of the engine, the D1 state loaders and the lock client (sales paths
// reserve through the item's lock object; see lock.ts).
export {
  blockConflicts,
  departureAt,
  departuresOn,
  existingWallTime,
  maintenanceBusy,
  openingBounds,
  openingOn,
  slotLengthMinutes,
  type Busy,
  type Departure,
  type EngineItem,
  type Reason,
} from './engine';
export { allocationToBusy, itemContextOf, loadAllocationsFor, loadItemContext, loadItemRows, type ItemContext, type LocationRow } from './state';
export { backstopConflict, isAllocationConflict, release, releaseAll, reserve, reserveAll, type Reservation, type ReserveRequest } from './lock';
