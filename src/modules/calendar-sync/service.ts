// Calendar sync's face: what other modules may call, and today nothing outside calls it: the module
// plugs in through module.ts (its router, the sync cron and the capacity.released hook). The logic
// lives beside it: connection.ts (OAuth connect, callback, status, calendars, disconnect), push.ts
// (keeping provider calendars in step), feeds.ts (private iCalendar feeds), events.ts (event content
// and SEQUENCE), ical.ts (RFC 5545 rendering).
export {};
