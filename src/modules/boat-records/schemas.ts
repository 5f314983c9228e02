import { z } from '@hono/zod-openapi';

const zId = () => z.string().trim().min(1).max(128);

/** ISO 8601 instant with `Z` or an offset; stored normalised to UTC milliseconds (`2025-06-01T14:00:00.000Z`). */
export const zTimestamp = () =>
  z
    .string()
    .trim()
    .max(40)
    .pipe(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2025-06-01T14:00:00Z' }))
    .openapi({ example: '2025-06-01T14:00:00.000Z' });

const zRecordType = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.:-]*$/, 'letters, digits, space, _ . : - only')
    .openapi({ example: 'checkin', description: 'Free-form kind, for example checkout, checkin, damage, fuel, maintenance' });

/** Nesting of `Details` (and of `Updates`) a record may hold: deeper is refused before anything is written. */
export const DETAILS_MAX_DEPTH = 16;

/** Levels of objects and arrays in a JSON value (1 for `{}`), counted without recursion; stops past `cap`. */
export function nestingOf(value: unknown, cap = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > cap) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

const zDetails = () =>
  z
    .record(z.string(), z.unknown())
    .refine((v) => nestingOf(v, DETAILS_MAX_DEPTH) <= DETAILS_MAX_DEPTH, `must not nest objects and arrays more than ${DETAILS_MAX_DEPTH} levels deep`);

export const BoatRecord = z
  .object({
    recordId: z.string(),
    inventoryId: z.string(),
    RecordType: z.string(),
    Details: z.record(z.string(), z.unknown()),
    RentalId: z.string().nullable(),
    AssetId: z.string().nullable(),
    timestamp: z.string().openapi({ description: 'Sort key (UTC, unique per item)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('InventoryRecord');

export const RecordPage = z
  .object({
    data: z.array(BoatRecord),
    count: z.number().int().openapi({ description: 'Records in this page' }),
    limit: z.number().int(),
    hasMore: z.boolean(),
    nextToken: z.string().nullable().openapi({ description: 'Opaque, URL-safe; pass it back as `nextToken` for the next page; null on the last page' }),
  })
  .openapi('InventoryRecordPage');

export const ListQuery = z.object({
  inventoryId: zId(),
  RecordType: zRecordType().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  nextToken: z.string().max(1000).optional(),
});

export const RundownQuery = z.object({
  inventoryId: zId(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  nextToken: z.string().max(1000).optional(),
});

export const CreateBody = z
  .object({
    inventoryId: zId(),
    RecordType: zRecordType(),
    Details: zDetails().openapi({ description: `Free-form JSON object, at most ${DETAILS_MAX_DEPTH} levels deep` }),
    RentalId: zId().optional().openapi({ description: "A booking (rental) of this item; 400 when it is not one of the caller's bookings of the item" }),
    AssetId: zId().optional().openapi({ description: 'An asset of this item' }),
    timestamp: zTimestamp().optional().openapi({ description: 'Defaults to now; 409 when the item already has a record at this instant' }),
  })
  .openapi('CreateInventoryRecord');

export const UpdateBody = z
  .object({
    inventoryId: zId(),
    timestamp: zTimestamp(),
    Updates: zDetails().openapi({ description: 'Merged into Details key by key; a key set to null is removed' }),
  })
  .openapi('UpdateInventoryRecord');

export const DeleteBody = z.object({ inventoryId: zId(), timestamp: zTimestamp() }).openapi('DeleteInventoryRecord');

export const DeleteResult = z.object({ success: z.boolean(), deleted: BoatRecord }).openapi('DeleteInventoryRecordResult');
