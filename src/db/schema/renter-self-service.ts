import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * A one-time code e-mailed to a booking's address (POST /public/bookings/{rentalId}/cancellation-otp).
 * The code is stored as a keyed hash only; it expires after 10 minutes and allows 5 attempts
 * (counted with one conditional UPDATE each, so parallel guesses cannot exceed them).
 */
export const renterOtps = sqliteTable(
  'renter_otps',
  {
    /** The `sessionId` the renter sends back with the code. */
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Epoch ms. */
    expiresAt: integer('expires_at').notNull(),
    verifiedAt: text('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [index('renter_otps_rental_idx').on(t.rentalId, t.createdAt)],
);

/**
 * A renter's session on one order (transaction): a bearer token (stored as its SHA-256) issued by a
 * verified code (`otp`, may cancel) or handed to the renter who just paid (`checkout`, may manage
 * participants, documents and the pass but not cancel). Short-lived; a cancellation uses it once.
 */
export const renterSessions = sqliteTable(
  'renter_sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    customerId: tenant(),
    transactionId: text('transaction_id').notNull(),
    /** The rental the code was asked for (null for checkout sessions, which cover the whole order). */
    rentalId: text('rental_id'),
    origin: text('origin', { enum: ['otp', 'checkout'] }).notNull(),
    /** Epoch ms. */
    expiresAt: integer('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('renter_sessions_token_uq').on(t.tokenHash), index('renter_sessions_txn_idx').on(t.customerId, t.transactionId)],
);

/**
 * The people of a booking (the renter adds, renames and removes them up to the party size until
 * check-in), each with their own waiver status (the signature that covers them).
 */
export const bookingParticipants = sqliteTable(
  'booking_participants',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    /** YYYY-MM-DD. */
    dob: text('dob'),
    waiverSignatureId: text('waiver_signature_id'),
    waiverSignedAt: text('waiver_signed_at'),
    ...timestamps(),
  },
  (t) => [index('booking_participants_rental_idx').on(t.customerId, t.rentalId)],
);

/** Documents a renter uploaded for a booking (insurance or ownership), stored in R2. */
export const bookingDocuments = sqliteTable(
  'booking_documents',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    kind: text('kind', { enum: ['insurance', 'ownership', 'other'] }).notNull(),
    fileName: text('file_name').notNull(),
    /** Sniffed from the bytes, never taken from the client. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    r2Key: text('r2_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('booking_documents_rental_idx').on(t.customerId, t.rentalId)],
);

/** One tip per booking: claimed before the charge, so a retried or doubled request never charges twice. */
export const bookingTips = sqliteTable(
  'booking_tips',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    /** Cents. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['charging', 'paid'] }).notNull(),
    paymentIntentId: text('payment_intent_id'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('booking_tips_rental_uq').on(t.rentalId)],
);

/** Review requests sent to a renter after their booking (once per booking). */
export const reviewRequests = sqliteTable(
  'review_requests',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    rentalId: text('rental_id').notNull(),
    email: text('email').notNull(),
    connections: json<string[]>('connections').notNull(),
    messageId: text('message_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('review_requests_rental_uq').on(t.rentalId)],
);
