import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Calendar sync'];

export const connect = route({
  method: 'get',
  path: '/integrations/calendar/connect',
  operationId: 'connectCalendar',
  tags,
  summary: "Start connecting a user's calendar: the provider's authorization URL",
  query: s.ConnectQuery,
  ok: s.ConnectResult,
  errors: [403, 404, 503],
  description: `Answers the provider's consent URL (open it in a popup) carrying a signed \`state\` that names the operator and the user and expires
after 10 minutes. The user may connect their own calendar; an admin anyone's of the team. A \`customerId\` that is not the caller's answers 403.
Without provider credentials (development) the offline simulator approves at once and the URL leads straight to the callback.`,
});
export const callback = route({
  method: 'get',
  path: '/integrations/calendar/callback',
  operationId: 'completeCalendarConnection',
  tags,
  access: 'none',
  security: [],
  summary: 'OAuth callback of the calendar provider (browser redirect)',
  query: s.CallbackQuery,
  produces: 'text/html',
  errors: [400],
  description: `The provider sends the browser here with \`code\` and \`state\`. A missing, forged or expired \`state\` answers 400
\`invalid_oauth_state\` before anything else. When the user declined (\`error\`), the answer is a 302 to the dashboard
(\`{FRONTEND_URL}/settings/integrations?integration=calendar&status=denied\`). Otherwise the code is exchanged, the tokens are stored encrypted
(AES-GCM) and the answer is a small HTML page that posts \`{type: "berth:integration", integration: "calendar", status: "connected", userId}\` to
its opener (the dashboard origin only) and closes. A code the provider refuses (already used, expired) answers 400.`,
});
export const disconnect = route({
  method: 'post',
  path: '/integrations/calendar/disconnect',
  operationId: 'disconnectCalendar',
  tags,
  summary: "Disconnect a user's calendar (tokens revoked, credentials deleted)",
  body: s.DisconnectBody,
  ok: s.Disconnected,
  errors: [403, 404],
  description: `Revokes the tokens at the provider, then deletes the stored credentials and the links between bookings and calendar events
(events already written stay in the user's calendar). Idempotent: a user without a connection answers \`revoked: false\`.`,
});
export const status = route({
  method: 'get',
  path: '/integrations/calendar/status',
  operationId: 'getCalendarStatus',
  description: `Whether the user connected a calendar, which one Berth writes to, when it last synced (and the last full listing), the last error and how
many events it keeps in step.`,
  tags,
  summary: "A user's calendar connection",
  query: s.UserQuery,
  ok: s.CalendarStatus,
  errors: [403, 404],
});
export const calendars = route({
  method: 'get',
  path: '/integrations/calendar/calendars',
  operationId: 'listCalendars',
  tags,
  summary: "The calendars of the user's connected account",
  query: s.UserQuery,
  ok: s.CalendarList,
  errors: [403, 404, 503],
  description: '400 `calendar_not_connected` when the user has not connected; `selected` marks the calendar Berth writes to.',
});
export const chooseCalendar = route({
  method: 'post',
  path: '/integrations/calendar/update-calendar',
  operationId: 'chooseCalendar',
  tags,
  summary: 'Choose the calendar the bookings are written to',
  body: s.ChooseCalendarBody,
  ok: z.object({ userId: z.string(), calendarId: z.string(), calendarName: z.string(), movedEvents: z.number().int() }).openapi('CalendarChosen'),
  errors: [403, 404, 503],
  description: `The calendar must be one of the account's writable calendars (400 otherwise). Changing it removes Berth's events from the old
calendar; the next sync writes them to the new one.`,
});
export const sync = route({
  method: 'post',
  path: '/integrations/calendar/sync',
  operationId: 'syncCalendars',
  tags,
  summary: 'Run a full sync of every connected calendar of the operator now',
  ok: s.SyncResult,
  errors: [403],
  description: `A full sync (for testing and repairs): each calendar is listed completely, events of Berth that were lost are adopted or written
again, and every booking of the user's schedule (yesterday to 180 days ahead, at the user's locations) is written. Incremental syncs run every 5
minutes with the provider's sync token, and cancellations are pushed at once. Needs the \`integrations\` permission (admins and managers).`,
});
export const createFeed = route({
  method: 'post',
  path: '/integrations/calendar/feeds',
  operationId: 'createCalendarFeed',
  tags,
  summary: 'Create a private iCalendar feed URL (a staff schedule or the whole operator)',
  body: s.CreateFeedBody,
  ok: s.CreatedFeed,
  status: 201,
  errors: [403, 404],
  description: `The URL (shown once) can be subscribed to by any calendar app. With \`userId\`: the bookings at that user's locations (the user
themself or an admin). Without: every booking of the operator (admins only). The feed follows RFC 5545 (one VEVENT per booking with a stable UID,
SEQUENCE bumped on each change, \`STATUS:CANCELLED\` for cancelled bookings).`,
});
export const listFeeds = route({
  method: 'get',
  path: '/integrations/calendar/feeds',
  operationId: 'listCalendarFeeds',
  description: `Admins see every feed of the operator, others their own. The secret URL is shown only when a feed is created; revoked feeds stay listed with
\`revokedAt\`.`,
  tags,
  summary: 'Private iCalendar feeds (admins: all; others: their own)',
  ok: s.FeedList,
});
export const revokeFeed = route({
  method: 'delete',
  path: '/integrations/calendar/feeds/{feedId}',
  operationId: 'revokeCalendarFeed',
  description: "The user's own feed (or any, for an admin); idempotent. Calendar apps subscribed to the URL get 404 from now on.",
  tags,
  summary: 'Revoke a feed URL (it answers 404 from now on)',
  params: s.FeedParams,
  ok: s.Feed,
  errors: [403, 404],
});
export const feed = route({
  method: 'get',
  path: '/integrations/calendar/feeds/{feedToken}/calendar.ics',
  operationId: 'getCalendarFeed',
  tags,
  access: 'none',
  security: [],
  summary: 'A private iCalendar feed (the secret token in the path is the credential)',
  params: s.FeedTokenParams,
  produces: 'text/calendar',
  errors: [404],
  description: `\`text/calendar\` (RFC 5545): bookings from 30 days ago to a year ahead. An unknown or revoked token answers 404.`,
});
