import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';

const customerId = () => zId('cus_01J0000000000000000000000');
const dateTime = () =>
  z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date or date-time')
    .openapi({ example: '2027-06-01T10:00:00-04:00' });

export const CustomerQuery = z.object({ customerId: customerId() });
export const ReservationsQuery = z.object({ customerId: customerId(), externalBookingId: z.string().trim().min(1).max(200) });
export const ReservationParams = z.object({ reservationId: z.string().trim().min(1).max(200) });

export const ConnectBody = z
  .object({
    customerId: customerId(),
    clientId: z.string().trim().min(1).max(200),
    clientSecret: z.string().trim().min(1).max(500),
    tokenUrl: z.string().trim().url().max(500),
    apiBaseUrl: z.string().trim().url().max(500).optional().openapi({ description: "Defaults to the token URL's origin + /api/v1" }),
  })
  .openapi('FleetConnect');

export const CreateReservationBody = z
  .object({
    customerId: customerId(),
    externalBookingId: z.string().trim().min(1).max(200),
    startDate: dateTime(),
    endDate: dateTime(),
    productId: z.string().trim().min(1).max(200),
    customerName: z.string().trim().min(1).max(200),
    customerEmail: zEmail().optional(),
    customerPhone: z.string().trim().max(32).optional(),
    totalAmount: z.number().min(0).max(10_000_000).optional().openapi({ description: 'Dollars' }),
    notes: z.string().max(2000).optional(),
  })
  .openapi('FleetReservationCreate');

export const UpdateReservationBody = z
  .object({
    customerId: customerId(),
    startDate: dateTime().optional(),
    endDate: dateTime().optional(),
    productId: z.string().trim().min(1).max(200).optional(),
    customerName: z.string().trim().min(1).max(200).optional(),
    customerEmail: zEmail().optional(),
    customerPhone: z.string().trim().max(32).optional(),
    totalAmount: z.number().min(0).max(10_000_000).optional(),
    notes: z.string().max(2000).optional(),
    status: z.string().trim().min(1).max(50).optional(),
  })
  .openapi('FleetReservationUpdate');

export const CustomerBody = z.object({ customerId: customerId() }).openapi('FleetCustomerRef');
export const InvoiceBody = z
  .object({
    customerId: customerId(),
    amount: z.number().positive().max(10_000_000).openapi({ description: 'Dollars' }),
    description: z.string().max(500).optional(),
  })
  .openapi('FleetInvoiceCreate');
export const SyncBody = z
  .object({ rentalId: zId('bk_01J0000000000000000000000'), customerId: customerId(), locationId: zId('loc_01J0000000000000000000000') })
  .openapi('FleetSyncBooking');
export const MappingsBody = z
  .object({
    customerId: customerId(),
    mappings: z
      .array(
        z.object({
          inventoryId: z.string().trim().min(1).max(128),
          assetId: z.string().trim().min(1).max(128).nullable().optional().openapi({ description: 'One asset of the item; absent: every asset of it' }),
          productId: z.string().trim().min(1).max(200),
        }),
      )
      .max(1000),
  })
  .openapi('FleetProductMappings');

export const Status = z
  .object({
    customerId: z.string(),
    connected: z.boolean(),
    status: z.enum(['active', 'error', 'not_connected']),
    provider: z.string().nullable(),
    clientId: z.string().nullable(),
    tokenUrl: z.string().nullable(),
    apiBaseUrl: z.string().nullable(),
    productMappings: z.number().int(),
    lastTestedAt: z.string().nullable(),
    lastError: z.string().nullable(),
  })
  .openapi('FleetStatus');

export const InventoryTypes = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) }).openapi('FleetInventoryTypes');
export const Products = z
  .object({ data: z.array(z.object({ id: z.string(), name: z.string(), inventoryTypeId: z.string().nullable() })) })
  .openapi('FleetProducts');

export const Reservation = z
  .object({
    id: z.string(),
    status: z.string(),
    externalBookingId: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    productId: z.string(),
    customerName: z.string(),
    customerEmail: z.string().nullable().optional(),
    customerPhone: z.string().nullable().optional(),
    totalAmount: z.number().nullable().optional(),
    notes: z.string().nullable().optional(),
  })
  .loose()
  .openapi('FleetReservation');
export const Reservations = z.object({ data: z.array(Reservation) }).openapi('FleetReservations');
export const Invoice = z
  .object({ id: z.string(), reservationId: z.string(), amount: z.number(), description: z.string().nullable(), status: z.string() })
  .loose()
  .openapi('FleetInvoice');

export const SyncResult = z
  .object({
    rentalId: z.string(),
    reservations: z.array(z.object({ assetId: z.string().nullable(), productId: z.string(), reservationId: z.string(), created: z.boolean() })),
    invoice: z.object({ invoiceId: z.string(), amount: z.number(), created: z.boolean() }).nullable(),
  })
  .openapi('FleetSyncResult');

export const Mappings = z
  .object({ customerId: z.string(), data: z.array(z.object({ inventoryId: z.string(), assetId: z.string().nullable(), productId: z.string() })) })
  .openapi('FleetProductMappingList');
