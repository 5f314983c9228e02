/**
 * Availability services (transport-free). Reads go to D1 through the engine, each in ONE round
 * trip (queries.ts); sales go through the item's lock object (lock.ts). `getItemAvailability` is
 * what the channel's availability lines and the operator's checkout use: it applies exactly the
 * checks a booking moments later will meet.
 */
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import { tenantOf, type Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { etagOf } from '../../lib/http-cache';
import { addDays, isoMonth, localDate, localTime, WEEKDAYS, type Weekday } from '../../lib/time';
import { localWriteCount } from '../../db/client';
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
  type DayView,
  type Reason,
} from './engine';
import { loadBusy, loadItemState, stateKeyOf, type ItemContext } from './queries';
import { dayBookingsOut, itemHeader, monthDaysOut, slotOut } from './views';
import type { DayResult, MonthResult } from './schemas';

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

/** Is [start, end) bookable on an item of the caller's operator? A booking placed moments later meets the same checks. One round trip. */
export async function getItemAvailability(ctx: Ctx, itemId: string, q: AvailabilityQuery): Promise<ItemAvailability> {
  const state = await loadItemState(ctx.db, { itemId, customerId: tenantOf(ctx), from: q.start, to: q.end });
  return availabilityOf(ctx, state.ctx, q, state.busy!);
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
  const item = await loadItemState(ctx.db, { itemId: inventoryId, customerId: null, from: 0, to: 0, busyUnlessKey: '' }).then((s) => s.ctx);
  return visibleItem(ctx, item, locationId);
}

/** A public read of an item: it must be public (or the caller's own) and, when a location is named, at that location; 404 otherwise. */
function visibleItem(ctx: Ctx, item: ItemContext, locationId?: string): ItemContext {
  const own = ctx.principal.customerId === item.row.customerId;
  if (!own && (!item.row.isPublic || item.item.model.isPublic === false)) throw notFound('Inventory item');
  if (locationId && item.row.locationId !== locationId) throw notFound('Inventory item at this location');
  return item;
}

// ------------------------------------------------------------------------------------------------
// Month and day views, cached per isolate

/**
 * Computed month and day views of this isolate, keyed by item and month (or date). Each entry
 * remembers what it was computed from: the item's state key (`version`, `allocSeq` — bumped by
 * triggers on every allocation write, whichever path wrote it — and `updatedAt`) and its zone.
 *
 * - Within AVAILABILITY_FRESH_MS of its last check, and while no write to the tables it depends on
 *   has gone through this isolate since (`localWriteCount`), an entry is answered without any
 *   round trip.
 * - Otherwise it is checked in ONE round trip: the item is read and its allocations come back only
 *   if the state key changed (the same batch recomputes the view when it did). A request with
 *   `Cache-Control: no-cache` always checks.
 *
 * So a view is never older than the last write made through the isolate that answers it, and at
 * most AVAILABILITY_FRESH_MS older than a write made elsewhere (the sale itself is always checked
 * inside the item's lock). Time-based rules (past, minimum notice, holds expiring) move with the
 * clock, so an entry lives at most VIEW_TTL_MS and never past the first hold expiry in it.
 */
export const AVAILABILITY_FRESH_MS = 2_000;
/** The tables a view depends on: a write to one of them through this isolate makes its views check D1 again. */
const VIEW_TABLES = ['allocations', 'inventory_items', 'inventory_assets', 'locations'] as const;
const VIEW_TTL_MS = 30_000;
const VIEW_CACHE_MAX = 500;

interface CachedView<V> {
  stateKey: string;
  tz: string;
  item: ItemContext;
  value: V;
  validUntil: number;
  checkedAt: number;
  writes: number;
}

function viewCache<V>() {
  const map = new Map<string, CachedView<V>>();
  /**
   * Checks under way, by key, with the write count they started at: concurrent requests for one
   * view wait for the same check (no stampede on a cold or stale entry), unless a write went
   * through this isolate since it started.
   */
  const running = new Map<string, { writes: number; check: Promise<CachedView<V>> }>();
  return {
    running,
    get: (key: string) => map.get(key),
    set(key: string, entry: CachedView<V>) {
      map.delete(key);
      if (map.size >= VIEW_CACHE_MAX) map.delete(map.keys().next().value!);
      map.set(key, entry);
    },
  };
}

/**
 * A cached view of an item over [from, to): answered from memory when fresh, else one round trip
 * that reads the item and (only when its state changed) its allocations, then `compute`.
 */
async function cachedView<V>(
  ctx: Ctx,
  cache: ReturnType<typeof viewCache<V>>,
  key: string,
  q: { itemId: string; from: number; to: number; revalidate?: boolean },
  compute: (item: ItemContext, busy: Busy[], now: number) => V,
): Promise<CachedView<V>> {
  const now = Date.now();
  const hit = cache.get(key);
  const usable = hit && hit.validUntil > now ? hit : undefined;
  if (usable && !q.revalidate && now - usable.checkedAt < AVAILABILITY_FRESH_MS && usable.writes === localWriteCount(VIEW_TABLES)) return usable;
  const writes = localWriteCount(VIEW_TABLES);
  const running = cache.running.get(key);
  if (running && !q.revalidate && running.writes === writes) return running.check;
  const check: Promise<CachedView<V>> = checkView(ctx, cache, key, q, compute, usable).finally(() => {
    if (cache.running.get(key)?.check === check) cache.running.delete(key);
  });
  cache.running.set(key, { writes, check });
  return check;
}

async function checkView<V>(
  ctx: Ctx,
  cache: ReturnType<typeof viewCache<V>>,
  key: string,
  q: { itemId: string; from: number; to: number },
  compute: (item: ItemContext, busy: Busy[], now: number) => V,
  usable: CachedView<V> | undefined,
): Promise<CachedView<V>> {
  const now = Date.now();
  const writes = localWriteCount(VIEW_TABLES);
  const state = await loadItemState(ctx.db, {
    itemId: q.itemId,
    customerId: null,
    from: q.from,
    to: q.to,
    cached: usable?.item,
    busyUnlessKey: usable?.stateKey,
  });
  if (state.busy === null && usable && usable.tz === state.ctx.item.timezone) {
    const refreshed = { ...usable, item: state.ctx, checkedAt: now, writes };
    cache.set(key, refreshed);
    return refreshed;
  }
  const busy = state.busy ?? (await loadBusy(ctx.db, state.ctx, q.from, q.to, now));
  const firstExpiry = busy.reduce((m, b) => (b.expiresAt != null && b.expiresAt > now ? Math.min(m, b.expiresAt) : m), Infinity);
  const entry: CachedView<V> = {
    stateKey: stateKeyOf(state.ctx.row),
    tz: state.ctx.item.timezone,
    item: state.ctx,
    value: compute(state.ctx, busy, now),
    validUntil: Math.min(now + VIEW_TTL_MS, firstExpiry),
    checkedAt: now,
    writes,
  };
  cache.set(key, entry);
  return entry;
}

const DAY_MS = 86_400_000;
const monthCache = viewCache<ReturnType<typeof monthAvailability>>();
const dayCache = viewCache<DayView>();

/** A public availability answer with its ETag (see viewTag). */
export interface TaggedView<T> {
  body: T;
  etag: string;
}

/**
 * The ETag of a cached view: the item's state key (version and allocation sequence, bumped by every
 * allocation write, and update time), its location's update time, the time until which the view's
 * clock-dependent rules hold (minimum notice, hold expiries: a recomputed view gets a new one) and the
 * query. A repeated read of an unchanged item answers 304; any write that could change it changes it.
 */
const viewTag = (entry: CachedView<unknown>, parts: (string | undefined)[]) =>
  etagOf([entry.item.row.id, entry.stateKey, entry.item.location.updatedAt, entry.validUntil, ...parts]);

/**
 * Days of a month with their status, for the booking widget's calendar (sales rules applied): at
 * most one round trip, none when the view is cached and fresh (see AVAILABILITY_FRESH_MS).
 */
export async function monthAvailabilityView(
  ctx: Ctx,
  q: { inventoryId: string; locationId?: string; month: string; displayTz?: string; withSlots?: boolean; revalidate?: boolean },
): Promise<z.output<typeof MonthResult>> {
  return (await monthAvailabilityTagged(ctx, q)).body;
}

/** monthAvailabilityView with the answer's ETag. */
export async function monthAvailabilityTagged(
  ctx: Ctx,
  q: { inventoryId: string; locationId?: string; month: string; displayTz?: string; withSlots?: boolean; revalidate?: boolean },
): Promise<TaggedView<z.output<typeof MonthResult>>> {
  if (!isoMonth.test(q.month)) throw new ApiError('bad_request', 'month must be YYYY-MM', { details: [{ field: 'month', message: 'must be YYYY-MM' }] });
  const withSlots = Boolean(q.withSlots);
  // The item's zone is read in the same round trip as its allocations: read the UTC month widened by a day on each side.
  const utc = monthBounds(q.month, 'UTC');
  const entry = await cachedView(
    ctx,
    monthCache,
    `${q.inventoryId}|${q.month}|${withSlots ? 1 : 0}`,
    { itemId: q.inventoryId, from: utc.start - DAY_MS, to: utc.end + DAY_MS, revalidate: q.revalidate },
    (item, busy, now) => monthAvailability(item.item, busy, q.month, { now, enforceRules: true, withSlots }),
  );
  const item = visibleItem(ctx, entry.item, q.locationId);
  const tz = item.item.timezone;
  const display = q.displayTz ?? tz;
  return {
    body: {
      ...itemHeader(item, display),
      month: q.month,
      days: monthDaysOut(entry.value, tz, display),
    },
    etag: viewTag(entry, ['month', q.month, withSlots ? 'slots' : '', display]),
  };
}

/** Slots of one local date and the busy intervals (no renter data) for the widget's day view: at most one round trip, none when cached and fresh. */
export async function dayAvailabilityView(
  ctx: Ctx,
  q: { inventoryId: string; locationId?: string; date: string; displayTz?: string; revalidate?: boolean },
): Promise<z.output<typeof DayResult>> {
  return (await dayAvailabilityTagged(ctx, q)).body;
}

/** dayAvailabilityView with the answer's ETag. */
export async function dayAvailabilityTagged(
  ctx: Ctx,
  q: { inventoryId: string; locationId?: string; date: string; displayTz?: string; revalidate?: boolean },
): Promise<TaggedView<z.output<typeof DayResult>>> {
  const entry = await cachedView(
    ctx,
    dayCache,
    `${q.inventoryId}|${q.date}`,
    {
      itemId: q.inventoryId,
      from: Date.parse(`${addDays(q.date, -1)}T00:00:00Z`),
      to: Date.parse(`${addDays(q.date, 2)}T00:00:00Z`),
      revalidate: q.revalidate,
    },
    (item, busy, now) => dayAvailability(item.item, busy, q.date, { now, enforceRules: true }),
  );
  const item = visibleItem(ctx, entry.item, q.locationId);
  const tz = item.item.timezone;
  const display = q.displayTz ?? tz;
  const view = entry.value;
  return {
    body: {
      ...itemHeader(item, display),
      date: q.date,
      summary: summarizeDay(item.item, view),
      open: view.open,
      close: view.close,
      slots: view.slots.map((s) => slotOut(s, tz, display)),
      bookings: dayBookingsOut(view, tz, display),
    },
    etag: viewTag(entry, ['day', q.date, display]),
  };
}

/** Days of a month of an item already loaded (see monthAvailabilityView for the cached public read). */
export async function monthView(ctx: Ctx, item: ItemContext, month: string, opts: { displayTz?: string; withSlots?: boolean } = {}) {
  if (!isoMonth.test(month)) throw new ApiError('bad_request', 'month must be YYYY-MM', { details: [{ field: 'month', message: 'must be YYYY-MM' }] });
  const tz = item.item.timezone;
  const display = opts.displayTz ?? tz;
  const now = Date.now();
  const { start, end } = monthBounds(month, tz);
  const days = monthAvailability(item.item, await loadBusy(ctx.db, item, start, end, now), month, { now, enforceRules: true, withSlots: opts.withSlots });
  return {
    ...itemHeader(item, display),
    month,
    days: monthDaysOut(days, tz, display),
  };
}

/** Slots of one local date of an item already loaded (see dayAvailabilityView for the cached public read). */
export async function dayView(ctx: Ctx, item: ItemContext, date: string, opts: { displayTz?: string } = {}) {
  const now = Date.now();
  const tz = item.item.timezone;
  const display = opts.displayTz ?? tz;
  const busy = await loadBusy(ctx.db, item, Date.parse(`${addDays(date, -1)}T00:00:00Z`), Date.parse(`${addDays(date, 2)}T00:00:00Z`), now);
  const view = dayAvailability(item.item, busy, date, { now, enforceRules: true });
  return {
    ...itemHeader(item, display),
    date,
    summary: summarizeDay(item.item, view),
    open: view.open,
    close: view.close,
    slots: view.slots.map((s) => slotOut(s, tz, display)),
    bookings: dayBookingsOut(view, tz, display),
  };
}

/** Is this asset free for [start, end)? Bookings (with the turnaround buffer), holds, drydock and maintenance count; opening hours do not. One round trip. */
export async function checkAsset(ctx: Ctx, q: { inventoryId: string; assetId: string; startUtc: number; endUtc: number; excludeRentalId?: string }) {
  const start = q.startUtc * 1000;
  const end = q.endUtc * 1000;
  const state = await loadItemState(ctx.db, { itemId: q.inventoryId, customerId: null, from: start, to: end });
  const item = visibleItem(ctx, state.ctx);
  if (!item.item.assets.some((a) => a.id === q.assetId)) throw notFound('Asset of this inventory item');
  if (!(end > start)) throw new ApiError('bad_request', 'endUtc must be after startUtc', { details: [{ field: 'endUtc', message: 'must be after startUtc' }] });
  const now = Date.now();
  const busy = state.busy!;
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

// What other modules (and the lock object) use of the engine, the D1 state loaders and the lock
// client (sales paths reserve through the item's lock object; see lock.ts).
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
export {
  allocationsStatement,
  allocationToBusy,
  busyOf,
  groupAllocations,
  inJson,
  itemContextFrom,
  itemContextOf,
  itemContextsFrom,
  itemStatements,
  itemsChangedStatement,
  loadAllocationsFor,
  loadItemContext,
  loadItemRows,
  loadItemState,
  otherItemsAtLocationStatement,
  stateKeyOf,
  type ItemContext,
  type ItemRow,
  type LocationRow,
} from './queries';
export { allocate } from './allocate';
export { backstopConflict, isAllocationConflict, release, releaseAll, releaseLater, reserve, reserveAll, type Reservation, type ReserveRequest } from './lock';
