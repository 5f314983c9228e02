/**
 * Booking services (transport-free; used by the routes, the channel, the marketplace, the public
 * widget, cron jobs and the seed). See create.ts for the commit and lifecycle.ts for the moves.
 */
export { createBooking, createBookingRows, type CreateBookingOptions, type BookingSource, type BookingResult, type ExtraLedgerEntry } from './create';
export { quoteBooking, type Quote } from './quote';
export { previewBooking } from './preview';
export {
  cancelBooking,
  cancelAsOperator,
  noShowAsOperator,
  rescheduleBooking,
  confirmBooking,
  checkInBooking,
  checkOutBooking,
  noShowBooking,
  getBooking,
  type CancelResult,
} from './lifecycle';
export { bookingOut, type BookingRow, type BookingView } from './views';
export { getBookingRow, getBookingWithZone, paidByCard } from './queries';
export { bundlesOf } from './offers';
export { BOOKING_STATUSES, ACTIVE_STATUSES, canMove, type BookingStatus } from './status';

// Ledger and activity pieces that deposits and the public widget write with.
export { insertLedger, memoEntry, type LedgerScope, type NewLedger } from './ledger';
// Realized revenue of completed rentals (analytics).
export { realizationStmt, REALIZED_REVENUE } from './ledger';
export { scopeOf } from './changes';
export { activityStmt, isVersionRace } from './activity';
// Money other modules add to a booking (the point of sale, protection plans).
export { findRentalAnyOperator, bookingPaymentStmts, bookingChargeStmts, bookingRefundStmts } from './money';

// Installments of payment plans (the cron job in module.ts).
export { chargeDueInstallments, nextInstallmentDue, type InstallmentRunSummary } from './installments';

// Reads of the affiliates module (referrals and promo codes attributed to an affiliate).
export { attributedRentals, promoAffiliateOf, promoCodesOfAffiliate, type AttributedRental } from './affiliate-reads';

// Prices other sales paths quote with before a booking exists (the OCTO supplier API's catalog, availability and holds).
export { rentalUnitPrice, tourQuote, quoteOrder, standardTier, type LineQuote, type LineInput } from './pricing';

// Statements other modules put in their own batch to change a booking row (the bookings module alone writes the table).
export {
  deleteTestBookingsStmt,
  bookingDepositInfoStmt,
  bookingRenterEditStmt,
  bookingTipPaidStmt,
  bookingCancellationRefundStmt,
  bookingsWaiverSignedStmt,
} from './row-writes';
