import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Fleet software'];
const own = "`customerId` must be the caller's (403 otherwise). 400 `fleetsys_not_connected` before POST /fleetsys/connect.";

export const status = route({
  method: 'get',
  path: '/fleetsys/status',
  operationId: 'getFleetStatus',
  description: "`customerId` must be the caller's (403 otherwise). Never returns the client secret or the token.",
  tags,
  summary: 'The fleet-software link',
  query: s.CustomerQuery,
  ok: s.Status,
  errors: [403],
});
export const connect = route({
  method: 'post',
  path: '/fleetsys/connect',
  operationId: 'connectFleet',
  tags,
  access: 'admin',
  summary: 'Connect the fleet software with client credentials (tested before saving)',
  body: s.ConnectBody,
  ok: s.Status.extend({ success: s.Status.shape.connected }).openapi('FleetConnected'),
  errors: [403],
  description: `Admins only. A token is fetched from \`tokenUrl\` (OAuth 2.0 client credentials) and a test call made before anything is saved:
400 \`fleetsys_connection_failed\` when either fails. The URLs follow the outbound URL policy (400 \`validation_failed\` naming the field): in
staging and production https on port 443, a public host name (no IP address, no internal or special-use name, resolving only to public
addresses), no user or password; while developing, a local fleet system (localhost) is allowed too. The client secret and the token are stored
encrypted.`,
});
export const disconnect = route({
  method: 'delete',
  path: '/fleetsys/disconnect',
  operationId: 'disconnectFleet',
  tags,
  access: 'admin',
  summary: 'Disconnect the fleet software (credentials deleted)',
  query: s.CustomerQuery,
  ok: s.Status.pick({ customerId: true }).extend({ success: s.Status.shape.connected, disconnected: s.Status.shape.connected }).openapi('FleetDisconnected'),
  errors: [403],
  description: 'Idempotent. The record of synced bookings stays.',
});
export const inventoryTypes = route({
  method: 'get',
  path: '/fleetsys/inventory-types',
  operationId: 'listFleetInventoryTypes',
  tags,
  summary: 'Inventory types of the fleet system',
  query: s.CustomerQuery,
  ok: s.InventoryTypes,
  errors: [403, 503],
  description: own,
});
export const products = route({
  method: 'get',
  path: '/fleetsys/products',
  operationId: 'listFleetProducts',
  tags,
  summary: 'Products of the fleet system',
  query: s.CustomerQuery,
  ok: s.Products,
  errors: [403, 503],
  description: own,
});
export const findReservations = route({
  method: 'get',
  path: '/fleetsys/reservations',
  operationId: 'findFleetReservations',
  tags,
  summary: 'Reservations of the fleet system with an external booking id',
  query: s.ReservationsQuery,
  ok: s.Reservations,
  errors: [403, 503],
  description: own,
});
export const createReservation = route({
  method: 'post',
  path: '/fleetsys/reservations',
  operationId: 'createFleetReservation',
  tags,
  summary: 'Create a reservation in the fleet system',
  body: s.CreateReservationBody,
  ok: s.Reservation,
  status: 201,
  errors: [403, 503],
  description: `${own} \`totalAmount\` in dollars. The fleet system's refusal answers 400 \`fleetsys_refused\` with its reason.`,
});
export const updateReservation = route({
  method: 'put',
  path: '/fleetsys/reservations/{reservationId}',
  operationId: 'updateFleetReservation',
  tags,
  summary: 'Update a reservation of the fleet system',
  params: s.ReservationParams,
  body: s.UpdateReservationBody,
  ok: s.Reservation,
  errors: [403, 404, 503],
  description: `${own} 404 when the fleet system does not know the reservation.`,
});
export const cancelReservation = route({
  method: 'put',
  path: '/fleetsys/reservations/{reservationId}/cancel',
  operationId: 'cancelFleetReservation',
  tags,
  summary: 'Cancel a reservation of the fleet system',
  params: s.ReservationParams,
  body: s.CustomerBody,
  ok: s.Reservation,
  errors: [403, 404, 503],
  description: own,
});
export const createInvoice = route({
  method: 'post',
  path: '/fleetsys/reservations/{reservationId}/invoice',
  operationId: 'createFleetInvoice',
  tags,
  summary: 'Invoice a reservation in the fleet system',
  params: s.ReservationParams,
  body: s.InvoiceBody,
  ok: s.Invoice,
  status: 201,
  errors: [403, 404, 503],
  description: `${own} \`amount\` in dollars.`,
});
export const syncBooking = route({
  method: 'post',
  path: '/fleetsys/sync-booking',
  operationId: 'syncFleetBooking',
  tags,
  summary: 'Send a booking to the fleet system (a reservation per asset, an invoice on the first)',
  body: s.SyncBody,
  ok: s.SyncResult,
  errors: [403, 404, 409, 503],
  description: `One reservation per assigned asset through the product mapping (the asset's, else its item's; 400 \`fleetsys_mapping_missing\`
otherwise), with \`externalBookingId\` \`{rentalId}:{assetId}\`, and an invoice of the booking's total on the first when the total is above 0.
Idempotent per booking: a repeat answers the same reservations (\`created: false\`) and creates nothing; a concurrent sync of the same booking
answers 409 \`request_in_progress\`. The booking must be at \`locationId\` (400) and not cancelled (409).`,
});
export const getMappings = route({
  method: 'get',
  path: '/fleetsys/product-mappings',
  operationId: 'getFleetProductMappings',
  description: "`customerId` must be the caller's. A mapping with `assetId` wins over the item's own for that asset.",
  tags,
  summary: 'Which fleet product each inventory item (or asset) is',
  query: s.CustomerQuery,
  ok: s.Mappings,
  errors: [403],
});
export const setMappings = route({
  method: 'put',
  path: '/fleetsys/product-mappings',
  operationId: 'setFleetProductMappings',
  tags,
  access: 'admin',
  summary: 'Replace the product mappings',
  body: s.MappingsBody,
  ok: s.Mappings,
  errors: [403],
  description: "Items and assets must be the operator's and products the fleet system's (400 naming each bad entry otherwise).",
});
