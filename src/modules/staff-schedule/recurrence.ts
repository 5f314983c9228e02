/**
 * Recurring shifts keep their wall-clock time. A shift is stored with the instants of its first
 * occurrence (`startTime`, `endTime`) and its RFC 5545 rule with the location's zone
 * (`DTSTART;TZID=America/New_York:20270104T080000`): the recurrence is a local start date and time,
 * a local end time (possibly on a later day) and a zone. Occurrences are expanded per local date and
 * turned into instants with lib/time.ts `wallTimeToUtc`, so an 08:00–18:00 shift is 08:00–18:00
 * local on both sides of a DST change (10 hours every day; an overnight shift across the change is
 * an hour shorter or longer).
 *
 * Rows written before the rule carried a zone (`DTSTART:...Z`) are read the same way, in their
 * location's zone: their anchor's local time is what the operator set.
 */
import { RRule, Weekday } from 'rrule';
import type { z } from '@hono/zod-openapi';
import { addDays, localDate, toWallTime, wallTimeToUtc } from '../../lib/time';
import type { RecurrencePattern } from './schemas';

export type Pattern = z.infer<typeof RecurrencePattern>;

const FREQ = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY } as const;
const DAYS: Record<string, Weekday> = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU };
const DAY_MS = 86_400_000;

/** "Floating" time: a Date whose UTC fields read the wall-clock time of `ms` in `tz` (how rrule works with zones). */
function floating(ms: number, tz: string): Date {
  const w = toWallTime(ms, tz);
  return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) + (((ms % 1000) + 1000) % 1000));
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (f: Date) => `${pad(f.getUTCHours())}:${pad(f.getUTCMinutes())}`;
/** Seconds and milliseconds past the minute of a floating time (shift times are minutes, but inputs may carry seconds). */
const subMinute = (f: Date) => f.getUTCSeconds() * 1000 + f.getUTCMilliseconds();

/** The rule in floating local time: its dates are the occurrences' local start dates and times. */
function floatingRule(startMs: number, p: Pattern, tz: string, tzid?: string): RRule {
  return new RRule({
    freq: FREQ[p.frequency],
    interval: p.interval ?? 1,
    byweekday: p.byWeekday?.map((d) => DAYS[d]),
    dtstart: floating(startMs, tz),
    until: p.until ? floating(Date.parse(p.until), tz) : undefined,
    count: p.count,
    tzid,
  });
}

const utcStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The RFC 5545 text of a shift starting at `start` (an instant) and repeating by `p` in the wall-clock
 * time of `tz`: `DTSTART;TZID=<tz>:<local>` and its `RRULE` (`UNTIL` in UTC, as RFC 5545 asks when
 * DTSTART has a zone).
 */
export function ruleText(start: string, p: Pattern, tz: string): string {
  const text = floatingRule(Date.parse(start), p, tz, tz).toString();
  return p.until ? text.replace(/UNTIL=\d{8}T\d{6}Z?/, `UNTIL=${utcStamp(Date.parse(p.until))}`) : text;
}

/** The zone a stored rule is in (`DTSTART;TZID=...`), or null for rules written before shifts kept wall-clock time. */
export function ruleZone(rrule: string | null): string | null {
  return rrule ? (/DTSTART;TZID=([^:;\s]+):/.exec(rrule)?.[1] ?? null) : null;
}

export interface ShiftTimes {
  startTime: string;
  endTime: string;
  recurring: boolean;
  recurrencePattern: Pattern | null;
}

/**
 * The occurrences of a shift overlapping [from, to), as instants. A recurring one is expanded per
 * local date in `tz`: each occurrence starts at the first occurrence's local start time and ends at its
 * local end time (as many local days later as the first one).
 */
export function occurrencesOf(s: ShiftTimes, tz: string, window: { from: number; to: number }): { start: number; end: number }[] {
  const start = Date.parse(s.startTime);
  const end = Date.parse(s.endTime);
  const overlaps = (o: { start: number; end: number }) => o.start < window.to && o.end > window.from;
  if (!s.recurring || !s.recurrencePattern) return overlaps({ start, end }) ? [{ start, end }] : [];
  const f0 = floating(start, tz);
  const fEnd = floating(end, tz);
  const anchorDate = localDate(start, tz);
  const endDays = Math.round((Date.parse(localDate(end, tz)) - Date.parse(anchorDate)) / DAY_MS);
  const endTime = hhmm(fEnd);
  const endSub = subMinute(fEnd);
  const rule = floatingRule(start, s.recurrencePattern, tz);
  // The window in floating time, widened by a shift's length and a day each side (zone offsets, DST).
  const duration = end - start;
  const from = new Date(floating(window.from, tz).getTime() - duration - DAY_MS);
  const to = new Date(floating(window.to, tz).getTime() + DAY_MS);
  const out: { start: number; end: number }[] = [];
  for (const f of rule.between(from, to, true)) {
    const date = f.toISOString().slice(0, 10);
    let o: { start: number; end: number };
    if (date === anchorDate && hhmm(f) === hhmm(f0)) {
      o = { start, end }; // the first occurrence, exactly as stored (even in a repeated hour)
    } else {
      const oStart = wallTimeToUtc(date, hhmm(f), tz) + subMinute(f);
      const oEnd = wallTimeToUtc(addDays(date, endDays), endTime, tz) + endSub;
      o = { start: oStart, end: oEnd > oStart ? oEnd : oStart + duration };
    }
    if (overlaps(o)) out.push(o);
  }
  return out.sort((a, b) => a.start - b.start);
}
