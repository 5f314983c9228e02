// The slip tenant portal: sign-in with a single-use magic link and tenant sessions (auth.ts), the
// tenant's reservations (queries.ts: every read limited to the session's renter), reservation
// details, vessel, contract, documents and messages (reservation.ts), cards and payments through
// the shared payments service (payments.ts), guest passes and haul services (passes.ts).
export { closeSession, inviteRenter, openSession, requestLink, sessionInfo, TENANT_AUTH } from './auth';
export { ownReservation, ownReservations } from './queries';
export {
  contractFile,
  documentsOf,
  messagesOf,
  reservationDetail,
  sendMessage,
  signOwnContract,
  submitDocument,
  updateVessel,
  uploadFile,
  viewContract,
} from './reservation';
export { addCard, pay, paymentIntent, savedCards } from './payments';
export { addGuestPass, cancelHaul, confirmHaul, guestPassesOf, haulServicesOf, requestHaul, revokeGuestPass } from './passes';
