// Calendar sync: the entry point other code imports. connection.ts (OAuth connect, callback,
// status, calendars, disconnect), push.ts (keeping provider calendars in step), feeds.ts (private
// iCalendar feeds), events.ts (event content and SEQUENCE), ical.ts (RFC 5545 rendering).
export { connect, callback, status, calendars, chooseCalendar, disconnect, type CallbackResult } from './connection';
export { syncConnection, syncNow, syncAll, onCapacityReleased, type SyncOutcome } from './push';
export { createFeed, listFeeds, revokeFeed, renderFeed } from './feeds';
