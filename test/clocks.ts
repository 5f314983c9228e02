/**
 * The instants the time-sensitive suites also run at, so nothing passes only at the hour CI happens
 * to run: five past midnight and five to midnight, local time, in New York, Pago Pago (UTC−11) and
 * Kiritimati (UTC+14), and New York's two DST change days (at 00:05, in the repeated or skipped
 * hour, and at 23:55). Use them with `createOperator({ clockAt, timezone })` and `describe.each`.
 */
import { addDays, wallTimeToUtc } from '../src/lib/time';

export interface PinnedClock {
  label: string;
  timezone: string;
  /** ISO instant. */
  at: string;
}

/** A weekday well clear of any DST change in the three zones. */
const PLAIN_DAY = '2027-01-14';
/** New York's DST days of 2027: clocks spring forward on 14 March and fall back on 7 November. */
export const DST_SPRING = '2027-03-14';
export const DST_FALL = '2027-11-07';

const at = (date: string, time: string, tz: string, later = false) => new Date(wallTimeToUtc(date, time, tz, { later })).toISOString();

export function pinnedClocks(): PinnedClock[] {
  const out: PinnedClock[] = [];
  for (const tz of ['America/New_York', 'Pacific/Pago_Pago', 'Pacific/Kiritimati']) {
    out.push({ label: `00:05 ${tz}`, timezone: tz, at: at(PLAIN_DAY, '00:05', tz) });
    out.push({ label: `23:55 ${tz}`, timezone: tz, at: at(PLAIN_DAY, '23:55', tz) });
  }
  const ny = 'America/New_York';
  for (const [day, odd] of [
    [DST_SPRING, '03:30'],
    [DST_FALL, '01:30'],
  ] as const) {
    out.push({ label: `00:05 ${ny} on ${day}`, timezone: ny, at: at(day, '00:05', ny) });
    out.push({ label: `${odd} ${ny} on ${day}`, timezone: ny, at: at(day, odd, ny, day === DST_FALL) });
    out.push({ label: `23:55 ${ny} on ${day}`, timezone: ny, at: at(day, '23:55', ny) });
  }
  return out;
}

/** The day after a pinned instant's local date (for "tomorrow" bookings). */
export const dayAfter = (date: string) => addDays(date, 1);
