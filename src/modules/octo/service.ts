/**
 * The OCTO supplier API (`/octo/v1`): every Berth operator sold through OCTO resellers over the
 * reseller channel's keys, connections, rate limit, commission and settlement, with the same
 * inventory lock and booking commit as every other sale. The logic lives in the files next to it:
 * catalog.ts (items as products, options and units), slots.ts (availabilities and prices),
 * products.ts, availability.ts, reserve.ts (holds: reserve, extend, update), confirm.ts,
 * cancel.ts, lookup.ts (get and list), settings.ts (the operator's cancellation policy), jobs.ts
 * (expiry sweep), auth.ts (credentials, capabilities, headers), render.ts (OCTO's error bodies).
 */
export { getSupplier, listCapabilities, getProducts, getProduct } from './products';
export { checkAvailability, availabilityCalendar } from './availability';
export { reserveBooking, extendBooking, updateBooking } from './reserve';
export { confirmBooking } from './confirm';
export { cancelBooking } from './cancel';
export { getBooking, listBookings } from './lookup';
export { getSettings, putSettings } from './settings';
export { expireOctoHolds, nextOctoHoldExpiry, onSandboxReset } from './jobs';
