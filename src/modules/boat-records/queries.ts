import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { boatRecords } from '../../db/schema/inventory';
import { getItemInTenant } from '../inventory/service';
import { isCheckout } from './condition';
import { recordOut, type RecordRow } from './views';

/** The stored form of a timestamp: UTC with milliseconds, so text order is time order. */
export const normalizeTs = (ts: string) => new Date(ts).toISOString();

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

/** Tenant-scoped read of one record by its item and timestamp; 404 otherwise. */
export async function getRecord(ctx: Ctx, inventoryId: string, timestamp: string): Promise<RecordRow> {
  const row = await ctx.db
    .select()
    .from(boatRecords)
    .where(and(eq(boatRecords.customerId, tenantOf(ctx)), eq(boatRecords.inventoryId, inventoryId), eq(boatRecords.timestamp, normalizeTs(timestamp))))
    .get();
  if (!row) throw notFound('Inventory record');
  return row;
}

/** The check-out this check-in closes: the latest one before it, of the same rental (else asset, else item). */
export async function checkoutBefore(ctx: Ctx, r: Pick<RecordRow, 'customerId' | 'inventoryId' | 'rentalId' | 'assetId' | 'timestamp'>) {
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
