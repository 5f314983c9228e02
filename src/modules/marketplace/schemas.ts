import { z } from '@hono/zod-openapi';
import { zEmail, zId, zJsonObject } from '../../lib/openapi';

const ymd = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real date')
    .openapi({ example: '2027-06-01', description: "Local date at the item's location" });
const hhmm = () =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm')
    .openapi({ example: '10:00', description: "Local wall-clock start time at the item's location" });
const optionIdField = () => z.string().trim().min(1).max(160).openapi({ example: 'inv_01J0000000000000000000000:2h' });

export const Ticket = z
  .object({
    ageBand: z.string().trim().min(1).max(64).openapi({ example: 'ADULT', description: 'A fare tier of the tour (name or tierId, case-insensitive)' }),
    quantity: z.number().int().min(1).max(100),
  })
  .openapi('MarketplaceTicket');

// Configuration (operator side)

export const ConfigureBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    supplierId: z.string().trim().min(1).max(100).openapi({ description: "The operator's supplier id at the marketplace" }),
    apiKey: z.string().trim().min(16).max(200).openapi({ description: 'The inbound key the marketplace presents (at least 16 characters); stored as a hash' }),
    outboundApiKey: z
      .string()
      .trim()
      .min(8)
      .max(500)
      .optional()
      .openapi({ description: 'The key Berth calls the marketplace with; stored encrypted, never returned (kept when absent)' }),
    currency: z.string().trim().length(3).toLowerCase().optional().openapi({ description: 'Currency of every price exchanged (default usd)' }),
    isActive: z.boolean().optional().openapi({ description: 'false refuses supplier calls (403) and sends nothing out (default true)' }),
  })
  .openapi('MarketplaceConfigure');

export const Config = z
  .object({
    customerId: z.string(),
    supplierId: z.string(),
    apiKeyLast4: z.string(),
    hasOutboundApiKey: z.boolean(),
    currency: z.string(),
    isActive: z.boolean(),
    holdMinutes: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MarketplaceConfiguration');

// Supplier API

export const EmptyBody = z.object({}).loose().openapi('MarketplaceEmptyRequest');

const Money = z.object({ amount: z.number(), currency: z.string() }).openapi('MarketplaceMoney');

export const TourOption = z
  .object({
    productOptionId: z.string(),
    title: z.string(),
    durationMinutes: z.number().int().nullable(),
    fromPrice: Money.nullable(),
    ageBands: z.array(z.object({ ageBand: z.string(), price: Money, minAge: z.number().nullable(), maxAge: z.number().nullable() })),
  })
  .openapi('MarketplaceTourOption');
export const Tour = z
  .object({
    productCode: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    type: z.enum(['TOUR', 'RENTAL']),
    images: z.array(z.string()),
    location: z.object({ name: z.string(), address: z.string(), timezone: z.string() }),
    capacity: z.number().int(),
    options: z.array(TourOption),
  })
  .openapi('MarketplaceTour');
export const TourList = z.object({ supplierId: z.string(), currency: z.string(), tours: z.array(Tour) }).openapi('MarketplaceTourList');

export const CalendarBody = z
  .object({ productOptionIds: z.array(optionIdField()).min(1).max(20), startDate: ymd(), endDate: ymd() })
  .refine((b) => b.endDate >= b.startDate, { path: ['endDate'], message: 'endDate must not be before startDate' })
  .refine((b) => Date.parse(`${b.endDate}T00:00:00Z`) - Date.parse(`${b.startDate}T00:00:00Z`) <= 30 * 86_400_000, {
    path: ['endDate'],
    message: 'at most 31 days per request',
  })
  .openapi('MarketplaceCalendarRequest');

const StartTimeVacancy = z.object({ startTime: z.string(), available: z.boolean(), vacancies: z.number().int() }).openapi('MarketplaceStartTime');
export const CalendarResult = z
  .object({
    currency: z.string(),
    results: z.array(
      z.object({
        productOptionId: z.string(),
        error: z.string().nullable(),
        dates: z.array(z.object({ date: z.string(), available: z.boolean(), startTimes: z.array(StartTimeVacancy) })),
      }),
    ),
  })
  .openapi('MarketplaceCalendar');

export const CheckBody = z
  .object({
    productOptions: z
      .array(
        z.object({
          productOptionId: optionIdField(),
          startTime: hhmm().optional(),
          tickets: z.array(Ticket).max(20).optional(),
          totalTravelers: z.number().int().min(1).max(100).optional(),
        }),
      )
      .min(1)
      .max(10),
    travelDate: ymd(),
  })
  .openapi('MarketplaceCheckRequest');
export const CheckResult = z
  .object({
    travelDate: z.string(),
    currency: z.string(),
    results: z.array(
      z.object({
        productOptionId: z.string(),
        available: z.boolean(),
        error: z.string().nullable(),
        startTimes: z.array(StartTimeVacancy.extend({ totalPrice: Money.nullable() })),
      }),
    ),
  })
  .openapi('MarketplaceCheck');

export const ReserveBody = z
  .object({
    productOptionId: optionIdField(),
    travelDate: ymd(),
    startTime: hhmm().optional(),
    tickets: z.array(Ticket).max(20).optional(),
    totalTravelers: z.number().int().min(1).max(100).optional(),
  })
  .openapi('MarketplaceReserveRequest');
export const Reservation = z
  .object({
    reservationReference: z.string(),
    status: z.enum(['RESERVED', 'CONFIRMED', 'RELEASED', 'EXPIRED', 'CANCELLED', 'CONFIRMING']),
    productOptionId: z.string(),
    travelDate: z.string(),
    startTime: z.string(),
    startTimeUtc: z.string(),
    endTimeUtc: z.string(),
    totalTravelers: z.number().int(),
    price: Money,
    expiresAt: z.string().openapi({ description: 'The hold (price and inventory) lasts until then: 20 minutes' }),
    holdMinutes: z.number().int(),
  })
  .openapi('MarketplaceReservation');

const Traveler = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: zEmail().optional(),
    phone: z.string().trim().max(32).optional(),
    leadTraveler: z.boolean().optional(),
  })
  .openapi('MarketplaceTraveler');

export const BookingBody = z
  .object({
    reservationReference: z.string().trim().min(1).max(64),
    bookingRef: z.string().trim().min(1).max(100).openapi({ description: "The marketplace's booking reference (idempotency: the same ref confirms once)" }),
    travelers: z.array(Traveler).min(1).max(100),
    contact: z.object({ email: zEmail().optional(), phone: z.string().trim().max(32).optional() }).optional(),
    notes: z.string().max(2000).optional(),
  })
  .openapi('MarketplaceBookingRequest');

export const Outcome = z
  .object({
    status: z.enum(['CONFIRMED', 'REJECTED']),
    bookingRef: z.string().nullable(),
    reservationReference: z.string().nullable(),
    supplierConfirmationNumber: z.string().nullable().openapi({ description: "Berth's order id (transactionId)" }),
    rentalId: z.string().nullable(),
    rejectionReason: z.string().nullable().openapi({ description: 'Machine code when REJECTED' }),
    rejectionMessage: z.string().nullable(),
    travelDate: z.string().nullable(),
    startTime: z.string().nullable(),
    price: Money.nullable(),
  })
  .openapi('MarketplaceOutcome');

export const CancellationBody = z
  .object({
    bookingRef: z.string().trim().min(1).max(100).optional(),
    reservationReference: z.string().trim().min(1).max(64).optional(),
    cancelReason: z.string().trim().max(500).optional(),
  })
  .refine((b) => b.bookingRef || b.reservationReference, { path: ['bookingRef'], message: 'bookingRef (or reservationReference) is required' })
  .openapi('MarketplaceCancellationRequest');

export const AmendmentBody = z
  .object({
    bookingRef: z.string().trim().min(1).max(100),
    travelDate: ymd(),
    startTime: hhmm().optional(),
    tickets: z.array(Ticket).max(20).optional(),
    totalTravelers: z.number().int().min(1).max(100).optional(),
  })
  .openapi('MarketplaceAmendmentRequest');

export const SpecialOffers = z.object({ offers: z.array(zJsonObject()) }).openapi('MarketplaceSpecialOffers');

export const ApiBody = z
  .object({
    requestType: z.string().trim().min(1).max(64).openapi({ example: 'AvailabilityCheckRequest' }),
    data: zJsonObject().openapi({ description: 'The request of that type, plus `ApiKey` (the marketplace key)' }),
  })
  .openapi('MarketplaceApiRequest');
export const ApiResult = z.object({ requestType: z.string(), data: z.unknown() }).openapi('MarketplaceApiResponse');
