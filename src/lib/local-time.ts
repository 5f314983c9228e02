/**
 * The one formatter of times a person reads: e-mails, SMS, PDFs, wallet passes, calendar files and
 * operator notices show a booking's times in its location's zone, e.g.
 * "Sat 12 Dec 2026, 10:00–14:00 EST". No ISO UTC string reaches a renter.
 *
 * API responses keep ISO-8601 UTC instants (the GUIDE's rule for outputs); this is for text.
 */
import { localDate } from './time';

/** The formats used here, by name (the name keys the caches: no options object is serialized per call). */
const FORMATS = {
  day: ['en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }],
  clock: ['en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  zoneUS: ['en-US', { timeZoneName: 'short' }],
  zoneGB: ['en-GB', { timeZoneName: 'short' }],
  zoneAU: ['en-AU', { timeZoneName: 'short' }],
  zoneIN: ['en-IN', { timeZoneName: 'short' }],
  zoneOffset: ['en-US', { timeZoneName: 'shortOffset' }],
  zoneLong: ['en-US', { timeZoneName: 'long' }],
} satisfies Record<string, [string, Intl.DateTimeFormatOptions]>;
type Format = keyof typeof FORMATS;

const fmtCache = new Map<string, Intl.DateTimeFormat>();
/** Each instant's parts, per format and zone: `formatToParts` is the costly call (a sale's confirmation e-mail made ten). */
const partsCache = new Map<string, Partial<Record<Intl.DateTimeFormatPartTypes, string>>>();
const PARTS_CACHE_MAX = 2000;

function partsOf(format: Format, tz: string, ms: number): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  const key = `${format}|${tz}|${ms}`;
  let parts = partsCache.get(key);
  if (!parts) {
    const fkey = `${format}|${tz}`;
    let f = fmtCache.get(fkey);
    if (!f) {
      const [locale, opts] = FORMATS[format];
      f = new Intl.DateTimeFormat(locale, { ...(opts as Intl.DateTimeFormatOptions), timeZone: tz });
      fmtCache.set(fkey, f);
    }
    parts = {};
    for (const p of f.formatToParts(new Date(ms))) parts[p.type] ??= p.value;
    if (partsCache.size >= PARTS_CACHE_MAX) partsCache.clear();
    partsCache.set(key, parts);
  }
  return parts;
}

const part = (format: Format, tz: string, ms: number, type: Intl.DateTimeFormatPartTypes) => partsOf(format, tz, ms)[type] ?? '';

/**
 * The zone's short name at an instant: "EST", "EDT", "PST", "CET", "CEST", "AEDT", or "UTC+14" where
 * the zone has no common abbreviation (never "GMT-11" style names that read like an error).
 */
export function zoneAbbreviation(ms: number, tz: string): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(tz)) return 'UTC';
  for (const format of ['zoneUS', 'zoneGB', 'zoneAU', 'zoneIN'] as const) {
    const name = part(format, tz, ms, 'timeZoneName');
    if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
  }
  const name = part('zoneOffset', tz, ms, 'timeZoneName');
  return name === 'GMT' ? 'UTC' : name.replace(/^GMT/, 'UTC');
}

/**
 * The zone's name as a person reads it at an instant: "Eastern Standard Time", "Central European
 * Summer Time"; "Coordinated Universal Time" for UTC.
 */
export function zoneLongName(ms: number, tz: string): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(tz)) return 'Coordinated Universal Time';
  const name = part('zoneLong', tz, ms, 'timeZoneName');
  return name.replace(/^GMT/, 'UTC') || zoneAbbreviation(ms, tz);
}

/** "Sat 12 Dec 2026" */
export function formatLocalDay(ms: number, tz: string): string {
  const p = partsOf('day', tz, ms);
  return `${p.weekday ?? ''} ${p.day ?? ''} ${p.month ?? ''} ${p.year ?? ''}`;
}

/** "10:00" (24-hour) */
export function formatLocalClock(ms: number, tz: string): string {
  const p = partsOf('clock', tz, ms);
  return `${p.hour ?? ''}:${p.minute ?? ''}`;
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
