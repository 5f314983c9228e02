/**
 * Booking statuses and the moves between them (the spec shows only the events; this is Berth's design).
 *
 *   pending ──confirm──▶ confirmed ──check-in──▶ checked_in ──check-out──▶ completed
 *      │                   │   │
 *      └──cancel──▶ cancelled ◀┘   └──no-show──▶ no_show
 *
 * - `pending`: placed but not yet paid or approved (pay later, awaiting confirmation). Counts
 *   against availability. Confirming is compare-and-swap on the status.
 * - `confirmed`: paid in full, or the first installment succeeded, or sold by a reseller.
 * - `checked_in`: the renter took the boat / joined the tour. Not cancellable any more.
 * - `completed`: returned (checked out). Terminal.
 * - `cancelled`, `no_show`: terminal; capacity is released exactly once.
 *
 * Kept as designed: it is the smallest set that covers the spec's events (created, updated,
 * cancelled, checked in, checked out) plus pay-later approval and no-shows, and it has no cycles,
 * so each status is entered at most once. The operations live in lifecycle.ts: every move is a
 * compare-and-swap on `bookings.version` guarded by the activity row `bev_{rentalId}_v{version}`
 * and fires `booking.status_changed` plus its own event (confirm and no-show: `booking.updated`,
 * check-in: `booking.checked_in`, check-out: `booking.checked_out`, cancel: `booking.cancelled`).
 */
import { type BookingStatus } from '../../lib/booking-status';

export { BOOKING_STATUSES, ACTIVE_STATUSES, type BookingStatus } from '../../lib/booking-status';

export const TRANSITIONS: Record<BookingStatus, BookingStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled', 'no_show'],
  checked_in: ['completed'],
  completed: [],
  cancelled: [],
  no_show: [],
};

export const canMove = (from: BookingStatus, to: BookingStatus) => TRANSITIONS[from]?.includes(to) ?? false;
