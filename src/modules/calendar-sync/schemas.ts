import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

const userId = () =>
  zId('usr_01J0000000000000000000000').openapi({ description: 'The user whose calendar it is (yourself, or anyone of your team for an admin)' });

export const UserQuery = z.object({ userId: userId() });
export const ConnectQuery = z.object({ userId: userId(), customerId: zId('cus_01J0000000000000000000000') });
export const CallbackQuery = z.object({
  code: z.string().max(4096).optional().openapi({ description: 'Authorization code (absent when the user declined)' }),
  state: z.string().max(4096).optional().openapi({ description: 'The signed state handed out by connect (required)' }),
  error: z.string().max(200).optional().openapi({ description: 'Set by the provider when the user declined (`access_denied`)' }),
});
export const DisconnectBody = z.object({ userId: userId() }).openapi('CalendarDisconnect');
export const ChooseCalendarBody = z.object({ userId: userId(), calendarId: z.string().trim().min(1).max(512) }).openapi('CalendarChoice');

export const ConnectResult = z
  .object({
    authorizationUrl: z.string().openapi({ description: "Open it in a popup: the provider's consent screen, then the callback" }),
    state: z.string(),
    expiresAt: z.string().openapi({ description: 'The state (and so the link) expires then (10 minutes)' }),
    provider: z.enum(['google', 'simulator']),
  })
  .openapi('CalendarConnect');

export const CalendarStatus = z
  .object({
    userId: z.string(),
    connected: z.boolean(),
    status: z.enum(['connected', 'error', 'not_connected']),
    provider: z.string().nullable(),
    accountEmail: z.string().nullable(),
    calendarId: z.string().nullable(),
    calendarName: z.string().nullable(),
    lastSyncAt: z.string().nullable(),
    lastFullSyncAt: z.string().nullable(),
    lastError: z.string().nullable(),
    eventsSynced: z.number().int(),
    connectedAt: z.string().nullable(),
  })
  .openapi('CalendarStatus');

export const CalendarItem = z
  .object({
    id: z.string(),
    name: z.string(),
    primary: z.boolean(),
    timeZone: z.string().nullable(),
    writable: z.boolean(),
    selected: z.boolean(),
  })
  .openapi('CalendarItem');
export const CalendarList = z.object({ data: z.array(CalendarItem) }).openapi('CalendarList');

export const SyncOutcome = z
  .object({
    userId: z.string(),
    connectionId: z.string(),
    full: z.boolean(),
    created: z.number().int(),
    updated: z.number().int(),
    deleted: z.number().int(),
    relinked: z.number().int(),
    resyncedAfterExpiredToken: z.boolean(),
    error: z.string().nullable(),
  })
  .openapi('CalendarSyncOutcome');
export const SyncResult = z.object({ connections: z.number().int(), results: z.array(SyncOutcome) }).openapi('CalendarSyncResult');

export const Disconnected = z
  .object({ success: z.boolean(), userId: z.string(), revoked: z.boolean(), removedEventLinks: z.number().int() })
  .openapi('CalendarDisconnected');

export const CreateFeedBody = z
  .object({
    userId: zId('usr_01J0000000000000000000000')
      .optional()
      .openapi({ description: "A staff member's schedule (their locations); absent: the operator's feed of every location (admins only)" }),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .openapi('CreateCalendarFeed');

export const Feed = z
  .object({
    feedId: z.string(),
    customerId: z.string(),
    userId: z.string().nullable(),
    scope: z.enum(['operator', 'user']),
    name: z.string(),
    tokenPrefix: z.string(),
    revokedAt: z.string().nullable(),
    lastFetchedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('CalendarFeed');
export const CreatedFeed = Feed.extend({
  url: z.string().openapi({ description: 'The private subscription URL (shown once): any calendar app can subscribe to it' }),
  token: z.string().openapi({ description: 'The secret part of the URL (shown once)' }),
}).openapi('CreatedCalendarFeed');
export const FeedList = z.object({ data: z.array(Feed) }).openapi('CalendarFeedList');
export const FeedParams = z.object({ feedId: zId('cfd_01J0000000000000000000000') });
export const FeedTokenParams = z.object({ feedToken: z.string().min(10).max(200) });
