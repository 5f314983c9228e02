import { z } from '@hono/zod-openapi';
import { isValidTimeZone } from '../../lib/time';

export const zTimeZone = () =>
  z.string().trim().max(64).refine(isValidTimeZone, 'must be an IANA time zone such as America/New_York').openapi({ example: 'America/New_York' });

export const Location = z
  .object({
    locationId: z.string(),
    customerId: z.string(),
    name: z.string(),
    address: z.string(),
    phoneNumber: z.string(),
    connectId: z.string().nullable(),
    timezone: z.string(),
    currency: z.string(),
    details: z.record(z.string(), z.unknown()),
    ivrConfig: z.record(z.string(), z.unknown()).nullable(),
    coordinates: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    status: z.enum(['active', 'pending_deletion']),
    deletionScheduledAt: z.string().nullable(),
    purgeAfter: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Location');

const phone = () =>
  z
    .string()
    .trim()
    .min(5)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number');

export const ListQuery = z.object({ inventoryId: z.string().min(1).max(128).optional() });

export const CreateBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    address: z.string().trim().min(3).max(500),
    phoneNumber: phone(),
    connectId: z.string().trim().max(128).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    timezone: zTimeZone().optional().openapi({ description: 'IANA zone for slots and days; defaults to `details.timezone` or UTC.' }),
    currency: z.string().trim().length(3).toLowerCase().optional(),
  })
  .openapi('CreateLocation');

export const UpdateBody = z
  .object({
    locationId: z.string().min(1).max(128),
    name: z.string().trim().min(1).max(200).optional(),
    address: z.string().trim().min(3).max(500).optional(),
    phoneNumber: phone().optional(),
    connectId: z.string().trim().max(128).nullable().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    timezone: zTimeZone().optional(),
    currency: z.string().trim().length(3).toLowerCase().optional(),
  })
  .openapi('UpdateLocation');

export const DeleteBody = z.object({ locationId: z.string().min(1).max(128), customerId: z.string().max(128).optional() });
export const RestoreBody = z.object({ locationId: z.string().min(1).max(128) });

export const IvrMenuOption = z.object({
  key: z.string().regex(/^[0-9*#]$/),
  label: z.string().max(200).optional(),
  action: z.enum(['forward', 'voicemail', 'message', 'ring_group', 'hangup']),
  target: z.string().max(500).optional(),
});

export const IvrBody = z
  .object({
    locationId: z.string().min(1).max(128),
    ivrConfig: z
      .object({
        enabled: z.boolean().optional(),
        greeting: z.string().max(2000).optional(),
        menu: z.array(IvrMenuOption).max(12).optional(),
        ringList: z.array(z.string().max(32)).max(20).optional(),
        voicemailEmail: z.string().email().optional(),
        businessHours: z.record(z.string(), z.unknown()).optional(),
      })
      .passthrough(),
  })
  .openapi('UpdateIvr');
