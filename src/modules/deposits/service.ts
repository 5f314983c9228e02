/**
 * The deposits module's face. Other modules use it for:
 * - the payment simulator's card readers (slip reservations' terminal charges): SIMULATED_READERS.
 * The rest (authorize.ts, capture-release.ts, provider-sync.ts, views.ts, queries.ts,
 * statements.ts) is reached through its router only.
 */
export { SIMULATED_READERS } from './authorize';
