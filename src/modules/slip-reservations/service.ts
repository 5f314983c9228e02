// Slip reservations: the entry point other code imports. create.ts (create, update, transfer and
// the lock helper), lifecycle.ts (confirm, bill with hold, check-in/out, cancel, delete, contract
// state, re-pricing, revenue recognition, hold expiry), charging.ts (payments and refunds),
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
export {
  cancelReservation,
  chargeLinesChange,
  checkIn,
  confirmationChange,
  holdReleaseChange,
  checkOut,
  confirmReservation,
  contractStateStmts,
  deleteReservation,
  expireBillHolds,
  markContractSigned,
  recalculateTotal,
  recognizeRevenue,
  sendBill,
} from './lifecycle';
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
export { quoteStay, rateOf as unitRateOf } from './quote';
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
