import type { Scope } from '../partners/types';

/**
 * THE table of the partner gateway: every route of the API, by method and documented path, is
 * either mapped to the one scope an access token needs to call it under /api/v1, or denied with a
 * reason (default-deny: account and billing management, staff administration, integration
 * configuration, file uploads, and every surface that is not an operator API). A path under a
 * `/**` entry is covered by it. `test/modules/gateway/table.test.ts` fails when a route of the
 * app is in neither, so a new route must be placed here consciously; at run time a path the
 * table does not know answers 404 through the gateway.
 *
 * Entries for catalogue endpoints of families that other modules are building (point of sale,
 * analytics) are listed ahead, so they are exposed with the right scope when they land.
 */

export const DENY_REASONS = {
  account: 'account and billing management',
  staff: 'staff administration',
  integrations: 'integration configuration',
  uploads: 'file uploads',
  apps: 'app installations are managed by the operator',
  public: 'public and renter-facing endpoints take no token: call them directly',
  surfaces: 'partner, OAuth, channel and platform surfaces have their own credentials',
  payments: 'payment-provider accounts and terminal credentials',
  writes: 'this family is read-only through the gateway',
  notExposed: 'not one of the families the gateway exposes',
} as const;

export type DenyReason = keyof typeof DENY_REASONS;
export type Rule = Scope | { deny: DenyReason };
const deny = (reason: DenyReason): Rule => ({ deny: reason });

export const GATEWAY_ROUTES: Record<string, Rule> = {
  // ---- bookings (read:bookings, write:bookings) ----
  'POST /coreBooking/book': 'write:bookings',
  'GET /coreBooking/{rentalId}': 'read:bookings',
  'POST /coreBooking/{rentalId}/cancel': 'write:bookings',
  'POST /coreBooking/{rentalId}/reschedule': 'write:bookings',
  'POST /coreBooking/{rentalId}/confirm': 'write:bookings',
  'POST /coreBooking/{rentalId}/check-in': 'write:bookings',
  'POST /coreBooking/{rentalId}/check-out': 'write:bookings',
  'POST /coreBooking/{rentalId}/no-show': 'write:bookings',
  'GET /schedule/schedule': 'read:bookings',
  'GET /schedule/schedule/search': 'read:bookings',
  'GET /schedule/location': 'read:bookings',
  'GET /schedule/by-customer-status': 'read:bookings',
  'GET /schedule/by-location-status': 'read:bookings',
  'GET /schedule/schedules/paginated': 'read:bookings',
  'GET /schedule/schedules/count': 'read:bookings',
  'POST /holdAsset': 'write:bookings',
  'GET /waitlist': 'read:bookings',
  'GET /waitlist/{id}': 'read:bookings',
  'DELETE /waitlist/{id}': 'write:bookings',
  'POST /waitlist/{id}/offer': 'write:bookings',
  'GET /events': 'read:bookings',
  'POST /events': 'write:bookings',
  'POST /preAuth/authorize-deposit': 'write:bookings',
  'POST /preAuth/post-deposit': 'write:bookings',
  'POST /preAuth/capture-deposit': 'write:bookings',
  'POST /preAuth/release-deposit': 'write:bookings',
  'POST /preAuth/sync-missing-preauth/{paymentIntentId}': 'write:bookings',
  'GET /preAuth/audit-preauths/{rentalId}': 'read:bookings',
  'POST /preAuth/connection-token': deny('payments'),

  // ---- customers: renters, pending renters, waivers (read:customers, write:customers) ----
  'GET /renters': 'read:customers',
  'POST /renters': 'write:customers',
  'GET /renters/export': 'read:customers',
  'GET /renters/search-suggestions': 'read:customers',
  'GET /renters/journal-entries/{id}': 'read:customers',
  'GET /renters/{id}': 'read:customers',
  'PATCH /renters/{id}': 'write:customers',
  'DELETE /renters/{id}': 'write:customers',
  'POST /renters/{id}/payment-method': 'write:customers',
  'GET /renters/{id}/payment-methods': 'read:customers',
  'GET /owing/renters': 'read:customers',
  'POST /pending-renters': 'write:customers',
  'GET /pending-renters': 'read:customers',
  'GET /pending-renters/validate': deny('public'),
  'PATCH /pending-renters/{waiverNumber}': 'write:customers',
  'DELETE /pending-renters/{waiverNumber}': 'write:customers',
  'PATCH /pending-renters/{waiverNumber}/complete': 'write:customers',
  'GET /inHouseWaiver/waiver/templates': 'read:customers',
  'POST /inHouseWaiver/waiver/template': 'write:customers',
  'GET /inHouseWaiver/waiver/template/{templateId}': 'read:customers',
  'PUT /inHouseWaiver/waiver/template/{templateId}': 'write:customers',
  'DELETE /inHouseWaiver/waiver/template/{templateId}': 'write:customers',
  'GET /inHouseWaiver/waiver/sign/{signatureId}': 'read:customers',
  'GET /inHouseWaiver/waiver/sign/info/{signatureId}': 'read:customers',
  'GET /inHouseWaiver/waiver/templates/location/{locationId}': deny('public'),
  'GET /inHouseWaiver/logo/{locationId}': deny('public'),
  'POST /inHouseWaiver/waiver/sign': deny('public'),
  'GET /inHouseWaiver/waiver/verify/{signatureId}': deny('public'),
  'GET /waiverUrl': deny('public'),
  'GET /waiverNumberValidation': deny('public'),

  // ---- inventory (read:inventory, write:inventory) ----
  'GET /inventory/customer': 'read:inventory',
  'POST /inventory/setup': 'write:inventory',
  'DELETE /inventory/delete/{inventory_id}': 'write:inventory',
  'POST /inventory/reorder': 'write:inventory',
  'GET /inventory-pricing': 'read:inventory',
  'POST /inventory-pricing': 'write:inventory',
  'POST /inventory/photo/{inventory_id}': deny('uploads'),
  'POST /inventory/video/{inventory_id}': deny('uploads'),
  'POST /inventory/asset-map/{inventory_id}': deny('uploads'),
  'GET /inventory/media/{customerId}/{itemId}/{folder}/{file}': 'read:inventory',
  'GET /availability': 'read:inventory',
  'GET /preload-availability': 'read:inventory',
  'GET /boatRecords': 'read:inventory',
  'POST /boatRecords': 'write:inventory',
  'PATCH /boatRecords': 'write:inventory',
  'DELETE /boatRecords': 'write:inventory',
  'GET /boatRecords/rundownRecords': 'read:inventory',
  'GET /drydock': 'read:inventory',
  'POST /drydock': 'write:inventory',
  'PATCH /drydock': 'write:inventory',
  'DELETE /drydock': 'write:inventory',
  'GET /asset-pools': 'read:inventory',
  'POST /asset-pools': 'write:inventory',
  'GET /asset-pools/{poolId}': 'read:inventory',
  'PATCH /asset-pools/{poolId}': 'write:inventory',
  'DELETE /asset-pools/{poolId}': 'write:inventory',

  // ---- locations (read:locations, write:locations) ----
  'GET /location': 'read:locations',
  'POST /location': 'write:locations',
  'PATCH /location': 'write:locations',
  'DELETE /location': 'write:locations',
  'PATCH /location/restore': 'write:locations',
  'PATCH /location/ivr': deny('integrations'),

  // ---- geofence: geofences, staff locations, asset positions (read:geofence, write:geofence) ----
  'GET /geofences': 'read:geofence',
  'POST /geofences': 'write:geofence',
  'GET /geofences/{geofenceId}': 'read:geofence',
  'PATCH /geofences/{geofenceId}': 'write:geofence',
  'DELETE /geofences/{geofenceId}': 'write:geofence',
  'GET /staff-locations': 'read:geofence',
  'POST /staff-locations': 'write:geofence',
  'GET /asset-positions': 'read:geofence',
  'POST /asset-positions': 'write:geofence',
  'GET /asset-tracking': 'read:geofence',

  // ---- voice (audio_calling) ----
  'POST /calls/partner/calls': 'audio_calling',
  'GET /calls/partner/calls': 'audio_calling',
  'GET /calls/partner/calls/{callId}': 'audio_calling',
  'POST /calls/partner/calls/{callId}/hangup': 'audio_calling',

  // ---- point of sale and transactions (catalogue endpoints; read:pos, write:pos, read:transactions, write:transactions) ----
  'GET /pos/inventory': 'read:pos',
  'POST /pos/inventory': 'write:pos',
  'PUT /pos/inventory': 'write:pos',
  'PATCH /pos/inventory': 'write:pos',
  'DELETE /pos/inventory': 'write:pos',
  'GET /pos/gas-price': 'read:pos',
  'PATCH /pos/inventory/till': 'write:pos',
  'GET /pos/folders': 'read:pos',
  'POST /pos/folders': 'write:pos',
  'PUT /pos/folders': 'write:pos',
  'DELETE /pos/folders': 'write:pos',
  'PUT /pos/folders/reorder': 'write:pos',
  'POST /pos/folders/duplicate': 'write:pos',
  'GET /pos/transaction': 'read:transactions',
  'POST /pos/transaction': 'write:transactions',
  'GET /pos/transaction/{transactionId}': 'read:transactions',
  'GET /pos/transactions/rental/{rentalId}': 'read:transactions',
  'POST /pos/transaction/refund': 'write:transactions',
  'PUT /pos/transaction/settle': 'write:transactions',
  'PUT /pos/transaction/settle-range': 'write:transactions',
  'POST /pos/create_payment': 'write:transactions',
  'POST /pos/charge_customer': 'write:transactions',
  'POST /pos/create_payment_intent': 'write:transactions',
  'POST /pos/account_link': deny('payments'),
  'POST /pos/account': deny('payments'),
  'POST /pos/account_session': deny('payments'),
  'POST /pos/dashboard_link': deny('payments'),
  'POST /pos/connection_token': deny('payments'),

  // ---- analytics and reports (read only; catalogue endpoints) ----
  'GET /analytics/metrics': 'read:analytics',
  'GET /analytics/widget-metrics': 'read:analytics',
  'GET /forecast': 'read:analytics',
  'GET /analytics/inventory-performance': 'read:reports',
  'GET /analytics/year-over-year': 'read:reports',
  'PATCH /analytics/revenue-target': deny('writes'),
  'POST /analytics/realize-completed-bookings': deny('writes'),

  // ---- default-deny: account and billing ----
  '* /customer/**': deny('account'),
  '* /api-keys/**': deny('account'),
  '* /webhooks/**': deny('integrations'),
  '* /channel-connections/**': deny('integrations'),
  '* /apps/**': deny('apps'),
  // ---- default-deny: staff administration ----
  '* /user/**': deny('staff'),
  '* /userManagement/**': deny('staff'),
  '* /staffSchedule/**': deny('staff'),
  // ---- default-deny: not operator APIs ----
  '* /public/**': deny('public'),
  '* /channel/**': deny('surfaces'),
  '* /partners/**': deny('surfaces'),
  '* /platform/**': deny('surfaces'),
  '* /oauth/**': deny('surfaces'),
  '* /device/**': deny('surfaces'),
  '* /.well-known/**': deny('surfaces'),
  '* /sdk/**': deny('surfaces'),
  '* /api/v1/**': deny('surfaces'),
  '* /outbox/**': deny('integrations'),
  '* /health/**': deny('surfaces'),
  '* /openapi.json/**': deny('surfaces'),
  '* /docs/**': deny('surfaces'),
  '* /slip-portal/**': deny('surfaces'),
  '* /ota/**': deny('surfaces'),
  '* /s/**': deny('public'),
  // ---- default-deny: integration configuration ----
  '* /integrations/**': deny('integrations'),
  '* /fleetsys/**': deny('integrations'),
  '* /acct/**': deny('integrations'),
  '* /auth/**': deny('integrations'),
  '* /schema/**': deny('integrations'),
  '* /slip-subscription/**': deny('account'),
  // ---- families the gateway does not expose (spec: bookings, customers, inventory, POS, transactions, analytics, reports, locations, geofence) ----
  '* /memberships/**': deny('notExposed'),
  '* /affiliate/**': deny('notExposed'),
  '* /promoGiftCards/**': deny('notExposed'),
  '* /api/v2/**': deny('notExposed'),
  '* /communication/**': deny('notExposed'),
  '* /cartRecovery/**': deny('notExposed'),
  '* /ai/**': deny('notExposed'),
  '* /slips/**': deny('notExposed'),
  '* /slip-reservations/**': deny('notExposed'),
  '* /slip-contracts/**': deny('notExposed'),
  '* /slip-settings/**': deny('notExposed'),
  '* /haul-services/**': deny('notExposed'),
  '* /meter-readings/**': deny('notExposed'),
};

/** Paths of the spec's gateway guidance that name a family rather than a route: served by the family's list route. */
export const GATEWAY_ALIASES: Record<string, string> = {
  'GET /inventory': '/inventory/customer',
  'GET /schedule': '/schedule/schedules/paginated',
};
