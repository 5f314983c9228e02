/** Row → response mappers of calendar sync, typed against the response schemas. */
import type { z } from '@hono/zod-openapi';
import type { ConnectionRow, FeedRow } from './queries';
import type * as s from './schemas';

export const feedOut = (f: FeedRow): z.output<typeof s.Feed> => ({
  feedId: f.id,
  customerId: f.customerId,
  userId: f.userId,
  scope: f.userId ? ('user' as const) : ('operator' as const),
  name: f.name,
  tokenPrefix: f.tokenPrefix,
  revokedAt: f.revokedAt,
  lastFetchedAt: f.lastFetchedAt,
  createdAt: f.createdAt,
});

/** A user's connection (or its absence), with the number of events written to the calendar. */
export const statusOut = (userId: string, conn: ConnectionRow | undefined, eventsSynced: number): z.output<typeof s.CalendarStatus> => ({
  userId,
  connected: !!conn,
  status: conn ? conn.status : 'not_connected',
  provider: conn?.provider ?? null,
  accountEmail: conn?.accountEmail ?? null,
  calendarId: conn?.calendarId ?? null,
  calendarName: conn?.calendarName ?? null,
  lastSyncAt: conn?.lastSyncAt ?? null,
  lastFullSyncAt: conn?.lastFullSyncAt ?? null,
  lastError: conn?.lastError ?? null,
  eventsSynced,
  connectedAt: conn?.createdAt ?? null,
});
