import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps, createdAt } from './_columns';

/** A user's link to their calendar provider (one per user). Tokens are stored sealed (AES-GCM, src/lib/sealed.ts). */
export const calendarConnections = sqliteTable(
  'calendar_connections',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    userId: text('user_id').notNull(),
    provider: text('provider').notNull(),
    status: text('status', { enum: ['connected', 'error'] })
      .notNull()
      .default('connected'),
    accountEmail: text('account_email'),
    accessToken: text('access_token').notNull(),
    refreshToken: text('refresh_token'),
    /** Epoch milliseconds. */
    tokenExpiresAt: integer('token_expires_at').notNull(),
    calendarId: text('calendar_id').notNull().default('primary'),
    calendarName: text('calendar_name'),
    /** The provider's sync token of the chosen calendar (incremental listing); null means a full listing next time. */
    syncToken: text('sync_token'),
    lastSyncAt: text('last_sync_at'),
    lastFullSyncAt: text('last_full_sync_at'),
    lastError: text('last_error'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('calendar_connections_user_uq').on(t.userId), index('calendar_connections_customer_idx').on(t.customerId)],
);

/** Which provider event mirrors which booking in a connection's calendar. */
export const calendarEventLinks = sqliteTable(
  'calendar_event_links',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    connectionId: text('connection_id').notNull(),
    rentalId: text('rental_id').notNull(),
    eventId: text('event_id').notNull(),
    /** SEQUENCE and content fingerprint last pushed. */
    sequence: integer('sequence').notNull().default(0),
    fingerprint: text('fingerprint').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('calendar_event_links_conn_rental_uq').on(t.connectionId, t.rentalId), index('calendar_event_links_customer_idx').on(t.customerId)],
);

/**
 * The iCalendar version of a booking's event, shared by the private feeds and the provider sync:
 * SEQUENCE goes up by one each time the event's content (time, title, place, status) changes.
 */
export const calendarEventVersions = sqliteTable(
  'calendar_event_versions',
  {
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    sequence: integer('sequence').notNull().default(0),
    fingerprint: text('fingerprint').notNull(),
    /** When the content last changed (the event's DTSTAMP and LAST-MODIFIED). */
    changedAt: text('changed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.rentalId] })],
);

/** Private iCalendar feeds: an operator-wide feed (userId null) or a staff member's schedule. The token is stored only as its hash. */
export const calendarFeeds = sqliteTable(
  'calendar_feeds',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    userId: text('user_id'),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    createdBy: text('created_by'),
    revokedAt: text('revoked_at'),
    lastFetchedAt: text('last_fetched_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_uq').on(t.tokenHash), index('calendar_feeds_customer_idx').on(t.customerId)],
);
