/**
 * The one formatter of times a person reads: e-mails, SMS, PDFs, wallet passes, calendar files and
 * operator notices show a booking's times in its location's zone, e.g.
 * "Sat 12 Dec 2026, 10:00–14:00 EST". No ISO UTC string reaches a renter.
 *
 * API responses keep ISO-8601 UTC instants (the GUIDE's rule for outputs); this is for text.
 */
import { localDate } from './time';

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(locale: string, opts: Intl.DateTimeFormatOptions, tz: string): Intl.DateTimeFormat {
  const key = `${locale}|${tz}|${JSON.stringify(opts)}`;
  let f = fmtCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: tz });
    fmtCache.set(key, f);
  }
  return f;
}

const part = (f: Intl.DateTimeFormat, ms: number, type: Intl.DateTimeFormatPartTypes) =>
  f.formatToParts(new Date(ms)).find((p) => p.type === type)?.value ?? '';

/**
 * The zone's short name at an instant: "EST", "EDT", "PST", "CET", "CEST", "AEDT", or "UTC+14" where
 * the zone has no common abbreviation (never "GMT-11" style names that read like an error).
 */
export function zoneAbbreviation(ms: number, tz: string): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(tz)) return 'UTC';
  for (const locale of ['en-US', 'en-GB', 'en-AU', 'en-IN']) {
    const name = part(fmt(locale, { timeZoneName: 'short' }, tz), ms, 'timeZoneName');
    if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
  }
  const name = part(fmt('en-US', { timeZoneName: 'shortOffset' }, tz), ms, 'timeZoneName');
  return name === 'GMT' ? 'UTC' : name.replace(/^GMT/, 'UTC');
}

/**
 * The zone's name as a person reads it at an instant: "Eastern Standard Time", "Central European
 * Summer Time"; "Coordinated Universal Time" for UTC.
 */
export function zoneLongName(ms: number, tz: string): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(tz)) return 'Coordinated Universal Time';
  const name = part(fmt('en-US', { timeZoneName: 'long' }, tz), ms, 'timeZoneName');
  return name.replace(/^GMT/, 'UTC') || zoneAbbreviation(ms, tz);
}

/** "Sat 12 Dec 2026" */
export function formatLocalDay(ms: number, tz: string): string {
  const f = fmt('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }, tz);
  return `${part(f, ms, 'weekday')} ${part(f, ms, 'day')} ${part(f, ms, 'month')} ${part(f, ms, 'year')}`;
}

/** "10:00" (24-hour) */
export function formatLocalClock(ms: number, tz: string): string {
  const f = fmt('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, tz);
  return `${part(f, ms, 'hour')}:${part(f, ms, 'minute')}`;
}

const toMs = (t: number | string | Date) => (typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : t.getTime());

/** An instant: "Sat 12 Dec 2026, 10:00 EST". */
export function formatLocalDateTime(at: number | string | Date, tz: string): string {
  const ms = toMs(at);
  return `${formatLocalDay(ms, tz)}, ${formatLocalClock(ms, tz)} ${zoneAbbreviation(ms, tz)}`;
}

/**
 * A span: "Sat 12 Dec 2026, 10:00–14:00 EST" on one local day; across days
 * "Sat 12 Dec 2026, 10:00 EST – Sun 13 Dec 2026, 14:00 EST".
 */
export function formatLocalRange(start: number | string | Date, end: number | string | Date, tz: string): string {
  const s = toMs(start);
  const e = toMs(end);
  const zs = zoneAbbreviation(s, tz);
  const ze = zoneAbbreviation(e, tz);
  if (localDate(s, tz) === localDate(e, tz) && zs === ze) return `${formatLocalDay(s, tz)}, ${formatLocalClock(s, tz)}–${formatLocalClock(e, tz)} ${ze}`;
  return `${formatLocalDateTime(s, tz)} – ${formatLocalDateTime(e, tz)}`;
}

/** A calendar date (YYYY-MM-DD, zone-free): "Sat 12 Dec 2026". */
export function formatCalendarDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return formatLocalDay(Date.UTC(y, m - 1, d, 12), 'UTC');
}

/** A stay between two calendar dates: "Sat 12 Dec 2026 – Mon 14 Dec 2026". */
export const formatCalendarRange = (from: string, to: string): string => `${formatCalendarDate(from)} – ${formatCalendarDate(to)}`;

/** Whether a text holds an ISO-8601 timestamp (tests use it: no renter-facing text may). */
export const ISO_TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
