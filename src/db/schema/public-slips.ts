import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { tenant, createdAt } from './_columns';

/**
 * Reservations booked on the public slip pages and the SHA-256 of the booking token handed to the
 * booker (the credential of the public document endpoints of that reservation).
 */
export const slipPublicBookings = sqliteTable('slip_public_bookings', {
  reservationId: text('reservation_id').primaryKey(),
  customerId: tenant(),
  locationId: text('location_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: createdAt(),
});
