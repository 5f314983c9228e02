/**
 * Loading an item's availability state from D1: the item row and its parsed model, the active
 * assets, the location's zone, and the active allocations of a time range as engine `Busy` rows
 * (maintenance blocks of the model added). Used by the services (reads) and by the item's
 * InventoryLock object (the authoritative check before a sale).
 */
import { and, asc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { DB } from '../../db/client';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { holds } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { InventoryData, type InventoryModel } from '../inventory/types';
import { ApiError, notFound } from '../../lib/errors';
import { maintenanceBusy, type Busy, type EngineItem } from './engine';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;
export type AllocationRow = typeof allocations.$inferSelect;

export interface ItemContext {
  row: ItemRow;
  item: EngineItem;
  location: LocationRow;
  currency: string;
}

/** Buffers and tour durations reach at most this far outside a queried range. */
const MARGIN_MS = 2 * 86_400_000;

const modelCache = new Map<string, { version: number; updatedAt: string; model: InventoryModel }>();

/** The item's model (`data` validated by InventoryData), cached by id and version. */
export function parseModel(row: ItemRow): InventoryModel {
  const hit = modelCache.get(row.id);
  if (hit && hit.version === row.version && hit.updatedAt === row.updatedAt) return hit.model;
  const parsed = InventoryData.safeParse(row.data ?? {});
  if (!parsed.success) {
    throw new ApiError('invalid_state', `The settings of inventory item ${row.id} are invalid; fix them with POST /inventory/setup`, {
      details: parsed.error.issues.slice(0, 10).map((i) => ({ field: `data.${i.path.join('.')}`, message: i.message })),
    });
  }
  if (modelCache.size > 500) modelCache.clear();
  modelCache.set(row.id, { version: row.version, updatedAt: row.updatedAt, model: parsed.data });
  return parsed.data;
}

const assetCache = new Map<string, { version: number; updatedAt: string; assets: EngineItem['assets'] }>();

/**
 * The pool of an item for the engine, cached by item id and version: every change of an item's
 * assets (POST /inventory/setup) bumps its version, so a hot item costs one D1 read, not two.
 */
async function engineAssets(db: DB, row: ItemRow): Promise<EngineItem['assets']> {
  const hit = assetCache.get(row.id);
  if (hit && hit.version === row.version && hit.updatedAt === row.updatedAt) return hit.assets;
  const rows = await db
    .select()
    .from(inventoryAssets)
    .where(eq(inventoryAssets.itemId, row.id))
    .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.id))
    .all();
  const assets = rows.filter((a) => a.customerId === row.customerId).map((a) => ({ id: a.id, name: a.name, status: a.status, displayOrder: a.displayOrder }));
  if (assetCache.size > 500) assetCache.clear();
  assetCache.set(row.id, { version: row.version, updatedAt: row.updatedAt, assets });
  return assets;
}

export function itemKind(row: ItemRow, model: InventoryModel): 'rental' | 'tour' {
  return row.kind === 'tour' || model.type === 'tour' ? 'tour' : 'rental';
}

/**
 * An item with its assets and location. `customerId` scopes it to an operator (null for public
 * reads, which then check the location themselves). Deleted items and unknown ids answer 404.
 */
export async function loadItemContext(db: DB, itemId: string, customerId: string | null): Promise<ItemContext> {
  const itemWhere = customerId
    ? and(eq(inventoryItems.id, itemId), eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt))
    : and(eq(inventoryItems.id, itemId), isNull(inventoryItems.deletedAt));
  // Not db.batch(): drizzle maps batch results from D1 row objects, so a join of tables sharing
  // column names (id, name, customer_id, ...) would shift values between columns.
  const rows = await db
    .select({ item: inventoryItems, location: locations })
    .from(inventoryItems)
    .innerJoin(locations, eq(locations.id, inventoryItems.locationId))
    .where(itemWhere)
    .limit(1)
    .all();
  const hit = rows[0];
  if (!hit || hit.location.customerId !== hit.item.customerId) throw notFound('Inventory item');
  return itemContextOf(db, hit.item, hit.location);
}

/** An item context from rows already read (the item and its location). */
export async function itemContextOf(db: DB, row: ItemRow, location: LocationRow): Promise<ItemContext> {
  const model = parseModel(row);
  const kind = itemKind(row, model);
  const item: EngineItem = {
    id: row.id,
    kind,
    model,
    timezone: location.timezone || 'UTC',
    assets: kind === 'tour' ? [] : await engineAssets(db, row),
  };
  return { row, item, location, currency: (model.currency ?? location.currency ?? 'usd').toLowerCase() };
}

/** Several items and their operators' locations in one D1 round trip (a batch of single-table reads). Callers check visibility. */
export async function loadItemRows(db: DB, itemIds: string[], customerIds: string[]) {
  const out = new Map<string, { row: ItemRow; location: LocationRow | undefined }>();
  if (!itemIds.length || !customerIds.length) return out;
  const [itemRows, locRows] = await db.batch([
    db
      .select()
      .from(inventoryItems)
      .where(and(inArray(inventoryItems.id, itemIds), inArray(inventoryItems.customerId, customerIds), isNull(inventoryItems.deletedAt))),
    db.select().from(locations).where(inArray(locations.customerId, customerIds)),
  ]);
  for (const row of itemRows) out.set(row.id, { row, location: locRows.find((l) => l.id === row.locationId && l.customerId === row.customerId) });
  return out;
}

/** Active, unexpired allocations of several items touching [from, to), grouped by item, in one read. */
export async function loadAllocationsFor(db: DB, items: { id: string; customerId: string }[], from: number, to: number, now = Date.now()) {
  const out = new Map<string, AllocationRow[]>(items.map((i) => [i.id, []]));
  if (!items.length) return out;
  const rows = await db
    .select()
    .from(allocations)
    .where(
      and(
        inArray(
          allocations.itemId,
          items.map((i) => i.id),
        ),
        inArray(allocations.customerId, [...new Set(items.map((i) => i.customerId))]),
        eq(allocations.active, true),
        lt(allocations.blockedStart, to + MARGIN_MS),
        gt(allocations.blockedEnd, from - MARGIN_MS),
      ),
    )
    .all();
  for (const a of rows) if (a.expiresAt == null || a.expiresAt > now) out.get(a.itemId)?.push(a);
  return out;
}

export function allocationToBusy(
  a: Pick<AllocationRow, 'id' | 'sourceId' | 'kind' | 'assetId' | 'start' | 'end' | 'blockedStart' | 'blockedEnd' | 'seats' | 'expiresAt'>,
): Busy {
  return {
    id: a.id,
    sourceId: a.sourceId,
    kind: a.kind,
    assetId: a.assetId,
    start: a.start,
    end: a.end,
    blockedStart: a.blockedStart,
    blockedEnd: a.blockedEnd,
    seats: a.seats,
    expiresAt: a.expiresAt,
  };
}

/** Active allocations of an item touching [from, to) (with a margin for buffers), plus maintenance blocks. */
export async function loadBusy(db: DB, ctx: ItemContext, from: number, to: number, now = Date.now()): Promise<Busy[]> {
  const rows = await db
    .select()
    .from(allocations)
    .where(
      and(
        eq(allocations.itemId, ctx.item.id),
        eq(allocations.customerId, ctx.row.customerId),
        eq(allocations.active, true),
        lt(allocations.blockedStart, to + MARGIN_MS),
        gt(allocations.blockedEnd, from - MARGIN_MS),
      ),
    )
    .all();
  return [...rows.filter((r) => r.expiresAt == null || r.expiresAt > now).map(allocationToBusy), ...maintenanceBusy(ctx.item)];
}

/** Active, unexpired holds of an item (id and e-mail), so a booking by the same e-mail can use its held unit. */
export async function loadActiveHolds(db: DB, ctx: ItemContext, now = Date.now()): Promise<{ id: string; email: string }[]> {
  return db
    .select({ id: holds.id, email: holds.email })
    .from(holds)
    .where(
      and(
        eq(holds.inventoryId, ctx.item.id),
        eq(holds.customerId, ctx.row.customerId),
        eq(holds.status, 'active'),
        gt(holds.expiresAt, new Date(now).toISOString()),
      ),
    )
    .all();
}

/** Allocation rows of some sources (bookings, holds, drydock). */
export async function allocationsOf(db: DB, customerId: string, sourceIds: string[]): Promise<AllocationRow[]> {
  if (!sourceIds.length) return [];
  return db
    .select()
    .from(allocations)
    .where(and(eq(allocations.customerId, customerId), inArray(allocations.sourceId, sourceIds)))
    .all();
}
