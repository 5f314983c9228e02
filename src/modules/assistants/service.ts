/**
 * The assistants module's face. Others use it for:
 * - the fleet concierge (the assistants tests): fleetConcierge.
 * The booking sidekick (sidekick.ts) is reached through its router only.
 */
export { fleetConcierge } from './concierge';
