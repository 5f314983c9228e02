import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types this endpoint receives; `["*"]` for all. */
    events: json<string[]>('events').notNull(),
    /** Signing secret (needed to sign; shown to the operator once). */
    secret: text('secret').notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    /** Set for endpoints registered by a reseller channel (issue: channel events). */
    ownerType: text('owner_type').notNull().default('operator'),
    ownerId: text('owner_id'),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoints_customer_idx').on(t.customerId)],
);

/** Transactional outbox: written in the same D1 batch as the domain change. */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    type: text('type').notNull(),
    payload: json<Record<string, unknown>>('payload').notNull(),
    dispatchedAt: text('dispatched_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_undispatched_idx').on(t.dispatchedAt, t.createdAt), index('webhook_events_customer_idx').on(t.customerId, t.createdAt)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    /** `{eventId}:{endpointId}` for the original delivery, `replay:{id}` for replays. */
    dedupeKey: text('dedupe_key').notNull(),
    customerId: tenant(),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: ['pending', 'retrying', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    firstAttemptAt: text('first_attempt_at'),
    completedAt: text('completed_at'),
    replayOf: text('replay_of'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_dedupe_uq').on(t.dedupeKey),
    index('webhook_deliveries_endpoint_idx').on(t.customerId, t.endpointId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);

/** E-mail, SMS, chat and push messages: the offline adapters write here and an operator endpoint lists them. */
export const messageOutbox = sqliteTable(
  'message_outbox',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id'),
    channel: text('channel', { enum: ['email', 'sms', 'chat', 'push'] }).notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    template: text('template'),
    metadata: json<Record<string, unknown>>('metadata'),
    /** `queued` (waiting for the provider), `sending` (claimed by one sender), `sent`, `failed` (provider's reason), `skipped` (reason). */
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('sent'),
    provider: text('provider').notNull().default('outbox'),
    /** HTML part of an e-mail (`body` is the plain-text part). */
    html: text('html'),
    /** The booking the message is about, so an operator can see what was sent for it. */
    rentalId: text('rental_id'),
    /** The provider's delivery id (Postmark MessageID, Twilio SID) and its last reported status. */
    providerMessageId: text('provider_message_id'),
    providerStatus: text('provider_status'),
    /** Why a message failed or was skipped. */
    statusReason: text('status_reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    sentAt: text('sent_at'),
    updatedAt: text('updated_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('message_outbox_customer_idx').on(t.customerId, t.createdAt),
    index('message_outbox_rental_idx').on(t.customerId, t.rentalId),
    index('message_outbox_status_idx').on(t.status, t.nextAttemptAt),
    index('message_outbox_provider_idx').on(t.providerMessageId),
  ],
);
