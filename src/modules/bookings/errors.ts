import { ApiError, defineErrors } from '../../lib/errors';
import { formatLocalDateTime } from '../../lib/local-time';

// Bookings answers the shared codes of lib/errors.ts and its own below; `invalid_promo_code` is the promo-codes module's (its sale extension).

/** The codes of the operator's money actions on a booking (partial refunds, goodwill credits, charging the balance). */
export const bookingErrors = defineErrors({
  exceeds_refundable: {
    status: 409,
    meaning: "Bookings: a refund larger than what the booking's card payments have left to refund (paid less refunded, refunds in flight included)",
  },
  refund_in_progress: {
    status: 409,
    meaning: "Bookings: this refund depends on another one of the booking still in flight (money on file, a line's remainder, a credit); retry after it",
  },
  line_not_refundable: { status: 400, meaning: 'Bookings: a refund line that is not a charge of this booking, or more than is left of it' },
  nothing_to_charge: { status: 409, meaning: 'Bookings: the booking owes nothing (its balance is 0 or money is held on file)' },
  no_card_on_file: { status: 409, meaning: "Bookings: neither the booking's payment nor the renter has a stored card to charge" },
  account_credit_changed: {
    status: 409,
    meaning:
      "Bookings: a cancellation would take back goodwill credit its booking moved to the renter's account while the renter was spending it; cancel again",
  },
  insufficient_account_credit: {
    status: 400,
    meaning:
      "Bookings: the renter's account credit (in the booking's currency) is less than the booking asked to use, or another booking spent it at the same moment",
  },
});

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

/**
 * A booking rule's refusal (written for the operator's `rentalDetails`) said of another request's
 * own fields: each `rentalDetails.<field>` of its details becomes `rename(<field>)`, so the channel,
 * the widget and the marketplace never name a field their callers did not send. Other errors pass.
 */
export function inRequestFields(err: unknown, rename: (field: string) => string): unknown {
  if (!(err instanceof ApiError) || !err.details?.some((d) => d.field?.startsWith('rentalDetails.'))) return err;
  const details = err.details.map((d) => (d.field?.startsWith('rentalDetails.') ? { ...d, field: rename(d.field.slice('rentalDetails.'.length)) } : d));
  // The same code and status (a module's code keeps its table's status).
  const out = new ApiError(err.code as ConstructorParameters<typeof ApiError>[0], err.message, { details, extra: err.extra, headers: err.headers });
  return Object.assign(out, { status: err.status });
}
