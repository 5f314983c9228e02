/**
 * The renter's self-service on a booking, without operator credentials: e-mailed codes and renter
 * sessions (sessions.ts), cancellation eligibility and cancellation with the refund the policy gives
 * (eligibility.ts, cancel.ts, money.ts), tips (tips.ts), document uploads (documents.ts),
 * participants (participants.ts), masked stored cards (payment-methods.ts) and review requests
 * (reviews.ts). Money moves only in money.ts.
 */
export { requestCode, verifyCode, checkoutSessionStmt, requireSession, maskEmail, RENTER_TOKEN_HEADER, type SessionRow } from './sessions';
export { cancellationEligibility, eligibilityOf, type Eligibility } from './eligibility';
export { cancelByRenter } from './cancel';
export { tipBooking } from './tips';
export { uploadDocument, listDocuments, documentFile, sniffDocument, DOCUMENT_KINDS, MAX_DOCUMENTS, MAX_DOCUMENT_BYTES, type DocumentKind } from './documents';
export {
  listParticipants,
  operatorParticipants,
  addParticipant,
  updateParticipant,
  removeParticipant,
  linkParticipantWaiver,
  partySizeOf,
} from './participants';
export { maskedPaymentMethods } from './payment-methods';
export { requestReviews } from './reviews';
export { rentalById, asRenter } from './queries';
