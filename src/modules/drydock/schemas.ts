import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

const zWhen = (field: string) =>
  z
    .string()
    .trim()
    .min(10)
    .max(40)
    .openapi({ description: `${field}: YYYY-MM-DD (a local day in the location's zone; endDate inclusive) or ISO 8601 with offset`, example: '2026-09-01' });

export const CreateBody = z
  .object({
    boatId: zId('inv_01J0000000000000000000000').openapi({ description: 'The inventory item' }),
    startDate: zWhen('startDate'),
    endDate: zWhen('endDate'),
    assetIds: z.array(z.string().trim().min(1).max(128)).max(500).optional().openapi({ description: 'Assets to block; the whole item when absent or empty' }),
    notes: z.string().trim().max(2000).optional(),
  })
  .openapi('CreateDrydock');

export const ListQuery = z.object({
  boatId: zId('inv_01J0000000000000000000000'),
  assetId: z.string().trim().min(1).max(128).optional().openapi({ description: 'Only periods that block this asset (whole-item periods included)' }),
});

export const UpdateBody = z
  .object({
    rentalId: zId('dd_01J0000000000000000000000').openapi({ description: 'The drydock period' }),
    startDate: zWhen('startDate'),
    endDate: zWhen('endDate'),
    assetId: z.string().trim().min(1).max(128).optional().openapi({ description: 'Move the period to this one asset' }),
    notes: z.string().trim().max(2000).optional(),
  })
  .openapi('UpdateDrydock');

export const DeleteBody = z.object({ rentalId: zId('dd_01J0000000000000000000000') }).openapi('DeleteDrydock');

export const Drydock = z
  .object({
    rentalId: z.string(),
    boatId: z.string(),
    inventoryId: z.string(),
    assetIds: z.array(z.string()),
    wholeItem: z.boolean(),
    startDate: z.string(),
    endDate: z.string(),
    start: z.string(),
    end: z.string(),
    notes: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Drydock');
