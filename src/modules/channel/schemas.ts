import { z } from '@hono/zod-openapi';
import { InventoryData } from '../inventory/types';

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
    rentalId: z.string().openapi({ description: "The operator's rental (booking line) id; `bookingId` is the order id" }),
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

const mode = () => z.enum(['live', 'test']);
const rate = () => z.number().openapi({ description: 'Commission in percent of the pre-tax price' });

export const ChannelIdentity = z
  .object({
    mode: mode(),
    connection: z
      .object({
        connectionId: z.string(),
        channelName: z.string(),
        merchantId: z.string(),
        commissionRate: rate(),
        offerAllInventory: z.boolean(),
        status: z.enum(['active', 'paused', 'removed']),
        sandbox: z.boolean(),
      })
      .optional()
      .openapi({ description: 'Single-operator keys: their connection (test keys: the sandbox connection)' }),
    channel: z
      .object({
        slug: z.string(),
        name: z.string(),
        merchants: z.array(
          z.object({
            merchantId: z.string(),
            merchantName: z.string().optional(),
            commissionRate: rate(),
            offerAllInventory: z.boolean(),
            status: z.enum(['active', 'paused', 'removed']),
            sandbox: z.boolean().optional(),
          }),
        ),
      })
      .optional()
      .openapi({ description: "Platform keys: the channel and one entry per connected operator (test keys: the key holder's sandbox operator)" }),
  })
  .openapi('ChannelIdentity');

const HourlyRate = z.object({
  basePrice: z.number(),
  minimumHours: z.number().optional(),
  maximumHours: z.number().optional(),
  multiHourDiscounts: z.array(z.object({ hours: z.number(), discountPercentage: z.number() })).optional(),
});

export const ChannelProduct = z
  .object({
    productId: z.string(),
    type: z.enum(['tour', 'rental']),
    name: z.string(),
    description: z.string().nullable(),
    category: z.string().nullable(),
    images: z.array(z.string()),
    merchantId: z.string(),
    merchantName: z.string(),
    connectionId: z.string(),
    locationId: z.string(),
    location: z.object({ name: z.string(), address: z.string(), timezone: z.string() }).nullable(),
    currency: z.string(),
    capacity: z.number(),
    seasons: z
      .array(
        z.object({
          name: z.string(),
          startDate: z.string().nullable(),
          endDate: z.string().nullable(),
          dailyPrices: z.record(z.string(), z.number()).openapi({ description: 'Full-day rate by weekday' }),
          hourlyPrices: z.record(z.string(), HourlyRate).openapi({ description: 'Hourly rule by weekday' }),
        }),
      )
      .openapi({ description: 'Rentals: the price seasons (empty for tours)' }),
    startingPrice: z.number().nullable().openapi({ description: 'The lowest hourly (else daily) rate, or the standard adult fare; null when no price is set' }),
    priceUnit: z.enum(['hr', 'day', 'person', 'charter']).nullable(),
    taxes: z.array(z.object({ name: z.string(), rate: z.number() })),
    totalTaxRate: z.number().openapi({ description: 'Sum of the tax rates, in percent' }),
    tourPricing: InventoryData.shape.tourPricing,
    addons: z.array(z.object({ addonId: z.string(), name: z.string(), price: z.number(), priceType: z.string() })),
  })
  .openapi('ChannelProduct');

const SettlementTotals = z.object({ bookings: z.number().int(), grossSales: z.number(), commission: z.number(), amountOwed: z.number() });

export const Settlement = z
  .object({
    month: z.string().openapi({ example: '2026-07' }),
    currency: z.string(),
    operators: z.array(
      z.object({
        merchantId: z.string(),
        merchantName: z.string(),
        connectionId: z.string(),
        currency: z.string(),
        test: z.boolean().openapi({ description: "True for a sandbox's test bookings (a test key's settlement): no money moves" }),
        bookings: z.number().int(),
        grossSales: z.number().openapi({ description: 'Tax-inclusive totals, decimal amount' }),
        commission: z.number(),
        amountOwed: z.number().openapi({ description: 'grossSales - commission' }),
      }),
    ),
    totals: SettlementTotals.openapi({ description: 'Live bookings (zero for a test key)' }),
    testTotals: SettlementTotals.optional().openapi({
      description: "A test key's settlement: the sums of its sandbox's test bookings (the lines marked `test`)",
    }),
  })
  .openapi('ChannelSettlement');

export const SandboxReset = z
  .object({
    reset: z.literal(true),
    deletedBookings: z.number().int().openapi({ description: "The key's test bookings deleted" }),
    merchantId: z.string().openapi({ description: 'The sandbox operator the key sells' }),
    reseeded: z.boolean().openapi({ description: "true when that operator is the key holder's private sandbox, purged and seeded again" }),
  })
  .openapi('ChannelSandboxReset');

export const PortalChannel = z
  .object({
    channelId: z.string(),
    slug: z.string(),
    name: z.string(),
    contactEmail: z.string(),
    status: z.enum(['active', 'paused']),
    webhookUrl: z.string().nullable(),
    webhookEvents: z.array(z.string()),
    partnerAccountId: z
      .string()
      .nullable()
      .openapi({ description: 'The partner account that owns the channel (`ptn_...`): its partner token (GET /partners/me) also opens this portal' }),
    createdAt: z.string(),
  })
  .openapi('PortalChannelRecord');

export const PortalChannelWithMerchants = PortalChannel.extend({
  merchants: z.array(
    z.object({
      merchantId: z.string(),
      merchantName: z.string(),
      connectionId: z.string(),
      commissionRate: rate(),
      offerAllInventory: z.boolean(),
      offeredItemIds: z.array(z.string()),
      status: z.enum(['active', 'paused', 'removed']),
    }),
  ),
}).openapi('PortalChannel');

export const Registration = PortalChannel.extend({
  portalToken: z.string().openapi({ description: 'Partner-portal token (`rtp_...`); shown only in this response' }),
  keys: z
    .object({ live: z.string(), test: z.string() })
    .openapi({ description: 'Platform keys (`rtc_live_...`, `rtc_test_...`); shown only in this response' }),
  partnerToken: z.string().nullable().openapi({
    description: 'A partner token (`bpt_...`) of the partner account created for `contactEmail`; null when the channel was registered with a partner token',
  }),
}).openapi('ChannelRegistration');

export const RotatedKey = z
  .object({ mode: mode(), key: z.string().openapi({ description: 'The new platform key; shown only in this response' }), revoked: z.number().int() })
  .openapi('RotatedPlatformKey');

export const WebhookSet = z
  .object({ url: z.string(), events: z.array(z.string()), secret: z.string().openapi({ description: 'Signing secret; shown only in this response' }) })
  .openapi('PortalWebhook');
