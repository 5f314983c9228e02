import { defineErrors } from '../../lib/errors';

/** Codes of the renter's self-service (codes, sessions, cancellation, tips, documents, participants, reviews). */
export const renterErrors = defineErrors({
  invalid_code: { status: 400, meaning: 'The code is wrong or the code session is unknown (`attemptsLeft` says how many tries remain)' },
  code_expired: { status: 400, meaning: 'The code is older than 10 minutes or was used; ask for a new one' },
  too_many_attempts: { status: 400, meaning: 'Five wrong codes were tried; ask for a new code' },
  no_booking_email: { status: 400, meaning: 'The booking has no valid e-mail address to send a code to' },
  renter_session_invalid: { status: 401, meaning: 'The renter session token (`X-Renter-Token` or `token`) is missing, expired, used or for another booking' },
  booking_not_completed: { status: 400, meaning: 'Tips and review requests are for completed bookings' },
  no_stored_card: { status: 400, meaning: 'The booking has no stored card to charge' },
  booking_finished: { status: 400, meaning: 'The booking is cancelled, completed or over: it takes no more uploads' },
  unsupported_document_type: { status: 400, meaning: 'The file is not a PDF, JPEG, PNG, WebP or HEIC document (read from its content)' },
  document_too_large: { status: 400, meaning: 'The document is larger than 10 MB' },
  too_many_documents: { status: 400, meaning: 'The booking already has the most documents it can hold (10)' },
  not_changeable: {
    status: 409,
    meaning: 'The booking cannot be changed online now (`reason`: not_changeable_status, booked_through_partner, started, past_cutoff)',
  },
  party_full: { status: 409, meaning: 'The booking already has as many participants as its party size' },
  waiver_mismatch: { status: 400, meaning: "The signed waiver is not the operator's or was signed by someone else" },
  unknown_review_platform: { status: 400, meaning: 'A named review platform is not configured for the location (`details` lists the configured ones)' },
});

export const renterFail = renterErrors.fail;
