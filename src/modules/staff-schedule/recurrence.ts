import { RRule, Weekday } from 'rrule';
import type { z } from '@hono/zod-openapi';
import type { RecurrencePattern } from './schemas';

export type Pattern = z.infer<typeof RecurrencePattern>;

const FREQ = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY } as const;
const DAYS: Record<string, Weekday> = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU };

/** The RFC 5545 rule of a shift starting at `start` and repeating by `p`. */
export function buildRule(start: string, p: Pattern): RRule {
  return new RRule({
    freq: FREQ[p.frequency],
    interval: p.interval ?? 1,
    byweekday: p.byWeekday?.map((d) => DAYS[d]),
    dtstart: new Date(start),
    until: p.until ? new Date(p.until) : undefined,
    count: p.count,
  });
}
