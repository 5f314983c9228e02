/** Row → response mappers of voice, typed against the response schemas. */
import type { z } from '@hono/zod-openapi';
import type { voicemails } from '../../db/schema/voice';
import type * as s from './schemas';

export const voicemailOut = (v: typeof voicemails.$inferSelect): z.output<typeof s.Voicemail> => ({
  voicemailId: v.id,
  locationId: v.locationId,
  callSid: v.callSid,
  fromNumber: v.fromNumber,
  renterId: v.renterId,
  recordingUrl: v.recordingUrl,
  durationSeconds: v.durationSeconds,
  status: v.status,
  createdAt: v.createdAt,
});
