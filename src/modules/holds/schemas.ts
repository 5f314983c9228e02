import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';

export const HoldBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    email: zEmail(),
    inventoryId: zId('inv_01J0000000000000000000000'),
    locationId: zId('loc_01J0000000000000000000000'),
  })
  .openapi('HoldAsset');

export const Hold = z
  .object({
    holdId: z.string(),
    customerId: z.string(),
    email: z.string(),
    inventoryId: z.string(),
    locationId: z.string(),
    status: z.enum(['active', 'consumed', 'expired', 'released']),
    expiresAt: z.string(),
    assetIds: z.array(z.string()).openapi({ description: 'Rentals: the asset held' }),
    departures: z
      .array(z.object({ startTime: z.string(), endTime: z.string(), seats: z.number() }))
      .openapi({ description: 'Tours: the departures with a seat held' }),
    createdAt: z.string(),
    created: z.boolean().openapi({ description: 'false when this e-mail already held the item (that hold is answered, with 200)' }),
  })
  .openapi('Hold');
