// Slip waitlist: entries in queue order (entries.ts), offers that hold a unit through a slip
// reservation and their answers and expiry sweep (offers.ts), reads and views (queries.ts, views.ts).
export { createEntry, deleteEntry, entriesOfRenter, getEntry, joinFromUnitPage, listEntries, matchUnit, updateEntry, waitlistStats } from './entries';
export { acceptOffer, cancelEntry, declineOffer, makeOffer, nextOfferExpiry, sweepOffers } from './offers';
export { PublicJoinBody, PublicJoinResult } from './schemas';
