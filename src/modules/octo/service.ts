/**
 * OCTO's face: the OCTO supplier API (`/octo/v1`) sells every Berth operator through OCTO resellers over the reseller channel's
 * keys, connections, rate limit, commission and settlement, with the same inventory lock and booking commit as every other sale.
 * Its router and module.ts import the use-case files directly: catalog.ts (items as products, options and units), slots.ts
 * (availabilities and prices), products.ts, availability.ts, reserve.ts (holds: reserve, extend, update), confirm.ts, cancel.ts,
 * lookup.ts (get and list), settings.ts (the operator's cancellation policy), jobs.ts (expiry sweep), auth.ts (credentials,
 * capabilities, headers), render.ts (OCTO's error bodies). Others use it for:
 * - the operator's OCTO settings (the seed): putSettings.
 */
export { putSettings } from './settings';
