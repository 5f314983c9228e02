import type { z } from '@hono/zod-openapi';
import type { boatRecords } from '../../db/schema/inventory';
import { DETAILS_MAX_DEPTH, type BoatRecord } from './schemas';

export type RecordRow = typeof boatRecords.$inferSelect;

/** A record as the API answers it (`InventoryRecord`, with the spec's capitalised field names). */
export function recordOut(r: RecordRow): z.output<typeof BoatRecord> {
  return {
    recordId: r.id,
    inventoryId: r.inventoryId,
    RecordType: r.recordType,
    Details: bounded(r.details ?? {}),
    RentalId: r.rentalId,
    AssetId: r.assetId,
    timestamp: r.timestamp,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** What stands in for a part of `Details` nested deeper than DETAILS_MAX_DEPTH. */
export const TOO_DEEP = `[nested more than ${DETAILS_MAX_DEPTH} levels deep: not shown]`;

/**
 * `Details` as answered: records written before the nesting cap may hold JSON nested thousands of
 * levels deep, which no response could serialize; the parts past the cap are replaced by TOO_DEEP
 * (the recursion stops at the cap, so it is bounded too).
 */
export function bounded(details: Record<string, unknown>): Record<string, unknown> {
  const cut = (v: unknown, depth: number): unknown => {
    if (!v || typeof v !== 'object') return v;
    if (depth > DETAILS_MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) return v.map((x) => cut(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, depth + 1)]));
  };
  return cut(details, 1) as Record<string, unknown>;
}
