import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/**
 * Abandoned carts of the booking widget (`POST /public/cartRecovery`). The id is chosen by the
 * widget (unguessable, 16+ characters). `active` -> `completed` (the booking was made) | `expired`
 * (the slot is gone). `contactOn` is when the recovery e-mail is due; `contactedAt` marks that it
 * went out (or that staff contacted the person).
 */
export const cartRecoveryItems = sqliteTable(
  'cart_recovery_items',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    bookingInfo: json<Record<string, unknown>>('booking_info'),
    cartData: json<Record<string, unknown>>('cart_data'),
    status: text('status', { enum: ['active', 'completed', 'expired'] })
      .notNull()
      .default('active'),
    /** ISO instant the recovery e-mail is due; null when it must not be sent (throttled address). */
    contactOn: text('contact_on'),
    contactedAt: text('contacted_at'),
    /** The recovery e-mail (message_outbox id) and its short tracking link. */
    contactMessageId: text('contact_message_id'),
    shortCode: text('short_code'),
    completedAt: text('completed_at'),
    /** The booking that completed the cart and its total in cents (recovered revenue). */
    transactionId: text('transaction_id'),
    revenue: integer('revenue'),
    statusReason: text('status_reason'),
    ...timestamps(),
  },
  (t) => [index('cart_recovery_due_idx').on(t.status, t.contactOn), index('cart_recovery_location_idx').on(t.customerId, t.locationId, t.createdAt)],
);
