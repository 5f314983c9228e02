import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, timestamps, createdAt } from './_columns';

/** A reseller platform registered in the partner portal (an OTA, marketplace, concierge desk). */
export const channels = sqliteTable(
  'channels',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    contactEmail: text('contact_email').notNull(),
    /** SHA-256 of the partner-portal token (`rtp_...`), shown once at registration. */
    portalTokenHash: text('portal_token_hash').notNull(),
    status: text('status', { enum: ['active', 'paused'] })
      .notNull()
      .default('active'),
    /** The reseller's endpoint for booking.created / booking.cancelled / booking.rescheduled of the operators it sells. */
    webhookUrl: text('webhook_url'),
    webhookEvents: json<string[]>('webhook_events'),
    /** Signing secret of the reseller's webhook deliveries (shown once when the URL is set). */
    webhookSecret: text('webhook_secret'),
    /** The partner account that owns the channel (partner platform); portal calls accept its partner token. */
    partnerAccountId: text('partner_account_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('channels_slug_uq').on(t.slug),
    uniqueIndex('channels_portal_token_uq').on(t.portalTokenHash),
    index('channels_partner_idx').on(t.partnerAccountId),
  ],
);

/**
 * An operator's connection to a reseller: to a platform channel (kind `platform`) or a partner
 * holding a single-operator key (kind `single`). Sandbox connections (`sandbox = true`) attach a
 * test key to the sandbox operator.
 */
export const channelConnections = sqliteTable(
  'channel_connections',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    channelId: text('channel_id'),
    /** For sandbox connections of single-operator keys: the live connection they belong to. */
    parentConnectionId: text('parent_connection_id'),
    kind: text('kind', { enum: ['platform', 'single'] }).notNull(),
    name: text('name').notNull(),
    commissionRate: real('commission_rate').notNull(),
    offerAllInventory: integer('offer_all_inventory', { mode: 'boolean' }).notNull().default(true),
    offeredItemIds: json<string[]>('offered_item_ids')
      .notNull()
      .$defaultFn(() => []),
    status: text('status', { enum: ['active', 'paused', 'removed'] })
      .notNull()
      .default('active'),
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    currency: text('currency').notNull().default('usd'),
    ...timestamps(),
  },
  (t) => [
    index('channel_connections_customer_idx').on(t.customerId),
    index('channel_connections_channel_idx').on(t.channelId, t.customerId),
    index('channel_connections_parent_idx').on(t.parentConnectionId),
  ],
);

/** Channel API keys (`rtc_live_...`, `rtc_test_...`), stored as SHA-256 hashes. */
export const channelKeys = sqliteTable(
  'channel_keys',
  {
    id: text('id').primaryKey(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    /** Platform key: the channel. Single-operator key: the connection. */
    channelId: text('channel_id'),
    connectionId: text('connection_id'),
    revokedAt: text('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('channel_keys_hash_uq').on(t.keyHash), index('channel_keys_owner_idx').on(t.channelId, t.connectionId)],
);

/**
 * Idempotency keys of channel booking creation, scoped per key holder and kept 48 hours.
 * The row is claimed atomically (unique scope+key) before the sale and completed with the response.
 */
export const channelIdempotency = sqliteTable(
  'channel_idempotency',
  {
    id: text('id').primaryKey(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_flight', 'completed'] }).notNull(),
    bookingId: text('booking_id'),
    responseBody: json<Record<string, unknown>>('response_body'),
    claimedAt: integer('claimed_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [uniqueIndex('channel_idempotency_scope_key_uq').on(t.scope, t.key), index('channel_idempotency_expiry_idx').on(t.expiresAt)],
);
