import { ApiError } from '../../lib/errors';
import { formatLocalDateTime } from '../../lib/local-time';

// Bookings answers the shared codes of lib/errors.ts; `invalid_promo_code` is the promo-codes module's (its sale extension).

/**
 * 400 `in_the_past`: a booking (or a move) for a time already past on the operator's clock. The message
 * names the start in the location's time and the current time there.
 */
export const inThePast = (start: number, tz: string, now: number, field = 'rentalDetails.startTime') =>
  new ApiError('in_the_past', `The start (${formatLocalDateTime(start, tz)}) is already past: it is ${formatLocalDateTime(now, tz)} at the location`, {
    details: [{ field, message: 'must not be in the past' }],
  });

/** 400 `bad_request` naming the field at fault. */
export const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});
