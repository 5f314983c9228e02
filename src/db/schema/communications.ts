import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/**
 * Scheduled communications (`POST /communication/schedule`): one templated e-mail to send at a time
 * computed from its trigger when the triggering event happens. Statuses: `waiting` (the trigger has
 * not happened yet: no send time), `pending` (send time known), `processing` (claimed by one
 * processor run), `sent`, `skipped` (reason), `failed` (reason), `cancelled` (reason).
 */
export const scheduledCommunications = sqliteTable(
  'scheduled_communications',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    templateId: text('template_id').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    rentalId: text('rental_id'),
    delayMinutes: integer('delay_minutes').notNull().default(0),
    trigger: text('trigger').notNull(),
    conditions: json<Record<string, unknown>>('conditions')
      .notNull()
      .$defaultFn(() => ({})),
    status: text('status', { enum: ['waiting', 'pending', 'processing', 'sent', 'skipped', 'failed', 'cancelled'] }).notNull(),
    /** ISO instant (UTC) the message is due; null while waiting for its trigger. */
    sendAt: text('send_at'),
    statusReason: text('status_reason'),
    /** The message_outbox row of the send (or of the skip). */
    messageId: text('message_id'),
    claimedAt: text('claimed_at'),
    processedAt: text('processed_at'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [index('scheduled_comms_due_idx').on(t.status, t.sendAt), index('scheduled_comms_rental_idx').on(t.customerId, t.rentalId)],
);

/**
 * SMS opt-outs, by number (E.164), received as STOP (and synonyms) on the inbound SMS webhook or
 * reported by the provider. Every operator sends from the platform's sender, so an opt-out holds
 * for all of them; START re-opens the number.
 */
export const smsOptOuts = sqliteTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  status: text('status', { enum: ['opted_out', 'opted_in'] }).notNull(),
  keyword: text('keyword').notNull(),
  /** `inbound` (a keyword received on the webhook) or `provider` (the provider refused: recipient unsubscribed). */
  source: text('source').notNull(),
  /** Our number that received the keyword. */
  toNumber: text('to_number'),
  ...timestamps(),
});
