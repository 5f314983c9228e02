import { z } from '@hono/zod-openapi';
import { zId, zLimit, zOffset } from '../../lib/openapi';

const locationId = () => zId('loc_01J0000000000000000000000');
const callSid = () => z.string().trim().min(2).max(64).openapi({ example: 'CA0123456789abcdef0123456789abcdef' });

export const KeyQuery = z.object({ locationId: locationId(), callSid: callSid(), attempt: z.coerce.number().int().min(0).max(10).optional() });
export const DialQuery = z.object({
  locationId: locationId(),
  callSid: callSid(),
  currentIndex: z.coerce.number().int().min(0).max(50),
  ringList: z.string().max(2000).openapi({ description: 'JSON array of E.164 numbers, e.g. `["+13055550100","+13055550101"]`', example: '["+13055550100"]' }),
});
export const RecordingQuery = z.object({ locationId: locationId() });

/** What the provider posts (form-encoded); documented, read by the handler. */
export const ProviderForm = z
  .object({
    CallSid: z.string().optional(),
    From: z.string().optional(),
    To: z.string().optional(),
    Digits: z.string().optional(),
    DialCallStatus: z.string().optional(),
    RecordingSid: z.string().optional(),
    RecordingUrl: z.string().optional(),
    RecordingStatus: z.string().optional(),
    RecordingDuration: z.string().optional(),
  })
  .openapi('TelephonyWebhookForm');

export const RecordingReceipt = z
  .object({ success: z.boolean(), voicemailId: z.string(), status: z.enum(['recording', 'completed', 'failed']) })
  .openapi('VoicemailReceipt');

export const VoicemailQuery = z.object({ locationId: z.string().max(128).optional(), limit: zLimit(), offset: zOffset() });
export const Voicemail = z
  .object({
    voicemailId: z.string(),
    locationId: z.string(),
    callSid: z.string(),
    fromNumber: z.string().nullable(),
    renterId: z.string().nullable(),
    recordingUrl: z.string().nullable(),
    durationSeconds: z.number().int().nullable(),
    status: z.enum(['recording', 'completed', 'failed']),
    createdAt: z.string(),
  })
  .openapi('Voicemail');
export const VoicemailList = z
  .object({ data: z.array(Voicemail), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('VoicemailList');
