import { z } from '@hono/zod-openapi';

const isoOffset = () => z.string().datetime({ offset: true }).openapi({ example: '2026-07-04T10:00:00-04:00', description: 'ISO 8601 with offset' });

export const AvailabilityBody = z
  .object({
    productIds: z.array(z.string().min(1).max(128)).min(1).max(25).openapi({ description: 'At most 25; answered in the same order' }),
    startTime: isoOffset(),
    endTime: isoOffset(),
    quantity: z.number().int().min(1).max(100).default(1).openapi({ description: 'Rentals: units wanted; tours: seats wanted' }),
    locationId: z.string().min(1).max(128).optional().openapi({ description: "Only products at this location; default each product's own location" }),
  })
  .openapi('ChannelAvailabilityRequest');

export const AvailabilityLine = z
  .object({
    productId: z.string(),
    available: z.boolean(),
    unitsFree: z.number().nullable().openapi({ description: 'Free units for rentals; null for tours (seat-based): trust `available`' }),
    seatsFree: z.number().optional(),
    error: z.literal('unknown_product').optional(),
    reason: z.string().optional(),
  })
  .openapi('ChannelAvailabilityLine');

export const Guest = z.object({
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  email: z.string().trim().toLowerCase().email().max(254),
  phone: z.string().trim().max(32).optional(),
});

export const CreateBookingBody = z
  .object({
    productId: z.string().min(1).max(128),
    startTime: isoOffset(),
    endTime: isoOffset().optional().openapi({ description: "Required for rentals; a tour takes its departure's end" }),
    quantity: z.number().int().min(1).max(100).openapi({ description: 'Rentals: units; tours: guests (standard fare unless `tickets` is given)' }),
    tickets: z.record(z.string().min(1).max(64), z.number().int().min(0).max(1000)).optional().openapi({ description: 'Tours: tickets per fare tier' }),
    totalPrice: z.number().min(0).max(10_000_000).openapi({ description: 'Tax-inclusive price the guest paid, in decimal units of the currency' }),
    reference: z.string().trim().min(1).max(100).openapi({ description: "The reseller's own booking reference" }),
    guest: Guest.optional().openapi({ description: "The guest, for the operator's manifest; without it the booking is filed under a guest of the channel" }),
    notes: z.string().max(2000).optional(),
  })
  .openapi('ChannelBookingRequest');

export const ChannelBooking = z
  .object({
    bookingId: z.string(),
    status: z.string(),
    mode: z.enum(['live', 'test']),
    productId: z.string(),
    merchantId: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    quantity: z.number(),
    totalPrice: z.number(),
    currency: z.string(),
    reference: z.string().nullable(),
    commissionRate: z.number().nullable(),
    createdAt: z.string(),
    cancelledAt: z.string().nullable(),
    idempotentReplay: z.boolean().optional(),
    alreadyCancelled: z.boolean().optional(),
  })
  .openapi('ChannelBooking');

export const BookingIdParam = z.object({ bookingId: z.string().min(1).max(128) });
export const FindQuery = z.object({ reference: z.string().min(1).max(100).openapi({ description: "Find a booking by the reseller's reference" }) });
export const IdempotencyHeader = z.object({ 'idempotency-key': z.string().min(1).max(255).optional() });
export const MonthQuery = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM') });

export const RegisterBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9-]{1,48}$/, 'lowercase letters, digits and dashes'),
    contactEmail: z.string().trim().toLowerCase().email().max(254),
    /** Password of the partner account created for the channel (when the call carries no partner token); without one, set it later by password reset. */
    password: z.string().min(10).max(200).optional(),
  })
  .openapi('RegisterChannel');
export const RotateBody = z.object({ mode: z.enum(['live', 'test']).default('live') });
export const WebhookBody = z
  .object({
    url: z.string().url().max(2048),
    events: z
      .array(z.enum(['booking.created', 'booking.cancelled', 'booking.rescheduled']))
      .min(1)
      .max(3)
      .optional(),
  })
  .openapi('ChannelWebhook');
