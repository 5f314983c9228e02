/**
 * The partner platform's public vocabulary: the OAuth scope catalogue, the embed locations of
 * embedded apps and the events apps may subscribe to. The gateway's route table, the consent
 * page and app validation all read these.
 */

/** Every scope an app may request, with what it allows (published at GET /oauth/scopes and in /docs). */
export const SCOPES = {
  'read:bookings': 'Read bookings, the schedule, booking events, holds, the waitlist and deposits',
  'write:bookings': 'Place, change, cancel, check in and check out bookings; holds, booking events, waitlist offers and deposits',
  'read:customers': 'Read renters, pending renters (waiver numbers), waiver templates and signed waivers',
  'write:customers': 'Create, update and delete renters, pending renters and waiver templates',
  'read:inventory': 'Read inventory, pricing, availability, boat records, drydock and asset pools',
  'write:inventory': 'Set up and change inventory, pricing, boat records, drydock and asset pools',
  'read:pos': 'Read point-of-sale items and folders',
  'write:pos': 'Change point-of-sale items and folders',
  'read:transactions': 'Read point-of-sale transactions',
  'write:transactions': 'Record point-of-sale transactions, payments, refunds and settlements',
  'read:analytics': 'Read analytics metrics and forecasts',
  'read:reports': 'Read reports (inventory performance, year over year)',
  'read:locations': 'Read locations',
  'write:locations': 'Create, update, restore and schedule the deletion of locations',
  'read:geofence': 'Read geofences, staff locations, asset positions and the live map',
  'write:geofence': 'Change geofences; report staff locations and asset positions',
  audio_calling: 'Place and list voice calls (/calls/partner/*)',
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];
export const isScope = (s: string): s is Scope => Object.hasOwn(SCOPES, s);

/** Places of the operator dashboard where an embedded app can appear. */
export const EMBED_LOCATIONS = {
  'asset-tracking': 'The live map of assets and staff (the gateway exposes positions with read:geofence)',
  dashboard: 'A card on the operator home page',
  'booking-detail': 'A panel on a booking (the session token carries the rentalId when opened there)',
  'renter-profile': 'A panel on a renter profile',
  'inventory-item': 'A panel on an inventory item',
  settings: "The app's settings page in Admin > Apps",
} as const;

export type EmbedLocation = keyof typeof EMBED_LOCATIONS;
export const EMBED_LOCATION_NAMES = Object.keys(EMBED_LOCATIONS) as EmbedLocation[];

/** Events an installed app may receive (booking.* expands to all of them); they need read:bookings. */
export const APP_EVENTS = [
  'booking.created',
  'booking.updated',
  'booking.cancelled',
  'booking.checked_in',
  'booking.checked_out',
  'booking.status_changed',
  'booking.rescheduled',
] as const;
export type AppEvent = (typeof APP_EVENTS)[number];
export const APP_EVENT_WILDCARD = 'booking.*';

export type AppStatus = 'draft' | 'in_review' | 'approved';

/** What an app file (`berth.app.json`) holds; GET /partners/apps/{appId}/manifest answers exactly this. */
export interface AppManifest {
  appId: string;
  name: string;
  scopes: string[];
  urls: { embed: string | null; redirect: string[] };
  embedLocations: string[];
  webhooks: { url: string | null; events: string[] };
}

/** The built-in public OAuth client of the command-line tool (device authorization grant). */
export const CLI_CLIENT_ID = 'berth-cli';

/** Lifetimes (spec Limits: access token 1 hour, refresh token 90 days). */
export const PARTNER_TOKEN_TTL_MS = 30 * 24 * 3600_000;
