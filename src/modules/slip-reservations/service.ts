// Slip reservations: the entry point other code imports. create.ts (create, update, transfer and
// the lock helper), lifecycle.ts (confirm, check-in/out, cancel, delete), bill-holds.ts (bill with
// hold, hold expiry), repricing.ts (charge lines, re-pricing, revenue recognition),
// contract-state.ts (the reservation's contract state), charging.ts (payments and refunds),
// messages.ts, availability.ts (fit and free units), queries.ts (reads), pricing.ts, ledger.ts.
export {
  changeBoat,
  createReservation,
  updateReservation,
  transferReservation,
  underSlipLock,
  reservationEvent,
  writeNewReservation,
  type CreateOptions,
} from './create';
export { cancelReservation, checkIn, confirmationChange, holdReleaseChange, checkOut, confirmReservation, deleteReservation } from './lifecycle';
export { expireBillHolds, nextBillHoldExpiry, sendBill } from './bill-holds';
export { chargeLinesChange, recalculateTotal, recognizeRevenue } from './repricing';
export { contractStateStmts, markContractSigned } from './contract-state';
export {
  cardIntentOf,
  chargeCard,
  chargeCardOf,
  createCardIntent,
  paymentHistory,
  recordCardIntent,
  recordCardIntentOf,
  recordPayment,
  refundPayment,
  terminalCharge,
} from './charging';
export { type SlipCharge } from './payments';
export { listMessages, recordRenterMessage, renterThread, sendMessage } from './messages';
export { checkAvailability, slipAvailability } from './availability';
export {
  countWithoutContract,
  dueBilling,
  expiringSoon,
  getByNumber,
  getReservation,
  getReservationRow,
  listReservations,
  reservationRowsByIds,
  reservationStats,
  reservationView,
  viewsOf,
} from './queries';
export { priceReservation, monthSegments, depositFor, nightsBetween } from './pricing';
export { quoteStay, rateOf as unitRateOf, requireNotPast, todayAtLocation } from './quote';
export { pastDate } from './errors';
export { reservationOut, balanceOf, type ReservationRow } from './views';
export {
  Reservation as ReservationSchema,
  Payment as PaymentSchema,
  Message as MessageSchema,
  Boat as BoatSchema,
  BoatIn as BoatInputSchema,
  RenterIn as RenterInputSchema,
} from './schemas';
export { messageOut, paymentOut } from './views';
export { RESERVATION_STATUSES, isBlocking, type ReservationStatus } from './types';
