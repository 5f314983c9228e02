/**
 * The asset-pools module's face. No other module calls it today: its router reaches the pools defined here.
 */
import { nowIso } from '../../lib/clock';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { assetPools } from '../../db/schema/asset-pools';
import { getLocationInTenant } from '../locations/service';
import { getAssetsInTenant } from '../inventory/service';

type PoolRow = typeof assetPools.$inferSelect;
type Asset = Awaited<ReturnType<typeof getAssetsInTenant>>[number];

function poolOut(p: PoolRow, assets: Asset[]) {
  const byId = new Map(assets.map((a) => [a.id, a]));
  return {
    poolId: p.id,
    customerId: p.customerId,
    locationId: p.locationId,
    name: p.name,
    description: p.description,
    assetIds: p.assetIds,
    assets: p.assetIds
      .map((id) => byId.get(id))
      .filter((a): a is Asset => Boolean(a))
      .map((a) => ({ assetId: a.id, name: a.name, itemId: a.itemId, itemName: a.itemName, status: a.status })),
    details: p.details ?? {},
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** Every asset must be the operator's and belong to an item of the pool's location (400 naming the others). */
async function checkAssets(ctx: Ctx, locationId: string, ids: string[]): Promise<Asset[]> {
  const unique = [...new Set(ids)];
  const found = await getAssetsInTenant(ctx, unique);
  const problems = unique
    .map((id, i) => {
      const a = found.find((f) => f.id === id);
      if (!a) return { field: `assetIds.${i}`, location: 'body', code: 'invalid', message: `unknown asset ${id}` };
      if (a.locationId !== locationId) return { field: `assetIds.${i}`, location: 'body', code: 'invalid', message: `asset ${id} belongs to another location` };
      return null;
    })
    .filter((p) => p !== null);
  if (problems.length) throw new ApiError('validation_failed', `Invalid request: ${problems.map((p) => p.message).join('; ')}`, { details: problems });
  return found;
}

async function poolInTenant(ctx: Ctx, id: string): Promise<PoolRow> {
  const row = await ctx.db
    .select()
    .from(assetPools)
    .where(and(eq(assetPools.id, id), eq(assetPools.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Asset pool');
  return row;
}

export async function listPools(ctx: Ctx, q: { locationId?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const where = and(eq(assetPools.customerId, customerId), q.locationId ? eq(assetPools.locationId, q.locationId) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(assetPools).where(where).orderBy(desc(assetPools.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(assetPools).where(where).get(),
  ]);
  const assets = await getAssetsInTenant(ctx, [...new Set(rows.flatMap((r) => r.assetIds))]);
  return { data: rows.map((r) => poolOut(r, assets)), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export async function getPool(ctx: Ctx, id: string) {
  const row = await poolInTenant(ctx, id);
  return poolOut(row, await getAssetsInTenant(ctx, row.assetIds));
}

export async function createPool(
  ctx: Ctx,
  input: { locationId: string; name: string; description?: string | null; assetIds: string[]; details?: Record<string, unknown> },
) {
  requirePermission(ctx, 'inventory');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const assets = await checkAssets(ctx, input.locationId, input.assetIds);
  const now = nowIso(ctx);
  const row: PoolRow = {
    id: newId('apl'),
    customerId,
    locationId: input.locationId,
    name: input.name,
    description: input.description ?? null,
    assetIds: [...new Set(input.assetIds)],
    details: input.details ?? {},
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(assetPools).values(row)], {
    audit: { action: 'asset_pool.create', targetType: 'asset_pool', targetId: row.id, details: { name: row.name, assets: row.assetIds.length } },
  });
  return poolOut(row, assets);
}

export async function updatePool(
  ctx: Ctx,
  id: string,
  input: { name?: string; description?: string | null; assetIds?: string[]; details?: Record<string, unknown> },
) {
  requirePermission(ctx, 'inventory');
  const existing = await poolInTenant(ctx, id);
  const patch: Partial<PoolRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  if (input.details !== undefined) patch.details = input.details;
  if (input.assetIds !== undefined) {
    await checkAssets(ctx, existing.locationId, input.assetIds);
    patch.assetIds = [...new Set(input.assetIds)];
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of name, description, assetIds, details');
  await commit(
    ctx,
    [
      ctx.db
        .update(assetPools)
        .set(patch)
        .where(and(eq(assetPools.id, id), eq(assetPools.customerId, existing.customerId))),
    ],
    { audit: { action: 'asset_pool.update', targetType: 'asset_pool', targetId: id, details: { fields: Object.keys(patch) } } },
  );
  const row = { ...existing, ...patch, updatedAt: nowIso(ctx) };
  return poolOut(row, await getAssetsInTenant(ctx, row.assetIds));
}

export async function deletePool(ctx: Ctx, id: string) {
  requirePermission(ctx, 'inventory');
  const existing = await poolInTenant(ctx, id);
  await commit(ctx, [ctx.db.delete(assetPools).where(and(eq(assetPools.id, id), eq(assetPools.customerId, existing.customerId)))], {
    audit: { action: 'asset_pool.delete', targetType: 'asset_pool', targetId: id },
  });
  return { success: true, poolId: id };
}
