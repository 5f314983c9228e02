/**
 * Bookings' face: what other modules, cron jobs and the seed may call (the router imports its use-case files directly).
 * See create.ts for the commit and lifecycle.ts for the moves. Other modules use it for:
 * - the booking sale and its moves: createBooking, createBookingRows, quoteBooking, previewBooking, cancelBooking, rescheduleBooking, checkIn/OutBooking;
 * - changes of a booking (the renter's self-service): changeBooking, quoteBookingChange, shapeOf;
 * - reads of a booking: getBooking, getBookingRow, paidByCard;
 * - ledger and activity (deposits, point of sale, public widget, slip reservations): insertLedger, memoEntry, scopeOf, activityStmt, isVersionRace;
 * - money added to a booking (point of sale, protection plans, coverage): findRentalAnyOperator, bookingPaymentStmts, bookingChargeStmts, bookingRefundStmts;
 * - the operator's money actions (the seed): refundBookingPart, creditBooking, chargeBookingBalance, accountCreditSale;
 * - statements batched by others to change a booking row: deleteTestBookingsStmt, bookingDepositInfoStmt, bookingRenterEditStmt, bookingTipPaidStmt, ...;
 * - realized revenue (analytics): realizationStmt;
 * - installments of payment plans (the cron job): chargeDueInstallments, nextInstallmentDue;
 * - affiliate reads: attributedRentals, promoAffiliateOf, promoCodesOfAffiliate;
 * - prices quoted before a booking exists (the OCTO supplier API): rentalUnitPrice.
 */
export { createBooking, createBookingRows, type CreateBookingOptions, type BookingResult } from './create';
// The renter's account credit as the booking sale's payment source (the seed sells with it where no module hooks run).
export { accountCreditSale, spentMovedCredit } from './account-credit';
export { quoteBooking } from './quote';
export { previewBooking } from './preview';
export { inRequestFields } from './errors';
export { cancelBooking, rescheduleBooking, checkInBooking, checkOutBooking, getBooking } from './lifecycle';
// Changes of a booking's party, add-ons and time, repriced (the renter's self-service change and its quote).
export { changeBooking, quoteBookingChange, shapeOf, type ChangeInput, type ChangeAnswer } from './modify';
export { ChangeBody, ChangeQuote, BookingShape, ReschedulePriceChange } from './schemas';
export { type BookingRow } from './views';
export { getBookingRow, paidByCard } from './queries';
// Refunds by line (the renter's cancellation quote and refund): the plan from the ledger, what is kept, the refunds paid back.
export { coveredPercent, refundPlanFrom, type RefundPlan } from './refund-lines';
export { keptStmts, payBack, rentalLedger } from './refunds';
export { RefundLine } from './schemas';
// The renter's links of a booking (manage page, pass) and a location's map link, for messages (communications).
export { bookingLinks, mapUrlOf } from './emails';

// Ledger and activity pieces that deposits and the public widget write with.
export { insertLedger, memoEntry, type NewLedger } from './ledger';
// Realized revenue of completed rentals (analytics).
export { realizationStmt } from './ledger';
export { scopeOf } from './changes';
export { activityStmt, isVersionRace } from './activity';
// Money other modules add to a booking (the point of sale, protection plans).
export { findRentalAnyOperator, bookingPaymentStmts, bookingChargeStmts, bookingRefundStmts } from './money';

// The operator's money actions on a booking (the sandbox seed shows them): a partial refund, a goodwill credit, the balance charged.
export { refundBookingPart } from './partial-refund';
export { creditBooking } from './credits';
export { chargeBookingBalance } from './charge-balance';

// Installments of payment plans (the cron job in module.ts).
export { chargeDueInstallments, nextInstallmentDue } from './installments';
// A payment made another way (the point of sale settling a booking) fits the installments still scheduled to the balance.
export { planFollowsBalanceStmts } from './installments';

// Reads of the affiliates module (referrals and promo codes attributed to an affiliate).
export { attributedRentals, promoAffiliateOf, promoCodesOfAffiliate, type AttributedRental } from './affiliate-reads';

// Prices other sales paths quote with before a booking exists (the OCTO supplier API's catalog, availability and holds).
export { rentalUnitPrice } from './pricing';

// Statements other modules put in their own batch to change a booking row (the bookings module alone writes the table).
export { deleteTestBookingsStmt, bookingDepositInfoStmt, bookingRenterEditStmt, bookingTipPaidStmt, bookingsWaiverSignedStmt } from './row-writes';

// The one money view's reads (lib/money-view.ts): the ledger of sales kept by transaction (slip stays, POS transactions, membership invoices) and of rentals.
export { ledgerOfSales, moneyOfSales, moneyOfRentals } from './sale-money';
export type { LedgerRow } from './ledger';
