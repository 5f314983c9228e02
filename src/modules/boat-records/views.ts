import type { z } from '@hono/zod-openapi';
import type { boatRecords } from '../../db/schema/inventory';
import type { BoatRecord } from './schemas';

export type RecordRow = typeof boatRecords.$inferSelect;

/** A record as the API answers it (`InventoryRecord`, with the spec's capitalised field names). */
export function recordOut(r: RecordRow): z.output<typeof BoatRecord> {
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
