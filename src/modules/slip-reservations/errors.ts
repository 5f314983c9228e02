import { ApiError, defineErrors } from '../../lib/errors';
import { formatCalendarDate } from '../../lib/local-time';

export const reservationErrors = defineErrors({
  slip_does_not_fit: { status: 409, meaning: 'The boat does not fit the unit; `fit` lists each dimension that fails and by how much' },
  slip_closed: { status: 409, meaning: 'The unit is in maintenance or out of service' },
  refund_exceeds_paid: { status: 409, meaning: 'A refund larger than what is left of the payment (or of what was paid)' },
  has_payments: { status: 409, meaning: 'Money is still held for the reservation; refund it first' },
  nothing_to_bill: { status: 409, meaning: 'The reservation owes nothing' },
  already_recognized: { status: 409, meaning: 'The revenue of these months was already recognised' },
  stay_too_short: {
    status: 400,
    meaning: 'The stay is shorter than one period of its rate type (a month, a season of six months, a year); `minimumDepartureDate` is the earliest departure',
  },
});

/**
 * 400 `in_the_past` (a shared code): a stay, offer or request whose day is already past at the
 * location (its calendar, on the operator's clock). Today is allowed.
 */
export const pastDate = (field: string, date: string, today: string) =>
  new ApiError('in_the_past', `${field} ${date} (${formatCalendarDate(date)}) is already past: today is ${formatCalendarDate(today)} at the location`, {
    details: [{ field, message: `must be today (${today}) or later` }],
    extra: { today },
  });
