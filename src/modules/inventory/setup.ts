import { nowIso } from '../../lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, forbidden, notFound, type ErrorDetail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import type { InventoryModel } from './model';
import { detail, invalid } from './errors';
import { assetsOf, findItemAnyTenant, getItemInTenant, viewOf } from './queries';
import { isRemoved, type AssetRow } from './views';
import { checkExpected, dataUpdateStmt, withVersionRetry } from './version';
import { checkBlockAssets, checkRules } from './rules';
import { deletePhotoFiles } from './photo-files';

type AssetInput = NonNullable<InventoryModel['assets']>[number];

/** Fields of `data` managed by their own endpoints; an update through /inventory/setup that omits them keeps them. */
const MEDIA_FIELDS = ['images', 'videos', 'assetMap'] as const;

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
  const now = nowIso(ctx);
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
    if (!location)
      throw new ApiError('not_found', `Location ${input.data.locationId} not found`, {
        details: [detail('data.locationId', 'not one of your locations', 'not_found')],
      });
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
    let removedImages: string[] = [];
    if (existing) {
      const before = (existing.data ?? {}) as Record<string, unknown>;
      for (const k of MEDIA_FIELDS) if (stored[k] === undefined && before[k] !== undefined) stored[k] = before[k];
      const kept = new Set((stored.images as string[] | undefined) ?? []);
      removedImages = ((before.images as string[] | undefined) ?? []).filter((u) => !kept.has(u));
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
    // Photos taken out of data.images: their files (original and variants) go too.
    if (removedImages.length) await deletePhotoFiles(ctx, customerId, itemId, removedImages);
    const item = await getItemInTenant(ctx, itemId);
    return { success: true, created: !existing, ...(await viewOf(ctx, item)) };
  });
}
