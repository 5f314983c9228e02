import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

const assetIds = z.array(z.string().trim().min(1).max(128)).min(1).max(500);

export const CreatePool = z
  .object({
    locationId: zId('loc_01J0000000000000000000000'),
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().max(2000).nullable().optional(),
    assetIds,
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('CreateAssetPool');
export const UpdatePool = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    assetIds: assetIds.optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('UpdateAssetPool');
export const Pool = z
  .object({
    poolId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    assetIds: z.array(z.string()),
    assets: z.array(z.object({ assetId: z.string(), name: z.string(), itemId: z.string(), itemName: z.string(), status: z.string() })),
    details: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('AssetPool');
export const PoolIdParam = z.object({ poolId: zId('apl_01J0000000000000000000000') });
export const ListQuery = z.object({
  locationId: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const PoolList = z.object({ data: z.array(Pool), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
