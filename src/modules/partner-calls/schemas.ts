import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const PlaceCall = z
  .object({
    locationId: zId('loc_01J0000000000000000000000'),
    to: z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +13055550123'),
    message: z.string().trim().min(1).max(1000).openapi({ description: 'What the call says (text-to-speech)' }),
  })
  .openapi('PlaceCall');
export const Call = z
  .object({
    callId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    appId: z.string().nullable(),
    installationId: z.string().nullable(),
    from: z.string(),
    to: z.string(),
    message: z.string().nullable(),
    status: z.enum(['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled']),
    durationSeconds: z.number().int().nullable(),
    endedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PartnerCall');
export const CallIdParam = z.object({ callId: zId('call_01J0000000000000000000000') });
export const ListQuery = z.object({
  locationId: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const CallList = z.object({ data: z.array(Call), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
