/**
 * Checks of a window on one item: `getItemAvailability` is what the channel's availability lines
 * and the operator's checkout use (it applies exactly the checks a booking moments later will
 * meet), the asset check, and the public read of an item.
 */
import { tenantOf, type Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError, notFound } from '../../lib/errors';
import { checkWindow, type Busy, type Reason } from './engine';
import { loadBusy, type ItemContext } from './queries';
import { loadItemState } from './item-state';

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
  const state = await loadItemState(ctx.db, { itemId, customerId: tenantOf(ctx), from: q.start, to: q.end, now: ctx.clock.now() });
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
  const now = ctx.clock.now();
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
  const item = await loadItemState(ctx.db, { itemId: inventoryId, customerId: null, from: 0, to: 0, busyUnlessKey: '', now: 0 }).then((s) => s.ctx);
  return visibleItem(ctx, item, locationId);
}

/** A public read of an item: it must be public (or the caller's own) and, when a location is named, at that location; 404 otherwise. */
export function visibleItem(ctx: Ctx, item: ItemContext, locationId?: string): ItemContext {
  const own = ctx.principal.customerId === item.row.customerId;
  if (!own && (!item.row.isPublic || item.item.model.isPublic === false)) throw notFound('Inventory item');
  if (locationId && item.row.locationId !== locationId) throw notFound('Inventory item at this location');
  return item;
}

/** Is this asset free for [start, end)? Bookings (with the turnaround buffer), holds, drydock and maintenance count; opening hours do not. One round trip. */
export async function checkAsset(ctx: Ctx, q: { inventoryId: string; assetId: string; startUtc: number; endUtc: number; excludeRentalId?: string }) {
  const start = q.startUtc * 1000;
  const end = q.endUtc * 1000;
  // The operator is known once the item is read: expired rows are dropped below, at its clock.
  const state = await loadItemState(ctx.db, { itemId: q.inventoryId, customerId: null, from: start, to: end, now: 0 });
  const item = visibleItem(ctx, state.ctx);
  if (!item.item.assets.some((a) => a.id === q.assetId)) throw notFound('Asset of this inventory item');
  if (!(end > start)) throw new ApiError('bad_request', 'endUtc must be after startUtc', { details: [{ field: 'endUtc', message: 'must be after startUtc' }] });
  const now = (await onOperatorClock(ctx, item.row.customerId)).clock.now();
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
