/**
 * The public-slips module's face. No other module calls it today: the anonymous slip pages
 * (pages.ts), bookings and their documents (booking.ts), the operator of a location or unit
 * (queries.ts) and the public unit view (views.ts) are reached through its router only.
 */
export {};
