import { ApiError } from '../../lib/errors';
import { formatCalendarDate } from '../../lib/local-time';
import type { HaulServiceType } from '../marina-settings/service';
import { haulErrors } from './errors';
import { RETURNING } from './types';

const bad = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });

/** 400 `in_the_past`: a day before today at the location (its calendar, on the operator's clock). Today is allowed. */
export function requireNotPast(field: string, date: string, today: string) {
  if (date < today)
    throw new ApiError('in_the_past', `${field} ${date} (${formatCalendarDate(date)}) is already past: today is ${formatCalendarDate(today)} at the location`, {
      details: [{ field, message: `must be today (${today}) or later` }],
      extra: { today },
    });
}

/** 409 `haul_not_due`: the scheduled day is still ahead at the location, and the staff did not start early on purpose. */
export function requireDue(scheduledDate: string | null, today: string, early: boolean) {
  if (!scheduledDate || scheduledDate <= today || early) return;
  throw haulErrors.fail(
    'haul_not_due',
    `This haul service is scheduled for ${formatCalendarDate(scheduledDate)} and today is ${formatCalendarDate(today)} at the location: send {"early": true} to start it before its day`,
    { extra: { scheduledDate, today } },
  );
}

/** A real calendar date (the pattern alone lets 2027-02-30 through). */
export function checkDay(field: string, d: string) {
  const t = Date.parse(`${d}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d) throw bad(field, `${field} is not a calendar date`);
}

export function checkRequestDates(type: HaulServiceType, requested: string, ret: string | null | undefined, today: string) {
  checkDay('requestedDate', requested);
  requireNotPast('requestedDate', requested, today);
  if (ret != null) {
    checkDay('requestedReturnDate', ret);
    if (!RETURNING.includes(type)) throw bad('requestedReturnDate', 'Only a round trip or a haul and hold has a return date');
    if (ret < requested) throw bad('requestedReturnDate', 'requestedReturnDate is before requestedDate');
  }
}
