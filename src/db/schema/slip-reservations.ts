import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

export interface SlipBoat {
  vesselName: string;
  loaFt: number;
  beamFt: number | null;
  draftFt: number | null;
  airDraftFt: number | null;
  registration: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  vesselType: string | null;
}

export interface SlipChargeLine {
  name: string;
  amountCents: number;
  per: 'stay' | 'night' | 'month' | 'foot';
  taxable: boolean;
}

/** The pricing inputs of a reservation and the lines they produced (all money in cents). */
export interface SlipPricing {
  ratePerFootCents: number;
  billableLengthFt: number;
  fees: SlipChargeLine[];
  utilities: SlipChargeLine[];
  taxRatePercent: number;
  discountCents: number;
  lines: { kind: string; description: string; quantity: number; amountCents: number }[];
}

/**
 * Slip reservations. Dates are local calendar dates of the location; `departureDate` is the day the
 * boat leaves (nights = departure - arrival). A reservation blocks its unit while pending,
 * confirmed, checked in, or awaiting payment with an unexpired hold; the triggers of migration
 * `slip_reservation_guards` refuse any write that would make two blocking reservations of one unit
 * overlap.
 */
export const slipReservations = sqliteTable(
  'slip_reservations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    reservationNumber: text('reservation_number').notNull(),
    slipId: text('slip_id').notNull(),
    renterId: text('renter_id').notNull(),
    /** The renter's name and contact when booked (lists show them without a join into renters). */
    renter: json<{ firstName: string; lastName: string; email: string; phone: string | null }>('renter').notNull(),
    status: text('status', { enum: ['pending', 'awaiting_payment', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'expired'] }).notNull(),
    rateType: text('rate_type', { enum: ['nightly', 'monthly', 'seasonal', 'annual'] }).notNull(),
    arrivalDate: text('arrival_date').notNull(),
    departureDate: text('departure_date').notNull(),
    boat: json<SlipBoat>('boat').notNull(),
    pricing: json<SlipPricing>('pricing').notNull(),
    currency: text('currency').notNull().default('usd'),
    baseCents: integer('base_cents').notNull().default(0),
    feesCents: integer('fees_cents').notNull().default(0),
    utilitiesCents: integer('utilities_cents').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    taxCents: integer('tax_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
    depositCents: integer('deposit_cents').notNull().default(0),
    amountPaidCents: integer('amount_paid_cents').notNull().default(0),
    amountRefundedCents: integer('amount_refunded_cents').notNull().default(0),
    /** Charges already written to the ledger (cents by entry type), so re-pricing posts only the difference. */
    postedCharges: json<Record<string, number>>('posted_charges'),
    /** Last month (YYYY-MM) whose deferred revenue was recognised. */
    recognizedThrough: text('recognized_through'),
    holdExpiresAt: integer('hold_expires_at'),
    billSentAt: text('bill_sent_at'),
    confirmedAt: text('confirmed_at'),
    checkedInAt: text('checked_in_at'),
    checkedOutAt: text('checked_out_at'),
    cancelledAt: text('cancelled_at'),
    cancellationReason: text('cancellation_reason'),
    expiredAt: text('expired_at'),
    contractStatus: text('contract_status', { enum: ['none', 'pending', 'sent', 'signed'] })
      .notNull()
      .default('none'),
    contractId: text('contract_id'),
    contractSignedAt: text('contract_signed_at'),
    notes: text('notes'),
    source: text('source').notNull().default('staff'),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('slip_reservations_number_uq').on(t.customerId, t.reservationNumber),
    index('slip_reservations_slip_idx').on(t.slipId, t.arrivalDate),
    index('slip_reservations_location_idx').on(t.customerId, t.locationId, t.status, t.arrivalDate),
    index('slip_reservations_renter_idx').on(t.customerId, t.renterId),
    index('slip_reservations_hold_idx').on(t.status, t.holdExpiresAt),
  ],
);

/** Money received for (and given back from) a slip reservation. */
export const slipPayments = sqliteTable(
  'slip_payments',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    reservationId: text('reservation_id').notNull(),
    kind: text('kind', { enum: ['payment', 'refund'] }).notNull(),
    method: text('method', { enum: ['card', 'terminal', 'cash', 'check', 'bank_transfer', 'other'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    paymentIntentId: text('payment_intent_id'),
    providerRefundId: text('provider_refund_id'),
    /** For refunds: the payment refunded. */
    paymentId: text('payment_id'),
    reference: text('reference'),
    note: text('note'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    recordedBy: text('recorded_by'),
    createdAt: createdAt(),
  },
  (t) => [index('slip_payments_reservation_idx').on(t.customerId, t.reservationId, t.createdAt), uniqueIndex('slip_payments_intent_uq').on(t.paymentIntentId)],
);

/** Messages of a reservation: staff to renter (e-mail or SMS), renter to staff (tenant portal), internal notes. */
export const slipReservationMessages = sqliteTable(
  'slip_reservation_messages',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    reservationId: text('reservation_id').notNull(),
    direction: text('direction', { enum: ['outbound', 'inbound', 'internal'] }).notNull(),
    channel: text('channel', { enum: ['email', 'sms', 'note', 'portal'] }).notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    sentTo: text('sent_to'),
    senderId: text('sender_id'),
    outboxMessageId: text('outbox_message_id'),
    createdAt: createdAt(),
  },
  (t) => [index('slip_messages_reservation_idx').on(t.customerId, t.reservationId, t.createdAt)],
);

/**
 * Change log of a reservation, one row per version: id `{reservationId}_v{version}`. Every change
 * writes the row of the version it moves to in the same batch as the change, so two changes racing
 * from the same version collide on the primary key and the second batch lands not at all (the
 * compare-and-swap of every reservation operation).
 */
export const slipReservationChanges = sqliteTable(
  'slip_reservation_changes',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    reservationId: text('reservation_id').notNull(),
    version: integer('version').notNull(),
    action: text('action').notNull(),
    details: json<Record<string, unknown>>('details'),
    actorId: text('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [index('slip_changes_reservation_idx').on(t.customerId, t.reservationId, t.version)],
);
