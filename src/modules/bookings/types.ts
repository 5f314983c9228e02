// Public vocabulary of bookings: the booking request as the API takes it (the seed builds its demo bookings from it).
export { BookBody, BookResult } from './schemas';
export { BOOKING_STATUSES, ACTIVE_STATUSES, type BookingStatus } from '../../lib/booking-status';
