import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { inventoryItems } from '../../db/schema/inventory';
import type { ItemRow } from './views';

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
export async function withVersionRetry<T>(expectedVersion: number | undefined, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isVersionConflict(err)) throw err;
      if (expectedVersion != null || attempt >= 4) throw versionConflict();
    }
  }
}

export function checkExpected(item: ItemRow, expectedVersion: number | undefined) {
  if (expectedVersion != null && item.version !== expectedVersion) {
    throw new ApiError('version_conflict', `The inventory item is at version ${item.version}, not ${expectedVersion}; reload it and try again`, {
      extra: { currentVersion: item.version },
    });
  }
}

/** UPDATE of an item's data with the version bump the guard trigger checks. */
export function dataUpdateStmt(ctx: Ctx, item: ItemRow, data: Record<string, unknown>, extra: Partial<ItemRow> = {}): Stmt {
  return ctx.db
    .update(inventoryItems)
    .set({ ...extra, data, version: item.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(inventoryItems.id, item.id), eq(inventoryItems.customerId, item.customerId)));
}
