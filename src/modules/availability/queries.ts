/**
 * Reading an item's availability state from D1: the item row and its parsed model, the active
 * assets, the location's zone, and the active allocations of a time range as engine `Busy` rows
 * (maintenance blocks of the model added). Used by the services (reads) and by the item's
 * InventoryLock object (the authoritative check before a sale).
 *
 * Round trips: everything one read needs goes in ONE D1 batch of single-table statements (a join
 * in `db.batch()` would shift values between columns that share a name, because drizzle maps batch
 * results from D1 row objects). Parts a caller already holds for the item's current version are
 * fetched conditionally in SQL: the statement returns no rows when the stored version key still
 * matches, so a warm cache costs the same single round trip and almost no transfer.
 */
import { and, asc, eq, gt, inArray, isNull, lt, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { reusable, type DB } from '../../db/client';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { holds } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { InventoryData, type InventoryModel } from '../inventory/types';
import { ApiError, notFound } from '../../lib/errors';
import { maintenanceBusy } from './windows';
import type { Busy, EngineItem } from './engine-types';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;
export type AllocationRow = typeof allocations.$inferSelect;
export type AssetRow = typeof inventoryAssets.$inferSelect;

export interface ItemContext {
  row: ItemRow;
  item: EngineItem;
  location: LocationRow;
  currency: string;
}

/** Buffers and tour durations reach at most this far outside a queried range. */
export const MARGIN_MS = 2 * 86_400_000;

/** A JSON array bound as ONE parameter (`x IN (SELECT value FROM json_each(?))`): lists of any length stay under D1's 100-parameter cap. */
export const inJson = (column: SQLWrapper, values: readonly (string | number)[]): SQL =>
  sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;

/** What computed availability of an item depends on, as one string: its model version, allocation sequence and last update. */
export const stateKeyOf = (row: Pick<ItemRow, 'version' | 'allocSeq' | 'updatedAt'>) => `${row.version}|${row.allocSeq}|${row.updatedAt}`;
export const stateKeySql = sql`${inventoryItems.version} || '|' || ${inventoryItems.allocSeq} || '|' || ${inventoryItems.updatedAt}`;
/** The item's model key (version and update time): its assets and location are cached by it. */
export const modelKeyOf = (row: Pick<ItemRow, 'version' | 'updatedAt'>) => `${row.version}|${row.updatedAt}`;
export const modelKeySql = sql`${inventoryItems.version} || '|' || ${inventoryItems.updatedAt}`;

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

/**
 * The pool of each item for the engine, cached by item id and model key: every change of an
 * item's assets (POST /inventory/setup) bumps its version.
 */
const assetCache = new Map<string, { key: string; assets: EngineItem['assets'] }>();

export function cacheAssets(row: ItemRow, rows: Pick<AssetRow, 'id' | 'name' | 'status' | 'displayOrder' | 'customerId'>[]): EngineItem['assets'] {
  const assets = rows
    .filter((a) => a.customerId === row.customerId)
    .sort((a, b) => a.displayOrder - b.displayOrder || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((a) => ({ id: a.id, name: a.name, status: a.status, displayOrder: a.displayOrder }));
  if (assetCache.size > 500) assetCache.clear();
  assetCache.set(row.id, { key: modelKeyOf(row), assets });
  return assets;
}

function cachedAssets(row: ItemRow): EngineItem['assets'] | undefined {
  const hit = assetCache.get(row.id);
  return hit && hit.key === modelKeyOf(row) ? hit.assets : undefined;
}

async function engineAssets(db: DB, row: ItemRow): Promise<EngineItem['assets']> {
  const hit = cachedAssets(row);
  if (hit) return hit;
  const rows = await db
    .select()
    .from(inventoryAssets)
    .where(eq(inventoryAssets.itemId, row.id))
    .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.id))
    .all();
  return cacheAssets(row, rows);
}

export function itemKind(row: ItemRow, model: InventoryModel): 'rental' | 'tour' {
  return row.kind === 'tour' || model.type === 'tour' ? 'tour' : 'rental';
}

/** An item context from rows already read: the item, its location and (rentals) its asset rows. */
export function itemContextFrom(row: ItemRow, location: LocationRow, assets: EngineItem['assets']): ItemContext {
  const model = parseModel(row);
  const kind = itemKind(row, model);
  const item: EngineItem = { id: row.id, kind, model, timezone: location.timezone || 'UTC', assets: kind === 'tour' ? [] : assets };
  return { row, item, location, currency: (model.currency ?? location.currency ?? 'usd').toLowerCase() };
}

/** An item context from the item and location rows (its assets from the cache, or one read). */
export async function itemContextOf(db: DB, row: ItemRow, location: LocationRow): Promise<ItemContext> {
  return itemContextFrom(row, location, await engineAssets(db, row));
}

/**
 * Statements for a caller's batch that read items with their locations and assets (tenant-scoped
 * when `customerId` is given; null for public reads, which check visibility themselves). Turn the
 * results into contexts with `itemContextsFrom`.
 */
export function itemStatements(db: DB, itemIds: string[], customerId: string | null) {
  // Built once per isolate (`reusable`): every sale reads its items this way.
  const shape = `items|${+!!customerId}`;
  const values = { ids: JSON.stringify([...new Set(itemIds)]), customerId };
  const where = () =>
    and(
      sql`${inventoryItems.id} in (select value from json_each(${sql.placeholder('ids')}))`,
      customerId ? eq(inventoryItems.customerId, sql.placeholder('customerId')) : undefined,
      isNull(inventoryItems.deletedAt),
    );
  return [
    reusable(db, `${shape}|items`, () => db.select().from(inventoryItems).where(where()), values),
    reusable(
      db,
      `${shape}|locations`,
      () =>
        db
          .select()
          .from(locations)
          .where(inArray(locations.id, db.select({ id: inventoryItems.locationId }).from(inventoryItems).where(where()))),
      values,
    ),
    reusable(
      db,
      `${shape}|assets`,
      () =>
        db
          .select({
            id: inventoryAssets.id,
            itemId: inventoryAssets.itemId,
            name: inventoryAssets.name,
            status: inventoryAssets.status,
            displayOrder: inventoryAssets.displayOrder,
            customerId: inventoryAssets.customerId,
          })
          .from(inventoryAssets)
          .where(inArray(inventoryAssets.itemId, db.select({ id: inventoryItems.id }).from(inventoryItems).where(where()))),
      values,
    ),
  ] as const;
}

type ItemBatch = [ItemRow[], LocationRow[], (Pick<AssetRow, 'id' | 'name' | 'status' | 'displayOrder' | 'customerId'> & { itemId: string })[]];

/**
 * The contexts of the items a batch of `itemStatements` read (deleted, foreign and location-less
 * items are absent). `only`: build these items only (the others may have settings that do not parse).
 */
export function itemContextsFrom([items, locs, assets]: ItemBatch, only?: Set<string>): Map<string, ItemContext> {
  const out = new Map<string, ItemContext>();
  for (const row of items) {
    if (only && !only.has(row.id)) continue;
    const location = locs.find((l) => l.id === row.locationId && l.customerId === row.customerId);
    if (!location) continue;
    out.set(
      row.id,
      itemContextFrom(
        row,
        location,
        cacheAssets(
          row,
          assets.filter((a) => a.itemId === row.id),
        ),
      ),
    );
  }
  return out;
}

/**
 * An item with its assets and location, in one round trip. `customerId` scopes it to an operator
 * (null for public reads, which then check the location themselves). Deleted items and unknown
 * ids answer 404.
 */
export async function loadItemContext(db: DB, itemId: string, customerId: string | null): Promise<ItemContext> {
  const [items, locs, assets] = await db.batch(itemStatements(db, [itemId], customerId));
  const hit = itemContextsFrom([items, locs, assets]).get(itemId);
  if (!hit) throw notFound('Inventory item');
  return hit;
}

/** The other (not deleted) items at the location of `itemId`, id and settings only: their global add-ons are offered with it. For a batch. */
export function otherItemsAtLocationStatement(db: DB, itemId: string, customerId: string) {
  const locationOf = db
    .select({ l: inventoryItems.locationId })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, itemId), eq(inventoryItems.customerId, customerId)));
  return db
    .select({ id: inventoryItems.id, data: inventoryItems.data })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.customerId, customerId),
        eq(inventoryItems.locationId, locationOf),
        isNull(inventoryItems.deletedAt),
        ne(inventoryItems.id, itemId),
      ),
    );
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

/**
 * The ids among `itemIds` whose state key differs from the one the caller holds (`known`: id ->
 * `stateKeyOf`), as a subquery: a caller with cached answers fetches allocations only for items
 * that changed, in the same batch that reads the items.
 */
export function itemsChangedStatement(db: DB, itemIds: string[], known: Map<string, string>): SQL {
  const pairs = [...known].map(([id, key]) => `${id}#${key}`);
  return db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(
      and(
        inJson(inventoryItems.id, itemIds),
        pairs.length ? sql`(${inventoryItems.id} || '#' || ${stateKeySql}) not in (select value from json_each(${JSON.stringify(pairs)}))` : undefined,
      ),
    )
    .getSQL();
}

/** Active allocations of the given items touching [from, to) (with the margin), as one statement for a batch. */
export function allocationsStatement(db: DB, q: { itemIds: string[] | SQL; customerIds?: string[] | SQL; from: number; to: number }) {
  return db
    .select()
    .from(allocations)
    .where(
      and(
        Array.isArray(q.itemIds) ? inJson(allocations.itemId, q.itemIds) : sql`${allocations.itemId} in (${q.itemIds})`,
        q.customerIds
          ? Array.isArray(q.customerIds)
            ? inJson(allocations.customerId, q.customerIds)
            : sql`${allocations.customerId} in (${q.customerIds})`
          : undefined,
        eq(allocations.active, true),
        lt(allocations.blockedStart, q.to + MARGIN_MS),
        gt(allocations.blockedEnd, q.from - MARGIN_MS),
      ),
    );
}

/** Active, unexpired allocations of several items touching [from, to), grouped by item, in one read. */
export async function loadAllocationsFor(db: DB, items: { id: string; customerId: string }[], from: number, to: number, now: number) {
  const out = new Map<string, AllocationRow[]>(items.map((i) => [i.id, []]));
  if (!items.length) return out;
  const rows = await allocationsStatement(db, { itemIds: items.map((i) => i.id), customerIds: [...new Set(items.map((i) => i.customerId))], from, to }).all();
  for (const a of rows) if (a.expiresAt == null || a.expiresAt > now) out.get(a.itemId)?.push(a);
  return out;
}

/** Allocation rows grouped by item, unexpired only (for rows a batch read with `allocationsStatement`). */
export function groupAllocations(rows: AllocationRow[], now: number): Map<string, AllocationRow[]> {
  const out = new Map<string, AllocationRow[]>();
  for (const a of rows) {
    if (a.expiresAt != null && a.expiresAt <= now) continue;
    const list = out.get(a.itemId);
    if (list) list.push(a);
    else out.set(a.itemId, [a]);
  }
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

/** Engine busy rows of an item from its allocation rows (unexpired ones), plus the model's maintenance blocks. */
export function busyOf(ctx: ItemContext, rows: AllocationRow[], now: number): Busy[] {
  return [...rows.filter((r) => r.expiresAt == null || r.expiresAt > now).map(allocationToBusy), ...maintenanceBusy(ctx.item)];
}

/** Active allocations of an item touching [from, to) (with a margin for buffers), plus maintenance blocks. */
export async function loadBusy(db: DB, ctx: ItemContext, from: number, to: number, now: number): Promise<Busy[]> {
  const rows = await allocationsStatement(db, { itemIds: [ctx.item.id], customerIds: [ctx.row.customerId], from, to }).all();
  return busyOf(ctx, rows, now);
}

/** Active, unexpired holds of an item (id and e-mail), so a booking by the same e-mail can use its held unit. */
export async function loadActiveHolds(db: DB, ctx: ItemContext, now: number): Promise<{ id: string; email: string }[]> {
  return activeHoldsStatement(db, ctx.item.id, ctx.row.customerId, now).all();
}

function activeHoldsStatement(db: DB, itemId: string, customerId: string, now: number) {
  return db
    .select({ id: holds.id, email: holds.email })
    .from(holds)
    .where(and(eq(holds.inventoryId, itemId), eq(holds.customerId, customerId), eq(holds.status, 'active'), gt(holds.expiresAt, new Date(now).toISOString())));
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
