// Slip waitlist's face: what other code may call. The logic lives beside it: entries in queue order
// (entries.ts), offers that hold a unit through a slip reservation, their answers and expiry sweep
// (offers.ts), reads and views (queries.ts, views.ts).
// - joining from a public unit page: joinFromUnitPage, PublicJoinBody, PublicJoinResult
// - entries for the seed: createEntry
export { createEntry, joinFromUnitPage } from './entries';
export { PublicJoinBody, PublicJoinResult } from './schemas';
