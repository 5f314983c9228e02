/** Month and day views of an item: cached per isolate for the public reads, and computed at once for an item already loaded. */
import type { z } from '@hono/zod-openapi';
import { isTestClockOperator, wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError } from '../../lib/errors';
import { etagOf } from '../../lib/http-cache';
import { addDays, isoMonth } from '../../lib/time';
import { localWriteCount } from '../../db/client';
import { dayAvailability, monthAvailability, monthBounds, summarizeDay, type Busy, type DayView } from './engine';
import { loadBusy, stateKeyOf, type ItemContext } from './queries';
import { loadItemState } from './item-state';
import { dayBookingsOut, itemHeader, monthDaysOut, slotOut } from './views';
import { visibleItem } from './checks';
import type { DayResult, MonthResult } from './schemas';

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
 *
 * The cache serves operators on the wall clock (its freshness is real time); the views of a sandbox
 * test clock's operator are computed at that operator's clock on every read, never served from it.
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
  // Real time: the cache's own freshness (entries of test-clock operators are never served).
  const now = wallClock.now();
  const hit = cache.get(key);
  const usable = hit && hit.validUntil > now && !isTestClockOperator(hit.item.row.customerId) ? hit : undefined;
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
  const writes = localWriteCount(VIEW_TABLES);
  // The operator is known once the item is read: expired rows are dropped at its clock (`now: 0` keeps them all here).
  const state = await loadItemState(ctx.db, {
    itemId: q.itemId,
    customerId: null,
    from: q.from,
    to: q.to,
    cached: usable?.item,
    busyUnlessKey: usable?.stateKey,
    now: 0,
  });
  const now = (await onOperatorClock(ctx, state.ctx.row.customerId)).clock.now();
  // Real time: when the entry was last checked against D1 (the cache's freshness, not business time).
  const checkedAt = wallClock.now();
  if (state.busy === null && usable && usable.tz === state.ctx.item.timezone) {
    const refreshed = { ...usable, item: state.ctx, checkedAt, writes };
    cache.set(key, refreshed);
    return refreshed;
  }
  const busy = (state.busy ?? (await loadBusy(ctx.db, state.ctx, q.from, q.to, now))).filter((b) => b.expiresAt == null || b.expiresAt > now);
  const firstExpiry = busy.reduce((m, b) => (b.expiresAt != null && b.expiresAt > now ? Math.min(m, b.expiresAt) : m), Infinity);
  const entry: CachedView<V> = {
    stateKey: stateKeyOf(state.ctx.row),
    tz: state.ctx.item.timezone,
    item: state.ctx,
    value: compute(state.ctx, busy, now),
    validUntil: Math.min(now + VIEW_TTL_MS, firstExpiry),
    checkedAt,
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
  const now = (await onOperatorClock(ctx, item.row.customerId)).clock.now();
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
  const now = (await onOperatorClock(ctx, item.row.customerId)).clock.now();
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
