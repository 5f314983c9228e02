// Slip reservations' face: what other modules (the slip portal, public slips, the slip waitlist, contracts, documents, guest
// access, haul services, meter readings) and the seed may call; the router and module.ts import the use-case files directly:
// create.ts (create, update, transfer and the lock helper), lifecycle.ts (confirm, check-in/out, cancel, delete), bill-holds.ts
// (bill with hold, hold expiry), repricing.ts (charge lines, re-pricing, revenue recognition), contract-state.ts (the
// reservation's contract state), charging.ts (payments and refunds), messages.ts, availability.ts (fit and free units),
// queries.ts (reads), pricing.ts, ledger.ts. Others use it for:
// - a new stay and its moves (waitlist, public slips, seed): createReservation, writeNewReservation, underSlipLock, confirmReservation, sendBill, changeBoat;
// - change-log pieces batched by others: confirmationChange, holdReleaseChange, chargeLinesChange, contractStateStmts;
// - availability and quotes (public slips, waitlist): checkAvailability, quoteStay, unitRateOf, nightsBetween, requireNotPast, pastDate, isBlocking;
// - reads: getReservationRow, reservationRowsByIds, listReservations, countWithoutContract, reservationView, ReservationRow;
// - the money view of a stay: reservationMoney, reservationLedger;
// - the renter portal's payments and messages: cardIntentOf, chargeCardOf, recordCardIntentOf, paymentHistory, recordRenterMessage, renterThread;
// - response and request schemas reused by other slip modules: ReservationSchema, PaymentSchema, MessageSchema, BoatSchema, BoatInputSchema, RenterInputSchema.
export { changeBoat, createReservation, underSlipLock, writeNewReservation } from './create';
export { confirmationChange, holdReleaseChange, confirmReservation } from './lifecycle';
export { sendBill } from './bill-holds';
export { chargeLinesChange } from './repricing';
export { contractStateStmts } from './contract-state';
export { cardIntentOf, chargeCardOf, paymentHistory, recordCardIntentOf } from './charging';
export { recordRenterMessage, renterThread } from './messages';
export { checkAvailability } from './availability';
export { countWithoutContract, getReservationRow, listReservations, reservationRowsByIds, reservationView } from './queries';
export { nightsBetween } from './pricing';
export { quoteStay, rateOf as unitRateOf, requireNotPast } from './quote';
export { pastDate } from './errors';
export { type ReservationRow } from './views';
// The one money view of a stay (its ledger, its quote before confirmation): reads and e-mails of contracts, public slips and the waitlist.
export { reservationLedger, reservationMoney } from './money';
export {
  Reservation as ReservationSchema,
  Payment as PaymentSchema,
  Message as MessageSchema,
  Boat as BoatSchema,
  BoatIn as BoatInputSchema,
  RenterIn as RenterInputSchema,
} from './schemas';
export { isBlocking } from './types';
