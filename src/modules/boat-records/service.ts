/**
 * The boat-records module's face, and the writes of check-in and check-out records (create, update,
 * delete) its router calls. Others use it for:
 * - the photo analysis queue and its sweep (the photo-analysis tests): analyzeRecordPhotos, nextStalePhotoAnalysis, PHOTO_ANALYSIS_KIND.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso, nowMs } from '../../lib/clock';
import { boatRecords, inventoryAssets } from '../../db/schema/inventory';
import { bookings } from '../../db/schema/bookings';
import { getItemInTenant } from '../inventory/service';
import { analyzeCondition, isCheckin, photosOf } from './condition';
import { enqueuePhotoAnalysis, queuedPhotoAnalysis } from './photo-analysis';
import { checkoutBefore, getRecord, normalizeTs } from './queries';
import { recordOut, type RecordRow } from './views';

export { analyzeRecordPhotos, nextStalePhotoAnalysis, PHOTO_ANALYSIS_KIND } from './photo-analysis';

/**
 * A check-in with photos gets `Details.conditionAnalysis` (the rule-based comparison of ./condition.ts)
 * and its photo analysis queued (./photo-analysis.ts); photos unchanged by an update keep their analysis.
 */
async function withAnalysis(
  ctx: Ctx,
  r: Pick<RecordRow, 'customerId' | 'inventoryId' | 'rentalId' | 'assetId' | 'timestamp' | 'recordType'>,
  details: Record<string, unknown>,
  previous?: Record<string, unknown>,
): Promise<{ details: Record<string, unknown>; queue: boolean }> {
  if (!isCheckin(r.recordType) || !photosOf(details).length) return { details, queue: false };
  const rules = analyzeCondition(details, await checkoutBefore(ctx, r), nowMs(ctx));
  const before = (previous?.conditionAnalysis as { photoAnalysis?: unknown } | undefined)?.photoAnalysis;
  const same = previous && before && JSON.stringify(photosOf(previous)) === JSON.stringify(photosOf(details));
  return { details: { ...details, conditionAnalysis: { ...rules, photoAnalysis: same ? before : queuedPhotoAnalysis(ctx) } }, queue: !same };
}

export interface CreateInput {
  inventoryId: string;
  RecordType: string;
  Details: Record<string, unknown>;
  RentalId?: string;
  AssetId?: string;
  timestamp?: string;
}

export async function createRecord(ctx: Ctx, input: CreateInput) {
  const item = await getItemInTenant(ctx, input.inventoryId);
  const customerId = item.customerId;
  if (input.AssetId) {
    const asset = await ctx.db
      .select({ id: inventoryAssets.id })
      .from(inventoryAssets)
      .where(and(eq(inventoryAssets.id, input.AssetId), eq(inventoryAssets.customerId, customerId), eq(inventoryAssets.itemId, item.id)))
      .get();
    if (!asset)
      throw new ApiError('validation_failed', 'Invalid request: AssetId is not an asset of this item', {
        details: [{ field: 'AssetId', location: 'body', code: 'unknown_asset', message: 'not an asset of this item' }],
      });
  }
  if (input.RentalId) {
    const booking = await ctx.db
      .select({ id: bookings.id, itemId: bookings.itemId })
      .from(bookings)
      .where(and(eq(bookings.id, input.RentalId), eq(bookings.customerId, customerId)))
      .get();
    if (!booking || booking.itemId !== item.id) {
      throw new ApiError('validation_failed', 'Invalid request: RentalId is not a booking of this item', {
        details: [{ field: 'RentalId', location: 'body', code: 'unknown_rental', message: 'not one of your bookings of this item' }],
      });
    }
  }
  const timestamp = normalizeTs(input.timestamp ?? nowIso(ctx));
  const exists = await ctx.db
    .select({ id: boatRecords.id })
    .from(boatRecords)
    .where(and(eq(boatRecords.customerId, customerId), eq(boatRecords.inventoryId, item.id), eq(boatRecords.timestamp, timestamp)))
    .get();
  const duplicate = () =>
    new ApiError('already_exists', `The item already has a record at ${timestamp}; use PATCH /boatRecords to change it`, { extra: { timestamp } });
  if (exists) throw duplicate();
  const base = { customerId, inventoryId: item.id, rentalId: input.RentalId ?? null, assetId: input.AssetId ?? null, timestamp, recordType: input.RecordType };
  const { details, queue } = await withAnalysis(ctx, base, input.Details);
  const now = nowIso(ctx);
  const row: RecordRow = { id: newId('rec'), ...base, details, createdAt: now, updatedAt: now };
  try {
    await commit(ctx, [ctx.db.insert(boatRecords).values(row)], {
      audit: {
        action: 'inventory_record.create',
        targetType: 'inventory_record',
        targetId: row.id,
        details: { inventoryId: item.id, RecordType: row.recordType, timestamp },
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
  if (queue) enqueuePhotoAnalysis(ctx, row);
  return recordOut(row);
}

export async function updateRecord(ctx: Ctx, input: { inventoryId: string; timestamp: string; Updates: Record<string, unknown> }) {
  if (!Object.keys(input.Updates).length) throw new ApiError('no_changes', 'Updates is empty; give at least one key to merge into Details');
  const item = await getItemInTenant(ctx, input.inventoryId);
  const row = await getRecord(ctx, item.id, input.timestamp);
  let details: Record<string, unknown> = { ...(row.details ?? {}) };
  for (const [k, v] of Object.entries(input.Updates)) {
    if (v === null) delete details[k];
    else details[k] = v;
  }
  let queue = false;
  if (!('conditionAnalysis' in input.Updates)) ({ details, queue } = await withAnalysis(ctx, row, details, row.details ?? {}));
  const updatedAt = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(boatRecords)
        .set({ details, updatedAt })
        .where(and(eq(boatRecords.id, row.id), eq(boatRecords.customerId, row.customerId))),
    ],
    {
      audit: {
        action: 'inventory_record.update',
        targetType: 'inventory_record',
        targetId: row.id,
        details: { inventoryId: item.id, keys: Object.keys(input.Updates) },
      },
    },
  );
  if (queue) enqueuePhotoAnalysis(ctx, row);
  return recordOut({ ...row, details, updatedAt });
}

export async function deleteRecord(ctx: Ctx, input: { inventoryId: string; timestamp: string }) {
  requirePermission(ctx, 'inventory');
  const item = await getItemInTenant(ctx, input.inventoryId, { includeDeleted: true });
  const row = await getRecord(ctx, item.id, input.timestamp);
  await commit(ctx, [ctx.db.delete(boatRecords).where(and(eq(boatRecords.id, row.id), eq(boatRecords.customerId, row.customerId)))], {
    audit: {
      action: 'inventory_record.delete',
      targetType: 'inventory_record',
      targetId: row.id,
      details: { inventoryId: item.id, RecordType: row.recordType, timestamp: row.timestamp },
    },
  });
  return { success: true, deleted: recordOut(row) };
}
