/**
 * Local days in SQL. Ledger instants are UTC; a location's day runs from its local midnight to the
 * next one (23 or 25 hours on DST days). SQLite knows no time zones, so the zone's UTC offset over
 * the queried range is computed here (a few segments: a zone changes offset at most a couple of
 * times a year) and written into the query as a CASE on the instant: every row gets the local date
 * (or hour and weekday) of its own instant, exactly, in one aggregate statement.
 */
import { sql, type SQL } from 'drizzle-orm';
import { addDays, wallTimeToUtc, zoneOffsetMs } from '../../lib/time';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** From `at` (UTC ms) on, the zone is `offsetMin` minutes ahead of UTC. */
interface Change {
  at: number;
  offsetMin: number;
}

const offsetMin = (t: number, tz: string) => Math.round(zoneOffsetMs(t, tz) / MINUTE);

const yearCache = new Map<string, Change[]>();

/** Offset changes of a zone during a UTC year, to the minute (sampled daily, then bisected). */
function changesOfYear(tz: string, year: number): Change[] {
  const key = `${tz}|${year}`;
  const hit = yearCache.get(key);
  if (hit) return hit;
  const out: Change[] = [];
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  let prev = offsetMin(start, tz);
  for (let t = start + DAY; t <= end; t += DAY) {
    const o = offsetMin(t, tz);
    if (o === prev) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
      if (offsetMin(mid, tz) === prev) lo = mid;
      else hi = mid;
    }
    out.push({ at: hi, offsetMin: o });
    prev = o;
  }
  if (yearCache.size > 2000) yearCache.clear();
  yearCache.set(key, out);
  return out;
}

/** The zone's offset at `from` and its changes up to `to` (UTC ms). */
export interface OffsetSegments {
  initial: number;
  changes: Change[];
}

export function offsetSegments(tz: string, from: number, to: number): OffsetSegments {
  const changes: Change[] = [];
  for (let y = new Date(from).getUTCFullYear(); y <= new Date(to).getUTCFullYear(); y++)
    for (const c of changesOfYear(tz, y)) if (c.at > from && c.at < to) changes.push(c);
  return { initial: offsetMin(from, tz), changes };
}

const iso = (t: number) => `'${new Date(t).toISOString()}'`;
const minutes = (m: number) => `'${m >= 0 ? '+' : ''}${m} minutes'`;

/** SQL: the local offset (a `'+N minutes'` modifier) of an ISO-8601 UTC text column. */
function isoModifier(col: SQL, seg: OffsetSegments): SQL {
  if (!seg.changes.length) return sql.raw(minutes(seg.initial));
  const parts: SQL[] = [sql.raw('CASE')];
  let current = seg.initial;
  for (const c of seg.changes) {
    parts.push(sql` WHEN ${col} < ${sql.raw(iso(c.at))} THEN ${sql.raw(minutes(current))}`);
    current = c.offsetMin;
  }
  parts.push(sql.raw(` ELSE ${minutes(current)} END`));
  return sql.join(parts, sql.raw(''));
}

/** SQL: the local date (YYYY-MM-DD) of an ISO-8601 UTC text column. */
export const localDateOfIso = (col: SQL, seg: OffsetSegments): SQL => sql`date(${col}, ${isoModifier(col, seg)})`;

/** SQL: local weekday (0 = Sunday) and hour of an ISO-8601 UTC text column, as `w HH`. */
export const localWeekdayHourOfIso = (col: SQL, seg: OffsetSegments): SQL => sql`strftime('%w %H', ${col}, ${isoModifier(col, seg)})`;

/** SQL: the local date of a UTC epoch-milliseconds integer column. */
export function localDateOfMs(col: SQL, seg: OffsetSegments): SQL {
  if (!seg.changes.length) return sql`date((${col} + ${sql.raw(String(seg.initial * MINUTE))}) / 1000, 'unixepoch')`;
  const parts: SQL[] = [sql.raw('CASE')];
  let current = seg.initial;
  for (const c of seg.changes) {
    parts.push(sql` WHEN ${col} < ${sql.raw(String(c.at))} THEN ${sql.raw(String(current * MINUTE))}`);
    current = c.offsetMin;
  }
  parts.push(sql.raw(` ELSE ${current * MINUTE} END`));
  return sql`date((${col} + (${sql.join(parts, sql.raw(''))})) / 1000, 'unixepoch')`;
}

/** The UTC instants of a range of local days [startDate 00:00, endDate + 1 day 00:00) in a zone. */
export function dayRange(startDate: string, endDate: string, tz: string): { from: number; to: number; fromIso: string; toIso: string } {
  const from = wallTimeToUtc(startDate, '00:00', tz);
  const to = wallTimeToUtc(addDays(endDate, 1), '00:00', tz);
  return { from, to, fromIso: new Date(from).toISOString(), toIso: new Date(to).toISOString() };
}

/** Every date from `startDate` to `endDate`, inclusive. */
export function datesBetween(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  for (let d = startDate; d <= endDate; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Whole days from `a` to `b` (YYYY-MM-DD). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
