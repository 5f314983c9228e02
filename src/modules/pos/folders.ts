import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { posFolderItems, posFolders, posItems } from '../../db/schema/pos';
import { locationOf } from './queries';
import { folderOut, type FolderRow } from './views';

async function withItems(ctx: Ctx, rows: FolderRow[]) {
  if (!rows.length) return [];
  const links = await ctx.db
    .select()
    .from(posFolderItems)
    .where(
      inArray(
        posFolderItems.folderId,
        rows.map((r) => r.id),
      ),
    )
    .all();
  return rows.map((f) =>
    folderOut(
      f,
      links.filter((l) => l.folderId === f.id).map((l) => l.itemId),
    ),
  );
}

async function folderInLocation(ctx: Ctx, customerId: string, locationId: string, folderId: string): Promise<FolderRow> {
  const row = await ctx.db
    .select()
    .from(posFolders)
    .where(and(eq(posFolders.id, folderId), eq(posFolders.customerId, customerId), eq(posFolders.locationId, locationId)))
    .get();
  if (!row) throw notFound('Folder');
  return row;
}

async function itemLinks(ctx: Ctx, customerId: string, locationId: string, folderId: string, itemIds: string[] | undefined): Promise<Stmt[]> {
  if (itemIds === undefined) return [];
  const unique = [...new Set(itemIds)];
  if (unique.length) {
    const found = await ctx.db
      .select({ id: posItems.id })
      .from(posItems)
      .where(and(eq(posItems.customerId, customerId), eq(posItems.locationId, locationId), inArray(posItems.id, unique), isNull(posItems.deletedAt)))
      .all();
    if (found.length !== unique.length)
      throw new ApiError('bad_request', 'Unknown itemIds for this location', { details: [{ field: 'itemIds', message: 'unknown product' }] });
  }
  return [
    ctx.db.delete(posFolderItems).where(and(eq(posFolderItems.folderId, folderId), eq(posFolderItems.customerId, customerId))),
    ...unique.map((itemId) => ctx.db.insert(posFolderItems).values({ folderId, itemId, customerId })),
  ];
}

export async function listFolders(ctx: Ctx, q: { locationId: string; tillId?: string }) {
  const customerId = tenantOf(ctx);
  await locationOf(ctx, q.locationId);
  const rows = await ctx.db
    .select()
    .from(posFolders)
    .where(and(eq(posFolders.customerId, customerId), eq(posFolders.locationId, q.locationId), q.tillId ? eq(posFolders.tillId, q.tillId) : undefined))
    .orderBy(asc(posFolders.position), asc(posFolders.createdAt))
    .all();
  return { data: await withItems(ctx, rows) };
}

export async function createFolder(
  ctx: Ctx,
  input: { locationId: string; name: string; color?: string; tillId?: string; favorite?: boolean; itemIds?: string[] },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  await locationOf(ctx, input.locationId);
  const id = newId('pfld');
  const links = await itemLinks(ctx, customerId, input.locationId, id, input.itemIds);
  await commit(
    ctx,
    [
      ctx.db.insert(posFolders).values({
        id,
        customerId,
        locationId: input.locationId,
        tillId: input.tillId ?? null,
        name: input.name,
        color: input.color ?? null,
        favorite: input.favorite ?? false,
        // Last in the location's order, computed by SQL in the same statement.
        position: sql`(SELECT coalesce(max(position), -1) + 1 FROM pos_folders WHERE customer_id = ${customerId} AND location_id = ${input.locationId})`,
      }),
      ...links,
    ],
    { audit: { action: 'pos.folder.create', targetType: 'pos_folder', targetId: id, details: { name: input.name } } },
  );
  return (await withItems(ctx, [await folderInLocation(ctx, customerId, input.locationId, id)]))[0];
}

export async function updateFolder(
  ctx: Ctx,
  input: { locationId: string; folderId: string; name?: string; color?: string | null; favorite?: boolean; tillId?: string | null; itemIds?: string[] },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const f = await folderInLocation(ctx, customerId, input.locationId, input.folderId);
  const patch: Partial<FolderRow> = {};
  for (const k of ['name', 'color', 'favorite', 'tillId'] as const) if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
  const stmts: Stmt[] = [];
  if (Object.keys(patch).length)
    stmts.push(
      ctx.db
        .update(posFolders)
        .set(patch)
        .where(and(eq(posFolders.id, f.id), eq(posFolders.customerId, customerId))),
    );
  stmts.push(...(await itemLinks(ctx, customerId, input.locationId, f.id, input.itemIds)));
  if (!stmts.length) throw new ApiError('no_changes', 'Nothing to change: give name, color, favorite, tillId or itemIds');
  await commit(ctx, stmts, { audit: { action: 'pos.folder.update', targetType: 'pos_folder', targetId: f.id, details: { fields: Object.keys(input) } } });
  return (await withItems(ctx, [await folderInLocation(ctx, customerId, input.locationId, f.id)]))[0];
}

/** DELETE /pos/folders: the folder goes and its products lose the link to it (the products stay). */
export async function deleteFolder(ctx: Ctx, input: { locationId: string; folderId: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const f = await folderInLocation(ctx, customerId, input.locationId, input.folderId);
  const links = await ctx.db.select().from(posFolderItems).where(eq(posFolderItems.folderId, f.id)).all();
  await commit(
    ctx,
    [
      ctx.db.delete(posFolderItems).where(and(eq(posFolderItems.folderId, f.id), eq(posFolderItems.customerId, customerId))),
      ctx.db.delete(posFolders).where(and(eq(posFolders.id, f.id), eq(posFolders.customerId, customerId))),
    ],
    { audit: { action: 'pos.folder.delete', targetType: 'pos_folder', targetId: f.id, details: { name: f.name, unlinkedItems: links.length } } },
  );
  return { success: true, folderId: f.id, unlinkedItemIds: links.map((l) => l.itemId) };
}

/** PUT /pos/folders/reorder: `folderOrder` lists folder ids of the location in their new order (positions 0, 1, ...). */
export async function reorderFolders(ctx: Ctx, input: { locationId: string; folderOrder: string[] }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  await locationOf(ctx, input.locationId);
  const ids = input.folderOrder;
  if (new Set(ids).size !== ids.length)
    throw new ApiError('bad_request', 'folderOrder lists a folder twice', { details: [{ field: 'folderOrder', message: 'duplicate id' }] });
  const found = await ctx.db
    .select({ id: posFolders.id })
    .from(posFolders)
    .where(and(eq(posFolders.customerId, customerId), eq(posFolders.locationId, input.locationId), inArray(posFolders.id, ids)))
    .all();
  if (found.length !== ids.length)
    throw new ApiError('bad_request', 'folderOrder names folders this location does not have', {
      details: [{ field: 'folderOrder', message: 'unknown folder' }],
    });
  await commit(
    ctx,
    ids.map((id, position) =>
      ctx.db
        .update(posFolders)
        .set({ position })
        .where(and(eq(posFolders.id, id), eq(posFolders.customerId, customerId))),
    ),
    { audit: { action: 'pos.folder.reorder', targetType: 'location', targetId: input.locationId, details: { folderOrder: ids } } },
  );
  return listFolders(ctx, { locationId: input.locationId });
}

/** POST /pos/folders/duplicate: copies the source till's folders (and their products) to the target till; 404 when the source has none. */
export async function duplicateFolders(ctx: Ctx, input: { locationId: string; sourceTillId: string; targetTillId: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  await locationOf(ctx, input.locationId);
  if (input.sourceTillId === input.targetTillId) throw new ApiError('bad_request', 'sourceTillId and targetTillId are the same till');
  const source = await ctx.db
    .select()
    .from(posFolders)
    .where(and(eq(posFolders.customerId, customerId), eq(posFolders.locationId, input.locationId), eq(posFolders.tillId, input.sourceTillId)))
    .orderBy(asc(posFolders.position))
    .all();
  if (!source.length) throw notFound(`Folders of till ${input.sourceTillId}`);
  const links = await ctx.db
    .select()
    .from(posFolderItems)
    .where(
      inArray(
        posFolderItems.folderId,
        source.map((f) => f.id),
      ),
    )
    .all();
  const stmts: Stmt[] = [];
  const newIds: string[] = [];
  for (const f of source) {
    const id = newId('pfld');
    newIds.push(id);
    stmts.push(
      ctx.db.insert(posFolders).values({
        id,
        customerId,
        locationId: f.locationId,
        tillId: input.targetTillId,
        name: f.name,
        color: f.color,
        favorite: f.favorite,
        position: sql`(SELECT coalesce(max(position), -1) + 1 FROM pos_folders WHERE customer_id = ${customerId} AND location_id = ${input.locationId})`,
      }),
    );
    for (const l of links.filter((x) => x.folderId === f.id)) stmts.push(ctx.db.insert(posFolderItems).values({ folderId: id, itemId: l.itemId, customerId }));
  }
  await commit(ctx, stmts, {
    audit: {
      action: 'pos.folder.duplicate',
      targetType: 'location',
      targetId: input.locationId,
      details: { from: input.sourceTillId, to: input.targetTillId, folders: newIds.length },
    },
  });
  const rows = await ctx.db.select().from(posFolders).where(inArray(posFolders.id, newIds)).orderBy(asc(posFolders.position)).all();
  return { data: await withItems(ctx, rows), sourceTillId: input.sourceTillId, targetTillId: input.targetTillId };
}
