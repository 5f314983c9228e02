import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { isoDate } from '../../lib/time';
import { RATE_TYPES } from '../marina-settings/service';
import { BoatInputSchema, RenterInputSchema } from '../slip-reservations/service';
import { UNIT_TYPES } from '../slips/service';
import { PublicJoinBody, PublicJoinResult } from '../slip-waitlist/service';
import { docType, expiresOn } from '../slip-documents/service';

const id = () => z.string().trim().min(1).max(128);
const date = () => z.string().regex(isoDate, 'must be a date YYYY-MM-DD');
const ft = () => z.coerce.number().finite().positive().max(500);

const PerFoot = z.object({ nightly: z.number().int(), monthly: z.number().int(), seasonal: z.number().int(), annual: z.number().int() });

export const PublicSlip = z
  .object({
    id: z.string(),
    locationId: z.string(),
    unitNumber: z.string(),
    name: z.string().nullable(),
    section: z.string().nullable(),
    unitType: z.enum(UNIT_TYPES),
    bookable: z.boolean().openapi({ description: 'false when the unit is under maintenance or out of service.' }),
    lengthFt: z.number().nullable(),
    maxLoaFt: z.number().nullable(),
    widthFt: z.number().nullable(),
    depthFt: z.number().nullable(),
    overheadClearanceFt: z.number().nullable(),
    power: z.object({ amps: z.array(z.number()), volts: z.number().nullable(), phase: z.string().nullable() }).nullable(),
    water: z.boolean(),
    amenities: z.array(z.string()),
    ratesPerFootCents: PerFoot.openapi({ description: "The unit's rate per foot of billable length (max of the boat's LOA and the unit's length), in cents." }),
    mapPosition: z.object({ mapId: z.string(), x: z.number(), y: z.number(), rotation: z.number().nullable() }).nullable(),
  })
  .openapi('PublicSlip');

export const PublicSlipList = z
  .object({ locationId: z.string(), data: z.array(PublicSlip), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('PublicSlipList');

export const PublicSlipDetail = PublicSlip.extend({
  location: z.object({ id: z.string(), name: z.string(), timezone: z.string(), currency: z.string() }),
}).openapi('PublicSlipDetail');

const Pin = z.object({
  slipId: z.string(),
  unitNumber: z.string(),
  name: z.string().nullable(),
  section: z.string().nullable(),
  unitType: z.string(),
  bookable: z.boolean(),
  x: z.number(),
  y: z.number(),
  rotation: z.number().nullable(),
});
export const PublicMaps = z
  .object({
    locationId: z.string(),
    data: z.array(
      z.object({
        mapId: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        imageUrl: z.string().nullable(),
        imageWidth: z.number().nullable(),
        imageHeight: z.number().nullable(),
        displayOrder: z.number().int(),
        pins: z.array(Pin),
      }),
    ),
  })
  .openapi('PublicMarinaMaps');

export const Availability = z
  .object({
    slipId: z.string(),
    unitNumber: z.string(),
    arrivalDate: z.string(),
    departureDate: z.string(),
    nights: z.number().int(),
    available: z.boolean().openapi({ description: 'Open, free for every night and (with boat dimensions) the boat fits.' }),
    open: z.boolean(),
    free: z.boolean(),
    fits: z.boolean().nullable().openapi({ description: 'null without boat dimensions.' }),
    fit: z.array(z.object({ dimension: z.string(), requiredFt: z.number(), availableFt: z.number(), shortByFt: z.number(), message: z.string() })),
    blocked: z
      .array(z.object({ from: z.string(), to: z.string() }))
      .openapi({ description: 'Nights already taken within the range ([from, to)); who holds them is not shown.' }),
  })
  .openapi('PublicSlipAvailability');

export const Price = z
  .object({
    slipId: z.string(),
    rateType: z.enum(RATE_TYPES),
    arrivalDate: z.string(),
    departureDate: z.string(),
    nights: z.number().int(),
    currency: z.string(),
    lines: z.array(z.object({ kind: z.string(), description: z.string(), quantity: z.number(), amountCents: z.number().int() })),
    baseCents: z.number().int(),
    feesCents: z.number().int(),
    utilitiesCents: z.number().int(),
    taxCents: z.number().int(),
    totalCents: z.number().int(),
    depositCents: z.number().int(),
    dueAtBookingCents: z
      .number()
      .int()
      .openapi({ description: 'What POST /public/slips/book charges: the deposit, else the total when no approval is needed, else 0.' }),
    approvalRequired: z.boolean(),
    fits: z.boolean(),
    fit: z.array(z.object({ dimension: z.string(), requiredFt: z.number(), availableFt: z.number(), shortByFt: z.number(), message: z.string() })),
  })
  .openapi('PublicSlipPrice');

export const Requirement = z.object({ type: z.string(), status: z.string(), documentId: z.string().nullable(), expiresOn: z.string().nullable() });
export const PublicDocument = z.object({
  id: z.string(),
  type: z.string(),
  status: z.string(),
  fileName: z.string().nullable(),
  expiresOn: z.string().nullable(),
  reviewNote: z.string().nullable(),
  createdAt: z.string(),
});
export const PublicDocuments = z
  .object({ reservationId: z.string(), requirements: z.array(Requirement), documents: z.array(PublicDocument), complete: z.boolean() })
  .openapi('PublicSlipReservationDocuments');

export const Booking = z
  .object({
    reservation: z.object({
      id: z.string(),
      reservationNumber: z.string(),
      status: z.string().openapi({ description: '`pending` when the location approves bookings, else `confirmed`.' }),
      slipId: z.string(),
      unitNumber: z.string(),
      rateType: z.string(),
      arrivalDate: z.string(),
      departureDate: z.string(),
      nights: z.number().int(),
      totalCents: z.number().int(),
      depositCents: z.number().int(),
      amountPaidCents: z.number().int(),
      balanceCents: z.number().int(),
      currency: z.string(),
    }),
    bookingToken: z.string().openapi({ description: 'Shown once: the credential of the document endpoints of this reservation (`X-Booking-Token` header).' }),
    payment: z.object({ chargedCents: z.number().int(), status: z.enum(['succeeded', 'none']) }),
    documents: PublicDocuments,
  })
  .openapi('PublicSlipBooking');

export const Announced = z
  .object({
    document: z.object({ id: z.string(), type: z.string(), status: z.string(), expiresOn: z.string().nullable(), createdAt: z.string() }),
    upload: z.object({
      method: z.literal('PUT'),
      url: z.string().openapi({ description: 'PUT the file bytes here (no credentials; the URL carries a one-time token).' }),
      expiresAt: z.string(),
      maxBytes: z.number().int(),
      headers: z.record(z.string(), z.string()),
    }),
  })
  .openapi('PublicSlipDocumentUpload');
export const Uploaded = z
  .object({ document: z.object({ id: z.string(), type: z.string(), status: z.string(), expiresOn: z.string().nullable(), createdAt: z.string() }) })
  .openapi('PublicSlipDocumentUploaded');

export const LocationInfo = z
  .object({
    location: z.object({
      id: z.string(),
      name: z.string(),
      address: z.string().nullable(),
      phoneNumber: z.string().nullable(),
      timezone: z.string(),
      currency: z.string(),
      coordinates: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    }),
    booking: z.object({
      publicBookingEnabled: z.boolean(),
      approvalRequired: z.boolean(),
      rateTypes: z.array(z.enum(RATE_TYPES)),
      deposit: z.object({ policy: z.string(), amountCents: z.number().int(), percent: z.number() }),
      requiredDocuments: z.array(z.string()),
      checkInTime: z.string(),
      checkOutTime: z.string(),
      cancellationPolicy: z.string().nullable(),
      ratesPerFootCents: PerFoot,
      taxRatePercent: z.number(),
      fees: z.array(z.object({ name: z.string(), amountCents: z.number().int(), per: z.string(), taxable: z.boolean() })),
      clearances: z.object({ overhangAllowanceFt: z.number(), sideClearanceFt: z.number(), underKeelClearanceFt: z.number() }),
    }),
    units: z.object({ total: z.number().int(), bookable: z.number().int(), byType: z.record(z.string(), z.number().int()) }),
  })
  .openapi('PublicSlipLocation');

// ---------------------------------------------------------------------------------------------
// Inputs

export const LocationParams = z.object({ locationId: id() });
export const SlipParams = z.object({ slipId: id() });
export const ReservationParams = z.object({ reservationId: id() });
export const UploadParams = z.object({ documentId: id() });
export const UploadQuery = z.object({ token: z.string().trim().min(10).max(200).optional() });
export const ListQuery = z.object({
  unitType: z.enum(UNIT_TYPES).optional(),
  section: z.string().trim().min(1).max(60).optional(),
  minLoaFt: ft().optional().openapi({ description: 'Units that take a boat of at least this length.' }),
  limit: zLimit(500, 100),
  offset: zOffset(),
});

export const AvailabilityQuery = z.object({
  arrivalDate: date(),
  departureDate: date(),
  loaFt: ft().optional(),
  beamFt: ft().optional(),
  draftFt: ft().optional(),
  airDraftFt: ft().optional(),
});

export const PriceBody = z
  .object({
    slipId: id(),
    rateType: z.enum(RATE_TYPES).default('nightly'),
    arrivalDate: date(),
    departureDate: date(),
    boat: z
      .object({
        loaFt: z.number().finite().positive().max(500),
        beamFt: z.number().finite().positive().max(500).optional(),
        draftFt: z.number().finite().positive().max(500).optional(),
        airDraftFt: z.number().finite().positive().max(500).optional(),
      })
      .strict(),
  })
  .strict()
  .openapi('PublicSlipPriceRequest');

export const BookBody = z
  .object({
    slipId: id(),
    rateType: z.enum(RATE_TYPES).default('nightly'),
    arrivalDate: date(),
    departureDate: date().openapi({ description: 'The day the boat leaves (nights = departure − arrival).' }),
    boat: BoatInputSchema,
    renter: RenterInputSchema,
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({
      description: 'A card tokenized by the payment page (test tokens: pm_card_visa, pm_card_chargeDeclined): required when something is due at booking.',
    }),
    notes: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi('PublicSlipBookingRequest');

export const AnnounceBody = z
  .object({
    type: docType(),
    fileName: z.string().trim().min(1).max(200),
    contentType: z.enum(['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic']),
    sizeBytes: z
      .number()
      .int()
      .min(1)
      .max(10 * 1024 * 1024),
    expiresOn: expiresOn(),
    notes: z.string().trim().max(1000).optional(),
  })
  .strict()
  .openapi('PublicSlipDocumentMetadata');

export { PublicJoinBody as JoinBody, PublicJoinResult as JoinResult };
