/** How popular each start time of an item is, from its bookings (with the weekday parsing it takes). */
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError } from '../../lib/errors';
import { addDays, localDate, localTime, WEEKDAYS, type Weekday } from '../../lib/time';
import { bookings } from '../../db/schema/bookings';
import { departuresOn, rentalSlotsOn } from './engine';
import type { ItemContext } from './queries';
import { itemHeader } from './views';

const HOUR = 3_600_000;

const WEEKDAY_ALIASES: Record<string, Weekday> = Object.fromEntries(
  WEEKDAYS.flatMap((d, i) => [
    [d.toLowerCase(), d],
    [d.slice(0, 3).toLowerCase(), d],
    [String(i), d],
  ]),
) as Record<string, Weekday>;

/** `Monday`, `mon`, or 0-6 (0 = Sunday) to a weekday name; 400 otherwise. */
export function parseWeekday(v: string): Weekday {
  const d = WEEKDAY_ALIASES[v.trim().toLowerCase()];
  if (!d)
    throw new ApiError('bad_request', 'dayOfWeek must be a weekday name (Monday) or 0-6 with 0 = Sunday', {
      details: [{ field: 'dayOfWeek', message: 'unknown weekday' }],
    });
  return d;
}

/**
 * How often each start time is booked: bookings (not cancelled) of the last 365 days and the next
 * 365, grouped by local start time, optionally on one weekday and of one duration (whole hours).
 */
export async function timeSlotPopularity(ctx: Ctx, item: ItemContext, q: { dayOfWeek?: string; duration?: number }) {
  const weekday = q.dayOfWeek ? parseWeekday(q.dayOfWeek) : null;
  const now = (await onOperatorClock(ctx, item.row.customerId)).clock.now();
  const tz = item.item.timezone;
  const rows = await ctx.db
    .select({ start: bookings.start, end: bookings.end, localDate: bookings.localDate, quantity: bookings.quantity })
    .from(bookings)
    .where(
      and(
        eq(bookings.itemId, item.row.id),
        eq(bookings.customerId, item.row.customerId),
        inArray(bookings.status, ['pending', 'confirmed', 'checked_in', 'completed']),
        gte(bookings.start, now - 365 * 24 * HOUR),
        lt(bookings.start, now + 365 * 24 * HOUR),
      ),
    )
    .all();
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    const date = localDate(r.start, tz);
    if (weekday && WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()] !== weekday) continue;
    if (q.duration != null && Math.round((r.end - r.start) / HOUR) !== q.duration) continue;
    const t = localTime(r.start, tz);
    counts.set(t, (counts.get(t) ?? 0) + 1);
    total++;
  }
  // Every start time the item offers on such a day, even when never booked.
  let probe = localDate(now, tz);
  if (weekday) for (let i = 0; i < 7 && WEEKDAYS[new Date(`${probe}T12:00:00Z`).getUTCDay()] !== weekday; i++) probe = addDays(probe, 1);
  const offered = item.item.kind === 'tour' ? departuresOn(item.item, probe).map((d) => d.time) : rentalSlotsOn(item.item, probe).map((s) => s.time);
  for (const t of offered) if (!counts.has(t)) counts.set(t, 0);
  const max = Math.max(0, ...counts.values());
  const slots = [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([time, n]) => ({
      time,
      bookings: n,
      share: total ? Math.round((n / total) * 1000) / 1000 : 0,
      popularity: n === 0 ? 'none' : n >= max * 0.66 ? 'high' : n >= max * 0.33 ? 'medium' : 'low',
    }));
  return { ...itemHeader(item), dayOfWeek: weekday, duration: q.duration ?? null, totalBookings: total, slots };
}
