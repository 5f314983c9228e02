import { z } from '@hono/zod-openapi';

// ------------------------------------------------------------------------------------------------
// Requests (OCTO's field names; what OCTO leaves open is checked in the service so that it answers
// OCTO's own codes: a missing unit item is UNPROCESSABLE_ENTITY, an unknown product INVALID_PRODUCT_ID).

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const localDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');
const id = () => z.string().trim().min(1).max(128);
const text = (max: number) => z.string().max(max);
const nullableText = (max: number) => z.string().max(max).nullable().optional();

export const BookingContactInput = z
  .object({
    fullName: nullableText(200),
    firstName: nullableText(100),
    lastName: nullableText(100),
    emailAddress: z.string().trim().toLowerCase().email().max(254).nullable().optional(),
    phoneNumber: nullableText(40),
    locales: z.array(text(35)).max(10).optional(),
    postalCode: nullableText(20),
    country: nullableText(2).openapi({ description: 'ISO 3166-1 alpha-2' }),
    notes: nullableText(2000),
    allowMarketing: z.boolean().optional(),
  })
  .openapi('OctoBookingContact');

export const UnitItemInput = z
  .object({
    uuid: z.string().regex(UUID, 'must be a UUID').optional(),
    unitId: id(),
    resellerReference: text(100).optional(),
    contact: BookingContactInput.optional(),
  })
  .openapi('OctoBookingUnitItem');

const unitItems = () => z.array(UnitItemInput).max(100);
const AvailabilityUnit = z.object({ id: id(), quantity: z.number().int().min(0).max(100) });

export const AvailabilityCheckBody = z
  .object({
    productId: id(),
    optionId: id(),
    localDate: localDate().optional(),
    localDateStart: localDate().optional(),
    localDateEnd: localDate().optional(),
    availabilityIds: z.array(text(64)).min(1).max(100).optional(),
    units: z.array(AvailabilityUnit).max(20).optional().openapi({ description: 'Units wanted: availability is checked for them' }),
    currency: z.string().length(3).nullable().optional(),
  })
  .openapi('OctoAvailabilityCheckBody');

export const AvailabilityCalendarBody = z
  .object({
    productId: id(),
    optionId: id(),
    localDateStart: localDate(),
    localDateEnd: localDate(),
    units: z.array(AvailabilityUnit).max(20).optional(),
    currency: z.string().length(3).nullable().optional(),
  })
  .openapi('OctoAvailabilityCalendarBody');

export const ReservationBody = z
  .object({
    uuid: z.string().regex(UUID, 'must be a UUID').optional().openapi({ description: 'Your booking uuid (the idempotency key); generated when absent' }),
    productId: id(),
    optionId: id(),
    availabilityId: text(64).optional(),
    expirationMinutes: z.number().int().min(1).max(100_000).optional(),
    notes: nullableText(2000),
    unitItems: unitItems().optional(),
    resellerReference: text(100).optional(),
    contact: BookingContactInput.optional(),
    currency: z.string().length(3).nullable().optional(),
  })
  .openapi('OctoBookingReservationBody');

export const ExtendBody = z.object({ expirationMinutes: z.number().int().min(1).max(100_000).optional() }).openapi('OctoExtendReservationBody');

export const ConfirmBody = z
  .object({
    contact: BookingContactInput.optional(),
    resellerReference: text(100).optional(),
    unitItems: unitItems().optional(),
    emailReceipt: z.boolean().optional(),
    notes: nullableText(2000),
  })
  .openapi('OctoBookingConfirmationBody');

export const UpdateBody = z
  .object({
    resellerReference: text(100).optional(),
    productId: id().optional(),
    optionId: id().optional(),
    availabilityId: text(64).optional(),
    expirationMinutes: z.number().int().min(1).max(100_000).optional(),
    notes: nullableText(2000),
    emailReceipt: z.boolean().optional(),
    unitItems: unitItems().optional(),
    contact: BookingContactInput.optional(),
  })
  .openapi('OctoBookingUpdateBody');

export const CancelBody = z
  .object({ reason: nullableText(500), force: z.boolean().optional().openapi({ description: 'Not honoured for resellers: the policy always applies' }) })
  .openapi('OctoBookingCancellationBody');

export const ListQuery = z.object({
  resellerReference: text(100).optional(),
  supplierReference: text(100).optional(),
  localDate: localDate().optional(),
  localDateStart: localDate().optional(),
  localDateEnd: localDate().optional(),
});

export const ProductParam = z.object({ productId: id() });
export const UuidParam = z.object({ uuid: id() });

export const SettingsBody = z
  .object({
    cancellationCutoffHours: z
      .number()
      .int()
      .min(0)
      .max(720)
      .openapi({ description: 'Hours before the start until which a confirmed OCTO booking can be cancelled' }),
  })
  .openapi('OctoSettingsInput');

// ------------------------------------------------------------------------------------------------
// Responses (OCTO's shapes; `views.ts` types them against the published `@octocloud/types`).

const Tax = z.object({ name: z.string(), retail: z.number().int(), original: z.number().int(), net: z.number().int().nullable() });
export const Pricing = z
  .object({
    original: z.number().int(),
    retail: z.number().int(),
    net: z.number().int().nullable(),
    currency: z.string(),
    currencyPrecision: z.number().int(),
    includedTaxes: z.array(Tax),
  })
  .openapi('OctoPricing');
export const PricingUnit = Pricing.extend({ unitId: z.string() }).openapi('OctoPricingUnit');
const OpeningHours = z.object({ from: z.string(), to: z.string() });

const Media = z.object({
  src: z.string(),
  type: z.string(),
  rel: z.string(),
  title: z.string().nullable(),
  caption: z.string().nullable(),
  copyright: z.string().nullable(),
});
const PostalAddress = z.object({
  streetAddress: z.string().nullable(),
  addressLocality: z.string().nullable(),
  addressRegion: z.string().nullable(),
  postalCode: z.string().nullable(),
  addressCountry: z.string().nullable(),
  postOfficeBoxNumber: z.string().nullable(),
});
const Location = z.object({
  title: z.string().nullable(),
  shortDescription: z.string().nullable(),
  types: z.array(z.string()),
  minutesTo: z.number().int().nullable(),
  minutesAt: z.number().int().nullable(),
  place: z.object({
    latitude: z.number(),
    longitude: z.number(),
    postalAddress: PostalAddress,
    identifiers: z.object(
      Object.fromEntries(
        ['googlePlaceId', 'applePlaceId', 'tripadvisorLocationId', 'yelpPlaceId', 'facebookPlaceId', 'foursquarePlaceId', 'baiduPlaceId', 'amapPlaceId'].map(
          (k) => [k, z.string().nullable()],
        ),
      ),
    ),
    sameAs: z.array(z.string()),
  }),
});
const Content = {
  title: z.string().optional(),
  shortDescription: z.string().nullable().optional(),
  features: z.array(z.object({ shortDescription: z.string().nullable(), type: z.string() })).optional(),
  faqs: z.array(z.object({ question: z.string(), answer: z.string() })).optional(),
  media: z.array(Media).optional(),
  locations: z.array(Location).optional(),
  categoryLabels: z.array(z.string()).optional(),
  durationMinutesFrom: z.number().int().optional(),
  durationMinutesTo: z.number().int().nullable().optional(),
  commentary: z.array(z.object({ format: z.string(), value: z.string() })).optional(),
};

export const Unit = z
  .object({
    id: z.string(),
    internalName: z.string(),
    reference: z.string().nullable(),
    type: z.enum(['ADULT', 'YOUTH', 'CHILD', 'INFANT', 'FAMILY', 'SENIOR', 'STUDENT', 'MILITARY', 'OTHER']),
    restrictions: z.object({
      minAge: z.number().int(),
      maxAge: z.number().int(),
      idRequired: z.boolean(),
      minQuantity: z.number().int().nullable(),
      maxQuantity: z.number().int().nullable(),
      paxCount: z.number().int(),
      accompaniedBy: z.array(z.string()),
    }),
    requiredContactFields: z.array(z.string()),
    pricingFrom: z.array(Pricing).optional(),
    title: z.string().nullable().optional(),
    shortDescription: z.string().optional(),
    features: Content.features,
  })
  .openapi('OctoUnit');

export const Option = z
  .object({
    id: z.string(),
    default: z.boolean(),
    internalName: z.string(),
    reference: z.string().nullable(),
    availabilityLocalStartTimes: z.array(z.string()),
    cancellationCutoff: z.string(),
    cancellationCutoffAmount: z.number().int(),
    cancellationCutoffUnit: z.enum(['minute', 'hour', 'day']),
    requiredContactFields: z.array(z.string()),
    restrictions: z.object({ minUnits: z.number().int().nullable(), maxUnits: z.number().int().nullable() }),
    units: z.array(Unit),
    pricingFrom: z.array(Pricing).optional(),
    ...Content,
  })
  .openapi('OctoOption');

export const Product = z
  .object({
    id: z.string(),
    internalName: z.string(),
    reference: z.string().nullable(),
    locale: z.string(),
    timeZone: z.string(),
    allowFreesale: z.boolean(),
    instantConfirmation: z.boolean(),
    instantDelivery: z.boolean(),
    availabilityRequired: z.boolean(),
    availabilityType: z.enum(['START_TIME', 'OPENING_HOURS']),
    deliveryFormats: z.array(z.enum(['PDF_URL', 'QRCODE', 'CODE128', 'PKPASS_URL', 'AZTECCODE'])),
    deliveryMethods: z.array(z.enum(['VOUCHER', 'TICKET'])),
    redemptionMethod: z.enum(['DIGITAL', 'PRINT', 'MANIFEST']),
    options: z.array(Option),
    defaultCurrency: z.string().optional(),
    availableCurrencies: z.array(z.string()).optional(),
    pricingPer: z.enum(['BOOKING', 'UNIT']).optional(),
    ...Content,
  })
  .openapi('OctoProduct');

export const Supplier = z
  .object({
    id: z.string(),
    name: z.string(),
    endpoint: z.string(),
    contact: z.object({ website: z.string().nullable(), email: z.string().nullable(), telephone: z.string().nullable(), address: z.string().nullable() }),
    shortDescription: z.string().nullable().optional(),
    media: z.array(Media).optional(),
  })
  .openapi('OctoSupplier');

export const Capability = z
  .object({ id: z.string(), revision: z.number().int(), required: z.boolean(), dependencies: z.array(z.string()), docs: z.string().nullable() })
  .openapi('OctoCapability');

const AvailabilityStatus = z.enum(['AVAILABLE', 'FREESALE', 'SOLD_OUT', 'LIMITED', 'CLOSED']);
export const Availability = z
  .object({
    id: z.string(),
    localDateTimeStart: z.string(),
    localDateTimeEnd: z.string(),
    utcCutoffAt: z.string(),
    allDay: z.boolean(),
    available: z.boolean(),
    status: AvailabilityStatus,
    vacancies: z.number().int().nullable(),
    capacity: z.number().int().nullable(),
    maxUnits: z.number().int().nullable(),
    openingHours: z.array(OpeningHours),
    unitPricing: z.array(PricingUnit).optional(),
    pricing: Pricing.optional(),
    title: z.string().nullable().optional(),
    shortDescription: z.string().optional(),
  })
  .openapi('OctoAvailability');

export const AvailabilityCalendarDay = z
  .object({
    localDate: z.string(),
    available: z.boolean(),
    status: AvailabilityStatus,
    vacancies: z.number().int().nullable(),
    capacity: z.number().int().nullable(),
    openingHours: z.array(OpeningHours),
    unitPricingFrom: z.array(PricingUnit).optional(),
    pricingFrom: Pricing.optional(),
  })
  .openapi('OctoAvailabilityCalendar');

export const Contact = z
  .object({
    fullName: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    emailAddress: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    locales: z.array(z.string()),
    postalCode: z.string().nullable(),
    country: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .openapi('OctoContact');

const Ticket = z.object({
  redemptionMethod: z.enum(['DIGITAL', 'PRINT', 'MANIFEST']),
  utcRedeemedAt: z.string().nullable(),
  deliveryOptions: z.array(z.object({ deliveryFormat: z.enum(['PDF_URL', 'QRCODE', 'CODE128', 'PKPASS_URL', 'AZTECCODE']), deliveryValue: z.string() })),
});

const BookingStatus = z.enum(['ON_HOLD', 'CONFIRMED', 'EXPIRED', 'CANCELLED', 'REDEEMED', 'PENDING', 'REJECTED']);
export const UnitItem = z
  .object({
    uuid: z.string(),
    resellerReference: z.string().nullable(),
    supplierReference: z.string().nullable(),
    unitId: z.string(),
    status: BookingStatus,
    utcRedeemedAt: z.string().nullable(),
    contact: Contact,
    ticket: Ticket.nullable(),
    pricing: Pricing.optional(),
  })
  .openapi('OctoUnitItem');

export const Booking = z
  .object({
    id: z.string(),
    uuid: z.string(),
    testMode: z.boolean(),
    resellerReference: z.string().nullable(),
    supplierReference: z.string().nullable(),
    status: BookingStatus,
    utcCreatedAt: z.string(),
    utcUpdatedAt: z.string(),
    utcExpiresAt: z.string().nullable(),
    utcRedeemedAt: z.string().nullable(),
    utcConfirmedAt: z.string().nullable(),
    productId: z.string(),
    optionId: z.string(),
    cancellable: z.boolean(),
    cancellation: z.object({ refund: z.enum(['FULL', 'PARTIAL', 'NONE']), reason: z.string().nullable(), utcCancelledAt: z.string() }).nullable(),
    freesale: z.boolean(),
    availabilityId: z.string().nullable(),
    availability: Availability.nullable(),
    contact: Contact,
    notes: z.string().nullable(),
    deliveryMethods: z.array(z.enum(['VOUCHER', 'TICKET'])),
    voucher: Ticket.nullable(),
    unitItems: z.array(UnitItem),
    pricing: Pricing.optional(),
  })
  .openapi('OctoBooking');

export const OctoError = z
  .object({
    error: z.string().openapi({ example: 'INVALID_PRODUCT_ID' }),
    errorMessage: z.string(),
    productId: z.string().optional(),
    optionId: z.string().optional(),
    unitId: z.string().optional(),
    availabilityId: z.string().optional(),
    uuid: z.string().optional(),
  })
  .openapi('OctoError');

export const Settings = z
  .object({ customerId: z.string(), cancellationCutoffHours: z.number().int(), updatedAt: z.string().nullable() })
  .openapi('OctoSettings');
