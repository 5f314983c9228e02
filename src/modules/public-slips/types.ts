/** Requests per minute from one IP address to the public slip pages (reads), and to bookings, joins and document submissions (writes). */
export const READS_PER_IP = 120;
export const WRITES_PER_IP = 10;
export const BOOKING_TOKEN_PREFIX = 'spb_';
