import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { ErrorDetail } from '../../lib/errors';
import { ulid } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { inventoryAssets } from '../../db/schema/inventory';
import { checkUpload, decodeBase64, mediaKey, mediaUrl } from './media';
import { detail, invalid } from './errors';
import { assetsOf, getItemInTenant, getOwnedItemOr403 } from './queries';
import { isRemoved, pinOut } from './views';
import { dataUpdateStmt, withVersionRetry } from './version';

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
  const now = nowIso(ctx);
  try {
    return await withVersionRetry(undefined, async () => {
      const item = await getItemInTenant(ctx, itemId);
      const pinned = new Map(input.pins.map((p) => [p.assetId, p]));
      const stmts: Stmt[] = [];
      for (const a of live) {
        const p = pinned.get(a.id);
        const pin = p ? { x: p.x, y: p.y, ...(p.label ? { label: p.label } : {}) } : null;
        if (JSON.stringify(pin) === JSON.stringify(pinOut(a.mapPin ?? null))) continue;
        stmts.push(
          ctx.db
            .update(inventoryAssets)
            .set({ mapPin: pin, updatedAt: now })
            .where(and(eq(inventoryAssets.id, a.id), eq(inventoryAssets.customerId, customerId), eq(inventoryAssets.itemId, item.id))),
        );
      }
      const data = { ...((item.data ?? {}) as Record<string, unknown>) };
      let version = item.version;
      if (image || (input.removeMapImage && data.assetMap)) {
        data.assetMap = image
          ? { imageUrl: image.url, imageKey: image.key, contentType: image.mime, width: image.width, height: image.height, updatedAt: now }
          : { imageUrl: null, updatedAt: now };
        stmts.push(dataUpdateStmt(ctx, item, data));
        version += 1;
      }
      await commit(ctx, stmts, {
        audit: {
          action: 'inventory.asset_map_update',
          targetType: 'inventory_item',
          targetId: item.id,
          details: { pins: input.pins.length, image: image?.key ?? (input.removeMapImage ? 'removed' : 'unchanged') },
        },
      });
      const map = data.assetMap as
        { imageUrl: string | null; contentType?: string | null; width?: number | null; height?: number | null; updatedAt?: string } | undefined;
      return {
        success: true,
        inventory_id: item.id,
        inventoryId: item.id,
        assetMap: map?.imageUrl
          ? { imageUrl: map.imageUrl, contentType: map.contentType ?? null, width: map.width ?? null, height: map.height ?? null, updatedAt: map.updatedAt }
          : null,
        pins: input.pins.map((p) => ({ assetId: p.assetId, name: byId.get(p.assetId)!.name, x: p.x, y: p.y, ...(p.label ? { label: p.label } : {}) })),
        version,
      };
    });
  } catch (err) {
    if (image) await ctx.env.FILES.delete(image.key).catch(() => undefined);
    throw err;
  }
}
