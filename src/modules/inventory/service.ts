import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, forbidden, notFound, type ErrorDetail } from '../../lib/errors';
import { newId, ulid } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { bookings } from '../../db/schema/bookings';
import { ACTIVE_STATUSES } from '../bookings/status';
import { InventoryData, type InventoryModel } from './model';
import { checkUpload, decodeBase64, mediaKey, mediaUrl, type MediaFolder, type MediaKind } from './media';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type AssetRow = typeof inventoryAssets.$inferSelect;
type LocationRow = typeof locations.$inferSelect;
type AssetInput = NonNullable<InventoryModel['assets']>[number];

export const MAX_IMAGES = 50;
export const MAX_VIDEOS = 20;
/** Fields of `data` managed by their own endpoints; an update through /inventory/setup that omits them keeps them. */
const MEDIA_FIELDS = ['images', 'videos', 'assetMap'] as const;

// ---------------------------------------------------------------------------------------------
// Reads

const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_failed', `Invalid request: ${details.map((d) => `${d.field}: ${d.message}`).slice(0, 3).join('; ')}`, { details });

const detail = (field: string, message: string, code = 'invalid'): ErrorDetail => ({ field, location: 'body', code, message });

/** Any operator's item (for the endpoints whose spec answers 403 on another operator's item). */
async function findItemAnyTenant(ctx: Ctx, id: string): Promise<ItemRow | undefined> {
  return ctx.db.select().from(inventoryItems).where(eq(inventoryItems.id, id)).get();
}

/** Tenant-scoped read; another operator's item, an unknown id and a deleted item answer 404. */
export async function getItemInTenant(ctx: Ctx, id: string, opts: { includeDeleted?: boolean } = {}): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, id), eq(inventoryItems.customerId, tenantOf(ctx))))
    .get();
  if (!row || (row.deletedAt && !opts.includeDeleted)) throw notFound('Inventory item');
  return row;
}

/** The caller's live item; another operator's item answers 403 (spec rule of setup, delete and asset map), unknown 404. */
async function getOwnedItemOr403(ctx: Ctx, id: string): Promise<ItemRow> {
  const row = await findItemAnyTenant(ctx, id);
  if (row && row.customerId !== tenantOf(ctx)) throw forbidden('This inventory item belongs to another operator');
  if (!row || row.deletedAt) throw notFound('Inventory item');
  return row;
}

async function locationOf(ctx: Ctx, item: ItemRow): Promise<LocationRow | undefined> {
  return ctx.db.select().from(locations).where(and(eq(locations.id, item.locationId), eq(locations.customerId, item.customerId))).get();
}

const isRemoved = (a: AssetRow) => Boolean(a.details && (a.details as Record<string, unknown>).removedAt);

async function assetsOf(ctx: Ctx, item: Pick<ItemRow, 'id' | 'customerId'>): Promise<AssetRow[]> {
  return ctx.db
    .select()
    .from(inventoryAssets)
    .where(and(eq(inventoryAssets.itemId, item.id), eq(inventoryAssets.customerId, item.customerId)))
    .orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.createdAt))
    .all();
}

/**
 * The stored `data` read through the model (defaults filled in). Rows written before a model
 * change still read: when they no longer parse, the raw object is returned as is.
 */
export function readData(item: Pick<ItemRow, 'data' | 'name' | 'kind' | 'locationId'>): InventoryModel {
  const raw = { name: item.name, type: item.kind, locationId: item.locationId, ...(item.data ?? {}) };
  const parsed = InventoryData.safeParse(raw);
  return parsed.success ? parsed.data : (raw as unknown as InventoryModel);
}

function pinOut(pin: Record<string, unknown> | null) {
  if (!pin || typeof pin.x !== 'number' || typeof pin.y !== 'number') return null;
  return { x: pin.x, y: pin.y, ...(typeof pin.label === 'string' ? { label: pin.label } : {}) };
}

function assetOut(a: AssetRow) {
  return { assetId: a.id, id: a.id, name: a.name, status: a.status, displayOrder: a.displayOrder, mapPin: pinOut(a.mapPin ?? null) };
}

export function itemOut(item: ItemRow, loc: LocationRow | undefined, assets: AssetRow[]) {
  return {
    inventory_id: item.id,
    inventoryId: item.id,
    customerId: item.customerId,
    locationId: item.locationId,
    location: loc ? { locationId: loc.id, name: loc.name, timezone: loc.timezone, currency: loc.currency } : null,
    timezone: loc?.timezone ?? 'UTC',
    name: item.name,
    kind: item.kind,
    isPublic: item.isPublic,
    displayOrder: item.displayOrder,
    version: item.version,
    data: readData(item),
    assets: assets.filter((a) => a.itemId === item.id && !isRemoved(a)).map(assetOut),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

async function viewOf(ctx: Ctx, item: ItemRow) {
  const [loc, assets] = await Promise.all([locationOf(ctx, item), assetsOf(ctx, item)]);
  return itemOut(item, loc, assets);
}

/** An item with its parsed data, live assets and location, for other modules (availability, pricing, catalog). */
export async function getInventoryItem(ctx: Ctx, id: string) {
  const item = await getItemInTenant(ctx, id);
  const [loc, assets] = await Promise.all([locationOf(ctx, item), assetsOf(ctx, item)]);
  return { item, data: readData(item), assets: assets.filter((a) => !isRemoved(a)), location: loc ?? null, timezone: loc?.timezone ?? 'UTC' };
}

// ---------------------------------------------------------------------------------------------
// Optimistic concurrency (see migration 0003_inventory_version_guard)

function isVersionConflict(err: unknown): boolean {
  if (err instanceof ApiError) return false;
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    if (/version_conflict/.test(String((e as Error).message ?? e))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const versionConflict = () => new ApiError('version_conflict', 'The inventory item was changed by another request; reload it and try again');

/**
 * Runs a read-modify-write of an item. A write that lost a race is rolled back by the trigger and
 * re-run on fresh data, unless the caller pinned `expectedVersion` (then 409 version_conflict).
 */
async function withVersionRetry<T>(expectedVersion: number | undefined, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isVersionConflict(err)) throw err;
      if (expectedVersion != null || attempt >= 4) throw versionConflict();
    }
  }
}

function checkExpected(item: ItemRow, expectedVersion: number | undefined) {
  if (expectedVersion != null && item.version !== expectedVersion) {
    throw new ApiError('version_conflict', `The inventory item is at version ${item.version}, not ${expectedVersion}; reload it and try again`, { extra: { currentVersion: item.version } });
  }
}

/** UPDATE of an item's data with the version bump the guard trigger checks. */
function dataUpdateStmt(ctx: Ctx, item: ItemRow, data: Record<string, unknown>, extra: Partial<ItemRow> = {}): Stmt {
  return ctx.db
    .update(inventoryItems)
    .set({ ...extra, data, version: item.version + 1, updatedAt: new Date().toISOString() })
    .where(and(eq(inventoryItems.id, item.id), eq(inventoryItems.customerId, item.customerId)));
}

// ---------------------------------------------------------------------------------------------
// Business rules of the model

/** Rules that need more than one field: kind-specific requirements and unique ids. Throws 400 with every problem. */
export function checkRules(data: InventoryModel, prefix = 'data'): void {
  const problems: ErrorDetail[] = [];
  const f = (path: string) => `${prefix}.${path}`;
  const assets = data.assets ?? [];
  if (data.type === 'tour') {
    if (data.capacity < 1) problems.push(detail(f('capacity'), 'a tour needs a capacity of at least 1 seat'));
    if (!data.timeSlots?.length) problems.push(detail(f('timeSlots'), 'a tour needs at least one time slot', 'required'));
    if (assets.length) problems.push(detail(f('assets'), 'tours are seat-based and have no assets; use capacity'));
  } else if (!assets.length) {
    problems.push(detail(f('assets'), 'a rental needs at least one asset (one per physical unit of the pool)', 'required'));
  }
  const seenIds = new Map<string, number>();
  const seenNames = new Map<string, number>();
  assets.forEach((a, i) => {
    if (a.assetId) {
      if (seenIds.has(a.assetId)) problems.push(detail(f(`assets.${i}.assetId`), `duplicate assetId (also at assets.${seenIds.get(a.assetId)})`));
      else seenIds.set(a.assetId, i);
    }
    const key = a.name.trim().toLowerCase();
    if (seenNames.has(key)) problems.push(detail(f(`assets.${i}.name`), `asset names must be unique within an item (also at assets.${seenNames.get(key)})`));
    else seenNames.set(key, i);
  });
  const addonIds = new Set<string>();
  data.addons.forEach((a, i) => {
    if (addonIds.has(a.addonId)) problems.push(detail(f(`addons.${i}.addonId`), 'duplicate addonId'));
    addonIds.add(a.addonId);
  });
  const slotKeys = new Set<string>();
  (data.timeSlots ?? []).forEach((s, i) => {
    const key = `${s.time}|${[...(s.weekdays ?? [])].sort().join(',')}`;
    if (slotKeys.has(key)) problems.push(detail(f(`timeSlots.${i}.time`), `duplicate time slot ${s.time}`));
    slotKeys.add(key);
  });
  if (problems.length) throw invalid(problems);
}

/** Maintenance blocks may only name assets of the item. */
function checkBlockAssets(data: InventoryModel, assetIds: Set<string>, prefix = 'data'): void {
  const problems: ErrorDetail[] = [];
  data.maintenanceBlocks.forEach((b, i) =>
    (b.assetIds ?? []).forEach((id, j) => {
      if (!assetIds.has(id)) problems.push(detail(`${prefix}.maintenanceBlocks.${i}.assetIds.${j}`, `${id} is not an asset of this item`));
    }),
  );
  if (problems.length) throw invalid(problems);
}

// ---------------------------------------------------------------------------------------------
// Asset pool sync

interface AssetPlan {
  stmts: Stmt[];
  /** `data.assets` as stored: every listed asset with its id. */
  listed: { assetId: string; name: string; status: 'active' | 'inactive' }[];
}

/**
 * Matches the listed assets to the stored ones, keeping ids stable: first by `assetId`, then by
 * name (case-insensitive); the rest are new. Stored assets no longer listed are deactivated and
 * marked removed, never deleted, because bookings reference them.
 */
function planAssets(ctx: Ctx, customerId: string, itemId: string, current: AssetRow[], input: AssetInput[], allowNewIds: boolean): AssetPlan {
  const byId = new Map(current.map((a) => [a.id, a]));
  const used = new Set<string>();
  const match: (AssetRow | string | null)[] = input.map(() => null);
  const problems: ErrorDetail[] = [];
  input.forEach((a, i) => {
    if (!a.assetId) return;
    const row = byId.get(a.assetId);
    if (row) {
      match[i] = row;
      used.add(row.id);
    } else if (allowNewIds) match[i] = a.assetId;
    else problems.push(detail(`data.assets.${i}.assetId`, `${a.assetId} is not an asset of this item; omit assetId to add a new asset`, 'unknown_asset'));
  });
  if (problems.length) throw invalid(problems);
  const norm = (s: string) => s.trim().toLowerCase();
  input.forEach((a, i) => {
    if (a.assetId) return;
    const candidates = current.filter((r) => !used.has(r.id) && norm(r.name) === norm(a.name));
    const row = candidates.find((r) => !isRemoved(r)) ?? candidates[0];
    if (row) {
      match[i] = row;
      used.add(row.id);
    }
  });
  const now = new Date().toISOString();
  const stmts: Stmt[] = [];
  const listed: AssetPlan['listed'] = [];
  input.forEach((a, i) => {
    const m = match[i];
    const name = a.name.trim();
    if (m && typeof m !== 'string') {
      const details = { ...(m.details ?? {}) };
      const wasRemoved = 'removedAt' in details;
      delete details.removedAt;
      if (wasRemoved || m.name !== name || m.status !== a.status || m.displayOrder !== i) {
        stmts.push(
          ctx.db
            .update(inventoryAssets)
            .set({ name, status: a.status, displayOrder: i, details: Object.keys(details).length ? details : null, updatedAt: now })
            .where(and(eq(inventoryAssets.id, m.id), eq(inventoryAssets.customerId, customerId), eq(inventoryAssets.itemId, itemId))),
        );
      }
      listed.push({ assetId: m.id, name, status: a.status });
    } else {
      const id = typeof m === 'string' ? m : newId('ast');
      stmts.push(ctx.db.insert(inventoryAssets).values({ id, customerId, itemId, name, status: a.status, displayOrder: i, mapPin: null, details: null }));
      listed.push({ assetId: id, name, status: a.status });
    }
  });
  for (const row of current) {
    if (used.has(row.id) || isRemoved(row)) continue;
    stmts.push(
      ctx.db
        .update(inventoryAssets)
        .set({ status: 'inactive', mapPin: null, details: { ...(row.details ?? {}), removedAt: now }, updatedAt: now })
        .where(and(eq(inventoryAssets.id, row.id), eq(inventoryAssets.customerId, customerId), eq(inventoryAssets.itemId, itemId))),
    );
  }
  return { stmts, listed };
}

// ---------------------------------------------------------------------------------------------
// POST /inventory/setup

export interface SetupInput {
  data: InventoryModel;
  inventory_id?: string;
  inventoryId?: string;
  customerId?: string;
  expectedVersion?: number;
}

export interface SetupOptions {
  /** Sandbox seed only: an unknown `inventory_id` creates the item with that id, and new assets keep the given ids. */
  fixedIds?: boolean;
}

export async function setupInventory(ctx: Ctx, input: SetupInput, opts: SetupOptions = {}) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'inventory');
  const requestedId = input.inventory_id ?? input.inventoryId;
  checkRules(input.data);

  return withVersionRetry(input.expectedVersion, async () => {
    const existing = requestedId ? await findItemAnyTenant(ctx, requestedId) : undefined;
    if (existing && existing.customerId !== customerId) throw forbidden('This inventory item belongs to another operator');
    if (requestedId && (!existing || existing.deletedAt) && !(opts.fixedIds && !existing)) throw notFound('Inventory item');
    if (existing) checkExpected(existing, input.expectedVersion);
    const location = await ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.id, input.data.locationId), eq(locations.customerId, customerId)))
      .get();
    if (!location) throw new ApiError('not_found', `Location ${input.data.locationId} not found`, { details: [detail('data.locationId', 'not one of your locations', 'not_found')] });
    if (location.status === 'pending_deletion' && existing?.locationId !== location.id) {
      throw new ApiError('invalid_state', 'The location is scheduled for deletion; restore it before adding inventory to it');
    }
    const itemId = existing?.id ?? requestedId ?? newId('inv');
    const current = existing ? await assetsOf(ctx, existing) : [];
    const plan = planAssets(ctx, customerId, itemId, current, input.data.type === 'tour' ? [] : (input.data.assets ?? []), Boolean(opts.fixedIds));
    checkBlockAssets(input.data, new Set(plan.listed.map((a) => a.assetId)));

    const stored: Record<string, unknown> = { ...input.data, currency: (input.data.currency ?? location.currency).toLowerCase() };
    if (input.data.type === 'tour') delete stored.assets;
    else stored.assets = plan.listed;
    if (existing) {
      const before = (existing.data ?? {}) as Record<string, unknown>;
      for (const k of MEDIA_FIELDS) if (stored[k] === undefined && before[k] !== undefined) stored[k] = before[k];
    }
    const columns = { name: input.data.name, kind: input.data.type, isPublic: input.data.isPublic, locationId: location.id };
    const stmts: Stmt[] = [];
    if (existing) stmts.push(dataUpdateStmt(ctx, existing, stored, columns));
    else {
      const last = await ctx.db
        .select({ max: sql<number | null>`max(${inventoryItems.displayOrder})` })
        .from(inventoryItems)
        .where(eq(inventoryItems.customerId, customerId))
        .get();
      stmts.push(ctx.db.insert(inventoryItems).values({ id: itemId, customerId, ...columns, data: stored, displayOrder: (last?.max ?? -1) + 1, version: 1 }));
    }
    stmts.push(...plan.stmts);
    await commit(ctx, stmts, {
      audit: {
        action: existing ? 'inventory.update' : 'inventory.create',
        targetType: 'inventory_item',
        targetId: itemId,
        details: { name: input.data.name, kind: input.data.type, assets: plan.listed.length, version: existing ? existing.version + 1 : 1 },
      },
    });
    const item = await getItemInTenant(ctx, itemId);
    return { success: true, created: !existing, ...(await viewOf(ctx, item)) };
  });
}

// ---------------------------------------------------------------------------------------------
// Lists, order, deletion

export async function listInventory(ctx: Ctx, q: { customer_id: string; locationId?: string; kind?: 'rental' | 'tour' }) {
  const customerId = ownCustomer(ctx, q.customer_id);
  const conds = [eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt)];
  if (q.locationId) conds.push(eq(inventoryItems.locationId, q.locationId));
  if (q.kind) conds.push(eq(inventoryItems.kind, q.kind));
  const [rows, locs, assets] = await Promise.all([
    ctx.db.select().from(inventoryItems).where(and(...conds)).orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt)).all(),
    ctx.db.select().from(locations).where(eq(locations.customerId, customerId)).all(),
    ctx.db.select().from(inventoryAssets).where(eq(inventoryAssets.customerId, customerId)).orderBy(asc(inventoryAssets.displayOrder), asc(inventoryAssets.createdAt)).all(),
  ]);
  const locById = new Map(locs.map((l) => [l.id, l]));
  const assetsByItem = new Map<string, AssetRow[]>();
  for (const a of assets) {
    const list = assetsByItem.get(a.itemId) ?? [];
    list.push(a);
    assetsByItem.set(a.itemId, list);
  }
  const data = rows.map((r) => itemOut(r, locById.get(r.locationId), assetsByItem.get(r.id) ?? []));
  return { data, total: data.length };
}

export async function reorderInventory(ctx: Ctx, input: { orderedBoats: string[]; customerId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'inventory');
  const rows = await ctx.db
    .select({ id: inventoryItems.id, displayOrder: inventoryItems.displayOrder })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
    .all();
  const known = new Set(rows.map((r) => r.id));
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  input.orderedBoats.forEach((id, i) => {
    if (seen.has(id)) problems.push(detail(`orderedBoats.${i}`, `${id} is listed twice`, 'duplicate'));
    else if (!known.has(id)) problems.push(detail(`orderedBoats.${i}`, `${id} is not one of your inventory items`, 'unknown_item'));
    seen.add(id);
  });
  if (problems.length) throw invalid(problems);
  // Items not listed keep their relative order after the listed ones.
  const order = [...input.orderedBoats, ...rows.filter((r) => !seen.has(r.id)).map((r) => r.id)];
  const currentOrder = new Map(rows.map((r) => [r.id, r.displayOrder]));
  const now = new Date().toISOString();
  const stmts: Stmt[] = order
    .map((id, i) => ({ id, i }))
    .filter(({ id, i }) => currentOrder.get(id) !== i)
    .map(({ id, i }) => ctx.db.update(inventoryItems).set({ displayOrder: i, updatedAt: now }).where(and(eq(inventoryItems.id, id), eq(inventoryItems.customerId, customerId))));
  await commit(ctx, stmts, { audit: { action: 'inventory.reorder', targetType: 'inventory_item', details: { order } } });
  return { success: true, orderedBoats: order };
}

export async function deleteInventory(ctx: Ctx, id: string) {
  requirePermission(ctx, 'inventory');
  const item = await getOwnedItemOr403(ctx, id);
  const now = new Date();
  const upcoming = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(bookings)
    .where(and(eq(bookings.customerId, item.customerId), eq(bookings.itemId, item.id), inArray(bookings.status, ACTIVE_STATUSES), gt(bookings.end, now.getTime())))
    .get();
  if (upcoming && upcoming.n > 0) {
    throw new ApiError('has_upcoming_bookings', `The item has ${upcoming.n} upcoming booking(s); cancel or move them before deleting it`, { status: 400, extra: { upcomingBookings: upcoming.n } });
  }
  const deletedAt = now.toISOString();
  await commit(ctx, [ctx.db.update(inventoryItems).set({ deletedAt, updatedAt: deletedAt }).where(and(eq(inventoryItems.id, item.id), eq(inventoryItems.customerId, item.customerId), isNull(inventoryItems.deletedAt)))], {
    audit: { action: 'inventory.delete', targetType: 'inventory_item', targetId: item.id, details: { name: item.name } },
  });
  return { success: true, inventory_id: item.id, inventoryId: item.id, deletedAt };
}

// ---------------------------------------------------------------------------------------------
// /inventory-pricing

const isAllYear = (s: { startDate?: string; endDate?: string }) => !s.startDate && !s.endDate;

export function pricingView(item: ItemRow, loc: LocationRow | undefined) {
  const d = readData(item);
  const seasons = d.seasons ?? [];
  const allYear = seasons.find(isAllYear);
  return {
    inventory_id: item.id,
    inventoryId: item.id,
    name: item.name,
    kind: item.kind,
    currency: d.currency ?? loc?.currency ?? 'usd',
    timezone: loc?.timezone ?? 'UTC',
    version: item.version,
    data: {
      seasons,
      hourlyPrices: allYear?.hourlyPrices ?? {},
      dailyPrices: allYear?.dailyPrices ?? {},
      tourPricing: d.tourPricing ?? null,
      addons: d.addons ?? [],
      taxes: d.taxes ?? [],
      scheduleExceptions: d.scheduleExceptions ?? [],
      capacityOverrides: d.capacityOverrides ?? [],
      maintenanceBlocks: d.maintenanceBlocks ?? [],
      deposit: d.deposit ?? null,
      turnaroundBufferMinutes: d.turnaroundBufferMinutes ?? 0,
    },
  };
}

export async function getPricing(ctx: Ctx, q: { inventory_id?: string; inventoryId?: string }) {
  const item = await getItemInTenant(ctx, (q.inventory_id ?? q.inventoryId)!);
  return pricingView(item, await locationOf(ctx, item));
}

const REPLACED_PRICING_FIELDS = ['seasons', 'tourPricing', 'addons', 'taxes', 'scheduleExceptions', 'capacityOverrides', 'maintenanceBlocks', 'deposit', 'turnaroundBufferMinutes'] as const;

export interface PricingInput {
  inventory_id?: string;
  inventoryId?: string;
  expectedVersion?: number;
  seasons?: unknown[];
  hourlyPrices?: Record<string, unknown>;
  dailyPrices?: Record<string, number>;
  tourPricing?: unknown;
  addons?: unknown[];
  taxes?: unknown[];
  scheduleExceptions?: unknown[];
  capacityOverrides?: unknown[];
  maintenanceBlocks?: unknown[];
  deposit?: unknown;
  turnaroundBufferMinutes?: number;
}

export async function updatePricing(ctx: Ctx, input: PricingInput) {
  requirePermission(ctx, 'inventory');
  const id = (input.inventory_id ?? input.inventoryId)!;
  const given = REPLACED_PRICING_FIELDS.filter((k) => input[k] !== undefined);
  if (!given.length && !input.hourlyPrices && !input.dailyPrices) {
    throw new ApiError('no_changes', 'Give at least one pricing field: seasons, hourlyPrices, dailyPrices, tourPricing, addons, taxes, scheduleExceptions, capacityOverrides, maintenanceBlocks, deposit or turnaroundBufferMinutes');
  }
  return withVersionRetry(input.expectedVersion, async () => {
    const item = await getItemInTenant(ctx, id);
    checkExpected(item, input.expectedVersion);
    const next: Record<string, unknown> = { name: item.name, type: item.kind, locationId: item.locationId, ...(item.data ?? {}) };
    for (const k of given) {
      if (input[k] === null) delete next[k];
      else next[k] = input[k];
    }
    if (input.hourlyPrices || input.dailyPrices) {
      const seasons = [...((next.seasons as Record<string, unknown>[] | undefined) ?? [])];
      let i = seasons.findIndex((s) => isAllYear(s as { startDate?: string; endDate?: string }));
      if (i < 0) {
        seasons.push({ name: 'Default', dailyPrices: {}, hourlyPrices: {} });
        i = seasons.length - 1;
      }
      const s = seasons[i];
      seasons[i] = {
        ...s,
        hourlyPrices: { ...((s.hourlyPrices as object) ?? {}), ...(input.hourlyPrices ?? {}) },
        dailyPrices: { ...((s.dailyPrices as object) ?? {}), ...(input.dailyPrices ?? {}) },
      };
      next.seasons = seasons;
    }
    const parsed = InventoryData.safeParse(next);
    if (!parsed.success) {
      throw invalid(parsed.error.issues.map((iss) => detail(`data.${iss.path.map(String).join('.')}`, iss.message, iss.code)));
    }
    checkRules(parsed.data);
    const assets = await assetsOf(ctx, item);
    checkBlockAssets(parsed.data, new Set(assets.filter((a) => !isRemoved(a)).map((a) => a.id)));
    await commit(ctx, [dataUpdateStmt(ctx, item, parsed.data as Record<string, unknown>)], {
      audit: { action: 'inventory.pricing_update', targetType: 'inventory_item', targetId: item.id, details: { fields: [...given, ...(input.hourlyPrices ? ['hourlyPrices'] : []), ...(input.dailyPrices ? ['dailyPrices'] : [])], version: item.version + 1 } },
    });
    const fresh = await getItemInTenant(ctx, id);
    return { success: true, ...pricingView(fresh, await locationOf(ctx, fresh)) };
  });
}

// ---------------------------------------------------------------------------------------------
// Photos and videos

export interface UploadFile {
  bytes: Uint8Array;
  name?: string;
}

/**
 * Stores a photo or video in R2 under `<customerId>/inventory/<itemId>/` and appends its URL to
 * data.images / data.videos. `readFile` is called once the item is known to be the caller's, so an
 * unknown item answers 404 before the body is read.
 */
export async function uploadMedia(ctx: Ctx, itemId: string, kind: MediaKind, readFile: () => Promise<UploadFile>, baseUrl: string) {
  requirePermission(ctx, 'inventory');
  const customerId = tenantOf(ctx);
  const field = kind === 'photo' ? 'images' : 'videos';
  const limit = kind === 'photo' ? MAX_IMAGES : MAX_VIDEOS;
  const item = await getItemInTenant(ctx, itemId);
  const full = () => new ApiError('limit_reached', `An item holds at most ${limit} ${field}; remove one with POST /inventory/setup first`, { status: 400 });
  const count = ((((item.data ?? {}) as Record<string, unknown>)[field] as unknown[] | undefined) ?? []).length;
  if (count >= limit) throw full();
  const file = await readFile();
  const found = checkUpload(kind, file.bytes);
  const folder: MediaFolder = kind === 'photo' ? 'photos' : 'videos';
  const fileName = `${ulid().toLowerCase()}.${found.ext}`;
  const key = mediaKey(customerId, item.id, folder, fileName);
  const url = mediaUrl(baseUrl, customerId, item.id, folder, fileName);
  await ctx.env.FILES.put(key, file.bytes, {
    httpMetadata: { contentType: found.mime, cacheControl: 'public, max-age=31536000, immutable' },
    customMetadata: { customerId, itemId: item.id, kind, originalName: (file.name ?? '').slice(0, 200), uploadedBy: ctx.principal.userId ?? ctx.principal.credentialId },
  });
  try {
    const result = await withVersionRetry(undefined, async () => {
      const fresh = await getItemInTenant(ctx, itemId);
      const data = { ...((fresh.data ?? {}) as Record<string, unknown>) };
      const list = [...((data[field] as string[] | undefined) ?? []), url];
      if (list.length > limit) throw full();
      data[field] = list;
      await commit(ctx, [dataUpdateStmt(ctx, fresh, data)], {
        audit: { action: `inventory.${kind}_upload`, targetType: 'inventory_item', targetId: fresh.id, details: { key, contentType: found.mime, size: file.bytes.length } },
      });
      return { list, version: fresh.version + 1 };
    });
    return {
      success: true,
      inventory_id: item.id,
      inventoryId: item.id,
      key,
      url,
      contentType: found.mime,
      size: file.bytes.length,
      width: found.width,
      height: found.height,
      [field]: result.list,
      version: result.version,
    };
  } catch (err) {
    await ctx.env.FILES.delete(key).catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Asset map

export interface AssetMapInput {
  pins: { assetId: string; x: number; y: number; label?: string }[];
  mapImage?: { data: string; fileName?: string };
  removeMapImage?: boolean;
}

/** Replaces the pins of an item's asset map and optionally its image (JSON with base64). */
export async function setAssetMap(ctx: Ctx, itemId: string, input: AssetMapInput, baseUrl: string) {
  requirePermission(ctx, 'inventory');
  const item0 = await getOwnedItemOr403(ctx, itemId);
  const customerId = item0.customerId;
  const live = (await assetsOf(ctx, item0)).filter((a) => !isRemoved(a));
  const byId = new Map(live.map((a) => [a.id, a]));
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  input.pins.forEach((p, i) => {
    if (seen.has(p.assetId)) problems.push(detail(`pins.${i}.assetId`, `${p.assetId} has two pins`, 'duplicate'));
    else if (!byId.has(p.assetId)) problems.push(detail(`pins.${i}.assetId`, `${p.assetId} is not an asset of this item`, 'unknown_asset'));
    seen.add(p.assetId);
  });
  if (problems.length) throw invalid(problems);

  let image: { key: string; url: string; mime: string; width: number | null; height: number | null } | null = null;
  if (input.mapImage) {
    const bytes = decodeBase64(input.mapImage.data, 'mapImage.data');
    const found = checkUpload('photo', bytes, 'mapImage.data');
    const fileName = `${ulid().toLowerCase()}.${found.ext}`;
    const key = mediaKey(customerId, item0.id, 'asset-map', fileName);
    image = { key, url: mediaUrl(baseUrl, customerId, item0.id, 'asset-map', fileName), mime: found.mime, width: found.width, height: found.height };
    await ctx.env.FILES.put(key, bytes, {
      httpMetadata: { contentType: found.mime, cacheControl: 'public, max-age=31536000, immutable' },
      customMetadata: { customerId, itemId: item0.id, kind: 'asset-map', originalName: (input.mapImage.fileName ?? '').slice(0, 200) },
    });
  }
  const now = new Date().toISOString();
  try {
    return await withVersionRetry(undefined, async () => {
      const item = await getItemInTenant(ctx, itemId);
      const pinned = new Map(input.pins.map((p) => [p.assetId, p]));
      const stmts: Stmt[] = [];
      for (const a of live) {
        const p = pinned.get(a.id);
        const pin = p ? { x: p.x, y: p.y, ...(p.label ? { label: p.label } : {}) } : null;
        if (JSON.stringify(pin) === JSON.stringify(pinOut(a.mapPin ?? null))) continue;
        stmts.push(ctx.db.update(inventoryAssets).set({ mapPin: pin, updatedAt: now }).where(and(eq(inventoryAssets.id, a.id), eq(inventoryAssets.customerId, customerId), eq(inventoryAssets.itemId, item.id))));
      }
      const data = { ...((item.data ?? {}) as Record<string, unknown>) };
      let version = item.version;
      if (image || (input.removeMapImage && data.assetMap)) {
        data.assetMap = image ? { imageUrl: image.url, imageKey: image.key, contentType: image.mime, width: image.width, height: image.height, updatedAt: now } : { imageUrl: null, updatedAt: now };
        stmts.push(dataUpdateStmt(ctx, item, data));
        version += 1;
      }
      await commit(ctx, stmts, { audit: { action: 'inventory.asset_map_update', targetType: 'inventory_item', targetId: item.id, details: { pins: input.pins.length, image: image?.key ?? (input.removeMapImage ? 'removed' : 'unchanged') } } });
      const map = data.assetMap as { imageUrl: string | null; contentType?: string | null; width?: number | null; height?: number | null; updatedAt?: string } | undefined;
      return {
        success: true,
        inventory_id: item.id,
        inventoryId: item.id,
        assetMap: map?.imageUrl ? { imageUrl: map.imageUrl, contentType: map.contentType ?? null, width: map.width ?? null, height: map.height ?? null, updatedAt: map.updatedAt } : null,
        pins: input.pins.map((p) => ({ assetId: p.assetId, name: byId.get(p.assetId)!.name, x: p.x, y: p.y, ...(p.label ? { label: p.label } : {}) })),
        version,
      };
    });
  } catch (err) {
    if (image) await ctx.env.FILES.delete(image.key).catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Public media

/**
 * A stored inventory media file, public: photos and videos are shown by the booking widget and
 * resellers. Honours a single `Range: bytes=...` (206), as video players need.
 */
export async function openMedia(ctx: Ctx, p: { customerId: string; itemId: string; folder: MediaFolder; file: string }, rangeHeader?: string | null) {
  const key = mediaKey(p.customerId, p.itemId, p.folder, p.file);
  const head = await ctx.env.FILES.head(key);
  if (!head) throw notFound('File');
  const size = head.size;
  let range: { offset: number; length: number } | null = null;
  const m = rangeHeader ? /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim()) : null;
  if (m && (m[1] || m[2])) {
    const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
    const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      throw new ApiError('range_not_satisfiable', `The file has ${size} bytes; the requested range is outside it`, { status: 416, headers: { 'content-range': `bytes */${size}` } });
    }
    range = { offset: start, length: end - start + 1 };
  }
  const obj = await ctx.env.FILES.get(key, range ? { range } : undefined);
  if (!obj) throw notFound('File');
  const headers: Record<string, string> = {
    'content-type': head.httpMetadata?.contentType ?? 'application/octet-stream',
    'content-length': String(range ? range.length : size),
    'cache-control': head.httpMetadata?.cacheControl ?? 'public, max-age=3600',
    etag: head.httpEtag,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  if (range) headers['content-range'] = `bytes ${range.offset}-${range.offset + range.length - 1}/${size}`;
  return { body: obj.body, status: range ? 206 : 200, headers };
}
