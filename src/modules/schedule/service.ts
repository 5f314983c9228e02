// Schedule's face: what other modules may call. The logic lives beside it: views.ts (entry, light
// entry, renter and drydock views), queries.ts (tenant-scoped reads and the shared query pieces),
// by-item.ts, by-location.ts, by-status.ts and cursor.ts (cursor pagination and counts).
// - the renter of a booking as the schedule shows it (public booking, deposits): renterOf
export { renterOf } from './views';
