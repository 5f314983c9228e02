/**
 * Time zones. Instants are stored in UTC (ms since epoch or ISO strings); every location has an
 * IANA zone and days and slots are computed in that zone's wall-clock time, so DST changes never
 * shift, lose or duplicate a slot. Uses Intl only (no dependency).
 */
const fmtCache = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string) {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
    });
    fmtCache.set(tz, f);
  }
  return f;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string; // Monday..Sunday
}

// Recent conversions (a sale converts the same few instants many times: opening hours, pricing
// days, the write): formatToParts is the costly part, and an instant's wall time in a zone never changes.
const wallCache = new Map<string, WallTime>();
const WALL_CACHE_MAX = 2000;

/** Wall-clock fields of an instant in a zone. */
export function toWallTime(instantMs: number, tz: string): WallTime {
  const key = `${tz}|${instantMs}`;
  const hit = wallCache.get(key);
  if (hit) return { ...hit };
  const parts = formatter(tz).formatToParts(new Date(instantMs));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '0';
  const w: WallTime = {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: get('weekday'),
  };
  if (wallCache.size >= WALL_CACHE_MAX) wallCache.clear();
  wallCache.set(key, w);
  return { ...w };
}

const wallAsUtc = (w: Pick<WallTime, 'year' | 'month' | 'day' | 'hour' | 'minute'> & { second?: number }) =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second ?? 0);

/** Offset of the zone at an instant, in ms (local = utc + offset). */
export function zoneOffsetMs(instantMs: number, tz: string): number {
  const w = toWallTime(instantMs, tz);
  return wallAsUtc(w) - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The UTC instant of a wall-clock time in a zone. An ambiguous time (the repeated hour when clocks
 * fall back) resolves to its first occurrence unless `later` is set; a time that does not exist
 * (the skipped hour when clocks spring forward) moves forward by the length of the gap.
 */
export function wallTimeToUtc(
  date: string, // YYYY-MM-DD
  time: string, // HH:mm
  tz: string,
  opts: { later?: boolean } = {},
): number {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const local = Date.UTC(y, m - 1, d, hh, mm);
  const o1 = zoneOffsetMs(local - 86_400_000, tz);
  const o2 = zoneOffsetMs(local + 86_400_000, tz);
  const candidates = [...new Set([local - o1, local - o2])].filter((t) => wallAsUtc(toWallTime(t, tz)) === local).sort((a, b) => a - b);
  if (candidates.length) return opts.later ? candidates[candidates.length - 1] : candidates[0];
  // Skipped wall time: read it with the offset in force before the change, which lands after the gap.
  return local - o1;
}

/** YYYY-MM-DD of an instant in a zone. */
export function localDate(instantMs: number, tz: string): string {
  const w = toWallTime(instantMs, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** HH:mm of an instant in a zone. */
export function localTime(instantMs: number, tz: string): string {
  const w = toWallTime(instantMs, tz);
  return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
}

/** Start (inclusive) and end (exclusive) instants of a local calendar day; 23 or 25 hours long on DST days. */
export function dayBounds(date: string, tz: string): { start: number; end: number } {
  return { start: wallTimeToUtc(date, '00:00', tz), end: wallTimeToUtc(addDays(date, 1), '00:00', tz) };
}

/** Calendar arithmetic on YYYY-MM-DD strings (zone-free). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return t.toISOString().slice(0, 10);
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Weekday name of a calendar date (zone-free). */
export function weekdayOf(date: string): Weekday {
  const [y, m, d] = date.split('-').map(Number);
  return WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
}

/** All dates of a month `YYYY-MM`. */
export function datesOfMonth(month: string): string[] {
  const [y, m] = month.split('-').map(Number);
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day: `YYYY-MM-DD`, or `MM-DD` (any year, so 02-29 is allowed). */
export function isCalendarDate(s: string): boolean {
  const m = /^(?:(\d{4})-)?(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const year = m[1] ? Number(m[1]) : 2000; // a leap year: MM-DD accepts 02-29
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
export const isoMonth = /^\d{4}-(0[1-9]|1[0-2])$/;
