// Slip reservations: the entry point other code imports. create.ts (create, update, transfer and
// the lock helper), lifecycle.ts (confirm, bill with hold, check-in/out, cancel, delete, contract
// state, re-pricing, revenue recognition, hold expiry), charging.ts (payments and refunds),
// messages.ts, availability.ts (fit and free units), queries.ts (reads), pricing.ts, ledger.ts.
export { createReservation, updateReservation, transferReservation, underSlipLock, reservationEvent } from './create';
export {
  cancelReservation,
  checkIn,
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
export { chargeCard, paymentHistory, recordPayment, refundPayment, terminalCharge } from './charging';
export { listMessages, sendMessage } from './messages';
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
export { priceReservation, monthSegments, depositFor } from './pricing';
export { reservationOut, balanceOf, type ReservationRow } from './views';
export { Reservation as ReservationSchema } from './schemas';
export { RESERVATION_STATUSES, isBlocking, type ReservationStatus } from './types';
