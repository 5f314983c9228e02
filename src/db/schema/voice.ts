import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps } from './_columns';

/** A call the telephony provider told us about, with who called (matched to a renter) and the menu path. */
export const voiceCalls = sqliteTable(
  'voice_calls',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    callSid: text('call_sid').notNull(),
    fromNumber: text('from_number'),
    toNumber: text('to_number'),
    renterId: text('renter_id'),
    rentalId: text('rental_id'),
    lastKey: text('last_key'),
    status: text('status').notNull().default('in_progress'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('voice_calls_sid_uq').on(t.callSid), index('voice_calls_location_idx').on(t.customerId, t.locationId)],
);

/** A voicemail left at a location (recorded by the telephony provider). */
export const voicemails = sqliteTable(
  'voicemails',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    callSid: text('call_sid').notNull(),
    recordingSid: text('recording_sid'),
    recordingUrl: text('recording_url'),
    durationSeconds: integer('duration_seconds'),
    fromNumber: text('from_number'),
    renterId: text('renter_id'),
    status: text('status', { enum: ['recording', 'completed', 'failed'] }).notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('voicemails_call_uq').on(t.callSid), index('voicemails_location_idx').on(t.customerId, t.locationId, t.createdAt)],
);
