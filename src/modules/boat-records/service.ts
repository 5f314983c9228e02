import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { boatRecords, inventoryAssets } from '../../db/schema/inventory';
import { bookings } from '../../db/schema/bookings';
import { getItemInTenant } from '../inventory/service';
import { analyzeCondition, isCheckin, isCheckout, photosOf } from './condition';

type RecordRow = typeof boatRecords.$inferSelect;

export function recordOut(r: RecordRow) {
  return {
    recordId: r.id,
    inventoryId: r.inventoryId,
    RecordType: r.recordType,
    Details: r.details ?? {},
    RentalId: r.rentalId,
    AssetId: r.assetId,
    timestamp: r.timestamp,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The stored form of a timestamp: UTC with milliseconds, so text order is time order. */
const normalizeTs = (ts: string) => new Date(ts).toISOString();

// ---------------------------------------------------------------------------------------------
// Cursor: opaque, URL-safe; bound to the item (and record type) it was issued for.

interface Cursor {
  i: string;
  t: string;
  r?: string;
}

function encodeCursor(c: Cursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify(c));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(token: string, inventoryId: string, recordType?: string): Cursor {
  const bad = () =>
    new ApiError('invalid_cursor', 'nextToken is not valid for this query; start again without it', {
      details: [{ field: 'nextToken', location: 'query', code: 'invalid_cursor', message: 'invalid nextToken' }],
    });
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw bad();
    const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
    const c = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))) as Cursor;
    if (!c || typeof c.t !== 'string' || c.i !== inventoryId || (c.r ?? undefined) !== (recordType ?? undefined) || Number.isNaN(Date.parse(c.t))) throw bad();
    return c;
  } catch {
    throw bad();
  }
}

/** A page of an item's records, newest first. */
async function page(ctx: Ctx, q: { inventoryId: string; RecordType?: string; limit: number; nextToken?: string }) {
  const item = await getItemInTenant(ctx, q.inventoryId, { includeDeleted: true });
  const cursor = q.nextToken ? decodeCursor(q.nextToken, item.id, q.RecordType) : null;
  const conds = [eq(boatRecords.customerId, item.customerId), eq(boatRecords.inventoryId, item.id)];
  if (q.RecordType) conds.push(eq(boatRecords.recordType, q.RecordType));
  if (cursor) conds.push(lt(boatRecords.timestamp, cursor.t));
  const rows = await ctx.db
    .select()
    .from(boatRecords)
    .where(and(...conds))
    .orderBy(desc(boatRecords.timestamp))
    .limit(q.limit + 1)
    .all();
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit).map(recordOut);
  const last = data[data.length - 1];
  return {
    data,
    count: data.length,
    limit: q.limit,
    hasMore,
    nextToken: hasMore && last ? encodeCursor({ i: item.id, t: last.timestamp, ...(q.RecordType ? { r: q.RecordType } : {}) }) : null,
  };
}

export const listRecords = (ctx: Ctx, q: { inventoryId: string; RecordType?: string; limit: number; nextToken?: string }) => page(ctx, q);
export const rundownRecords = (ctx: Ctx, q: { inventoryId: string; limit: number; nextToken?: string }) => page(ctx, q);

async function getRecord(ctx: Ctx, inventoryId: string, timestamp: string): Promise<RecordRow> {
  const row = await ctx.db
    .select()
    .from(boatRecords)
    .where(and(eq(boatRecords.customerId, tenantOf(ctx)), eq(boatRecords.inventoryId, inventoryId), eq(boatRecords.timestamp, normalizeTs(timestamp))))
    .get();
  if (!row) throw notFound('Inventory record');
  return row;
}

/** The check-out this check-in closes: the latest one before it, of the same rental (else asset, else item). */
async function checkoutBefore(ctx: Ctx, r: Pick<RecordRow, 'customerId' | 'inventoryId' | 'rentalId' | 'assetId' | 'timestamp'>) {
  const conds = [eq(boatRecords.customerId, r.customerId), eq(boatRecords.inventoryId, r.inventoryId), lt(boatRecords.timestamp, r.timestamp)];
  if (r.rentalId) conds.push(eq(boatRecords.rentalId, r.rentalId));
  else if (r.assetId) conds.push(eq(boatRecords.assetId, r.assetId));
  const rows = await ctx.db
    .select()
    .from(boatRecords)
    .where(and(...conds, sql`lower(replace(replace(replace(${boatRecords.recordType}, '-', ''), '_', ''), ' ', '')) = 'checkout'`))
    .orderBy(desc(boatRecords.timestamp))
    .limit(1)
    .all();
  const row = rows.find((x) => isCheckout(x.recordType));
  return row ? { Details: row.details ?? {}, timestamp: row.timestamp, RecordType: row.recordType } : null;
}

/** A check-in with photos gets `Details.conditionAnalysis` (see ./condition.ts). */
async function withAnalysis(
  ctx: Ctx,
  r: Pick<RecordRow, 'customerId' | 'inventoryId' | 'rentalId' | 'assetId' | 'timestamp' | 'recordType'>,
  details: Record<string, unknown>,
) {
  if (!isCheckin(r.recordType) || !photosOf(details).length) return details;
  return { ...details, conditionAnalysis: analyzeCondition(details, await checkoutBefore(ctx, r)) };
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
  const timestamp = normalizeTs(input.timestamp ?? new Date().toISOString());
  const exists = await ctx.db
    .select({ id: boatRecords.id })
    .from(boatRecords)
    .where(and(eq(boatRecords.customerId, customerId), eq(boatRecords.inventoryId, item.id), eq(boatRecords.timestamp, timestamp)))
    .get();
  const duplicate = () =>
    new ApiError('already_exists', `The item already has a record at ${timestamp}; use PATCH /boatRecords to change it`, { extra: { timestamp } });
  if (exists) throw duplicate();
  const base = { customerId, inventoryId: item.id, rentalId: input.RentalId ?? null, assetId: input.AssetId ?? null, timestamp, recordType: input.RecordType };
  const details = await withAnalysis(ctx, base, input.Details);
  const now = new Date().toISOString();
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
    if (/UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err)) || /UNIQUE/i.test(String((err as { cause?: Error })?.cause?.message ?? '')))
      throw duplicate();
    throw err;
  }
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
  if (!('conditionAnalysis' in input.Updates)) details = await withAnalysis(ctx, row, details);
  const updatedAt = new Date().toISOString();
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
