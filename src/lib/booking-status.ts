/**
 * Booking statuses: vocabulary shared by every layer that reads bookings (inventory counts the
 * active ones, the schedule filters by them). The moves between them are the bookings module's
 * (`src/modules/bookings/status.ts`).
 */
import { sql } from 'drizzle-orm';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'checked_in', 'completed', 'cancelled', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Statuses that hold inventory. */
export const ACTIVE_STATUSES: BookingStatus[] = ['pending', 'confirmed', 'checked_in'];

/** The active statuses as an SQL list (`status IN (...)`). */
export const ACTIVE_STATUS_LIST = sql.join(
  ACTIVE_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);
