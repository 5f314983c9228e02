/**
 * AI helpers of the booking widget: the renter's booking sidekick and the fleet concierge, both
 * through the AI port (src/adapters/ai.ts), grounded in the operator's own data.
 */
export { bookingSidekick } from './sidekick';
export { fleetConcierge } from './concierge';
