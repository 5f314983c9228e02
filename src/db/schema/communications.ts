import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
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

/**
 * Message templates edited by an operator (`/communication/templates`): one per message key and
 * scope, where `scope` is an inventory item id (an item's own template) or `*` (the operator's).
 * The template a message uses is the item's, else the operator's, else the default of the key.
 */
export const messageTemplates = sqliteTable(
  'message_templates',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    key: text('key').notNull(),
    /** An inventory item id, or `*` for every item of the operator. */
    scope: text('scope').notNull(),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** The SMS text (null: the plain-text part, on one line). */
    sms: text('sms'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('message_templates_scope_uq').on(t.customerId, t.key, t.scope)],
);

/**
 * Message automations (`/communication/automations`): when a booking event happens (or N hours
 * before its start / after its end), a template goes to the renter or staff by e-mail or SMS. Run by
 * the automation processor (cron), each (automation, booking or offer) at most once: `automationRuns`.
 */
export const messageAutomations = sqliteTable(
  'message_automations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    name: text('name').notNull(),
    trigger: text('trigger', { enum: ['booked', 'hours_before_start', 'hours_after_end', 'cancelled', 'waitlist_offered'] }).notNull(),
    /** N of `hours_before_start` / `hours_after_end` (0 otherwise). */
    hours: integer('hours').notNull().default(0),
    recipient: text('recipient', { enum: ['renter', 'staff'] }).notNull(),
    /** Staff: one user; null = the staff of the booking's location. */
    staffUserId: text('staff_user_id'),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    /** An operator template id (`mtp_...`) or a message key (the item's, operator's or default template of that key). */
    templateId: text('template_id').notNull(),
    /** Only bookings of these items (empty: every item). */
    itemIds: json<string[]>('item_ids')
      .notNull()
      .$defaultFn(() => []),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [index('message_automations_customer_idx').on(t.customerId, t.active)],
);

/** One firing of an automation for one booking (or waitlist offer): unique, so it fires at most once. */
export const automationRuns = sqliteTable(
  'automation_runs',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    automationId: text('automation_id').notNull(),
    /** The booking (`bk_...`) or waitlist offer the automation fired for. */
    subjectId: text('subject_id').notNull(),
    /** ISO instant the automation was due for this subject. */
    dueAt: text('due_at').notNull(),
    status: text('status', { enum: ['claimed', 'sent', 'skipped', 'failed'] }).notNull(),
    statusReason: text('status_reason'),
    messageIds: json<string[]>('message_ids')
      .notNull()
      .$defaultFn(() => []),
    ...timestamps(),
  },
  (t) => [uniqueIndex('automation_runs_uq').on(t.automationId, t.subjectId), index('automation_runs_customer_idx').on(t.customerId, t.createdAt)],
);
