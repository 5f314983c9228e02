import { z } from '@hono/zod-openapi';
import { MoneyViewSchema } from '../../lib/money-view';
import { zLimit, zOffset } from '../../lib/openapi';
import { isoDate } from '../../lib/time';
import { RATE_TYPES } from '../marina-settings/service';
import { SlipSchema, UNIT_TYPES } from '../slips/service';
import { RESERVATION_STATUSES } from './types';

const id = () => z.string().trim().min(1).max(128);
const date = () => z.string().regex(isoDate, 'must be a date YYYY-MM-DD');
const ft = () => z.number().finite().positive().max(1000);
const cents = () => z.number().int().min(0).max(100_000_000);

export const ChargeLineIn = z.object({
  name: z.string().trim().min(1).max(100),
  amountCents: cents(),
  per: z.enum(['stay', 'night', 'month', 'foot']).default('stay'),
  taxable: z.boolean().default(true),
});

export const BoatIn = z
  .object({
    vesselName: z.string().trim().min(1).max(120),
    loaFt: ft().openapi({ description: 'Length overall, feet.' }),
    beamFt: ft().nullable().optional(),
    draftFt: ft().nullable().optional(),
    airDraftFt: ft().nullable().optional().openapi({ description: 'Height above the waterline, feet.' }),
    registration: z.string().trim().max(60).nullable().optional(),
    make: z.string().trim().max(60).nullable().optional(),
    model: z.string().trim().max(60).nullable().optional(),
    year: z.number().int().min(1800).max(2100).nullable().optional(),
    vesselType: z.string().trim().max(40).nullable().optional().openapi({ description: 'power, sail, catamaran, ...' }),
  })
  .strict()
  .openapi('SlipBoatInput');

export const Boat = z
  .object({
    vesselName: z.string(),
    loaFt: z.number(),
    beamFt: z.number().nullable(),
    draftFt: z.number().nullable(),
    airDraftFt: z.number().nullable(),
    registration: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    year: z.number().nullable(),
    vesselType: z.string().nullable(),
  })
  .openapi('SlipBoat');

export const RenterIn = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: z.string().trim().toLowerCase().email().max(254),
    phone: z.string().trim().max(32).optional(),
  })
  .strict();

export const FitRefusal = z
  .object({
    dimension: z.enum(['length', 'beam', 'draft', 'air_draft']),
    requiredFt: z.number(),
    availableFt: z.number(),
    shortByFt: z.number(),
    message: z.string(),
  })
  .openapi('SlipFitRefusal');

export const Conflict = z
  .object({
    reservationId: z.string(),
    reservationNumber: z.string().nullable(),
    status: z.string(),
    arrivalDate: z.string(),
    departureDate: z.string(),
    pending: z.boolean().optional(),
  })
  .openapi('SlipConflict');

const Pricing = z.object({
  ratePerFootCents: z.number().int(),
  billableLengthFt: z.number(),
  fees: z.array(ChargeLineIn),
  utilities: z.array(ChargeLineIn),
  taxRatePercent: z.number(),
  discountCents: z.number().int(),
  lines: z.array(z.object({ kind: z.string(), description: z.string(), quantity: z.number(), amountCents: z.number().int() })),
});

export const Payment = z
  .object({
    id: z.string(),
    reservationId: z.string(),
    kind: z.enum(['payment', 'refund']),
    method: z.string(),
    amountCents: z.number().int(),
    refundedCents: z.number().int(),
    refundableCents: z.number().int(),
    currency: z.string(),
    paymentIntentId: z.string().nullable(),
    providerRefundId: z.string().nullable(),
    paymentId: z.string().nullable(),
    reference: z.string().nullable(),
    note: z.string().nullable(),
    card: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }).nullable(),
    recordedBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('SlipPayment');

export const Message = z
  .object({
    id: z.string(),
    reservationId: z.string(),
    direction: z.enum(['outbound', 'inbound', 'internal']),
    channel: z.enum(['email', 'sms', 'note', 'portal']).openapi({ description: '`portal`: written by the renter in the tenant portal.' }),
    subject: z.string().nullable(),
    body: z.string(),
    sentTo: z.string().nullable(),
    senderId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('SlipReservationMessage');

export const Reservation = z
  .object({
    id: z.string(),
    reservationNumber: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    slipId: z.string(),
    unit: z
      .object({ id: z.string(), unitNumber: z.string(), name: z.string().nullable(), section: z.string().nullable(), unitType: z.enum(UNIT_TYPES) })
      .nullable(),
    renterId: z.string(),
    renter: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable() }).nullable(),
    status: z.enum(RESERVATION_STATUSES),
    rateType: z.enum(RATE_TYPES),
    arrivalDate: z.string(),
    departureDate: z.string(),
    nights: z.number().int(),
    boat: Boat,
    pricing: Pricing,
    currency: z.string(),
    baseCents: z.number().int(),
    feesCents: z.number().int(),
    utilitiesCents: z.number().int(),
    discountCents: z.number().int(),
    taxCents: z.number().int(),
    totalCents: z.number().int(),
    depositCents: z.number().int().openapi({ description: 'Deposit the location asks before confirmation (settings deposit policy).' }),
    amountPaidCents: z.number().int().openapi({ description: "Money received (the money view's `paid`, in cents)" }),
    amountRefundedCents: z.number().int().openapi({ description: "Money given back (the money view's `refunded`, in cents)" }),
    balanceCents: z.number().int().openapi({
      description: `What the ledger shows the renter owes: the charges on the ledger (the quoted total while pending, awaiting payment or expired, before any is posted; nothing once cancelled) - (paid - refunded); negative when the renter has credit (money held for a cancelled stay until refunded). The money view's \`balance\`, in cents.`,
    }),
    money: MoneyViewSchema.openapi({
      description:
        "The stay's money from the ledger (the one money view, in dollars): its lines (the quote before confirmation), paid, refunded and the balance",
    }),
    hold: z.object({ expiresAt: z.string(), expired: z.boolean() }).nullable().openapi({ description: 'The bill hold while awaiting payment.' }),
    billSentAt: z.string().nullable(),
    confirmedAt: z.string().nullable(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancellationReason: z.string().nullable(),
    expiredAt: z.string().nullable(),
    contract: z.object({ status: z.enum(['none', 'pending', 'sent', 'signed']), contractId: z.string().nullable(), signedAt: z.string().nullable() }),
    recognizedThrough: z.string().nullable(),
    notes: z.string().nullable(),
    source: z.string(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipReservation');

export const CheckOutResult = Reservation.extend({
  warnings: z
    .array(
      z.object({
        code: z.enum(['balance_due']),
        message: z.string(),
        balanceCents: z.number().int(),
      }),
    )
    .openapi({ description: 'What staff should know at check-out: `balance_due` when the stay still owes money (it stays in due-billing until paid).' }),
}).openapi('SlipReservationCheckedOut');

export const ReservationDocument = z
  .object({
    id: z.string(),
    type: z.string().openapi({ description: 'A required document type of the location (insurance, registration, ...) or another type.' }),
    status: z.string().openapi({ description: 'pending_upload, submitted, approved or rejected.' }),
    fileName: z.string().nullable(),
    contentType: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    expiresOn: z.string().nullable(),
    uploadedVia: z.string(),
    createdAt: z.string(),
  })
  .openapi('SlipReservationDocumentSummary');
export const ReservationGuestPass = z
  .object({
    id: z.string(),
    guestName: z.string(),
    accessCode: z.string(),
    status: z.string().openapi({ description: 'active, expired or revoked (at the time of the answer).' }),
    validFrom: z.string(),
    validUntil: z.string(),
    checkInCount: z.number().int(),
  })
  .openapi('SlipReservationGuestPassSummary');

export const ReservationDetail = Reservation.extend({
  payments: z.array(Payment),
  messages: z.array(Message),
  documents: z.array(ReservationDocument).openapi({ description: 'Documents submitted for the reservation (GET /slip-documents for the review).' }),
  guestPasses: z.array(ReservationGuestPass).openapi({ description: 'Guest passes of the reservation (GET /slips/guest-access for the details).' }),
}).openapi('SlipReservationDetail');
export const ReservationList = z
  .object({ data: z.array(Reservation), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipReservationList');

const PricingFields = {
  ratePerFootCents: cents().optional().openapi({ description: "Default: the unit's rate for the rate type, else the location's." }),
  fees: z.array(ChargeLineIn).max(20).optional().openapi({ description: "Default: the location's fees." }),
  utilities: z.array(ChargeLineIn).max(20).optional().openapi({ description: "Default: the location's utilities." }),
  taxRatePercent: z.number().min(0).max(50).optional().openapi({ description: "Default: the location's tax rate." }),
  discountCents: cents().optional(),
};

export const CreateBody = z
  .object({
    slipId: id(),
    rateType: z.enum(RATE_TYPES),
    arrivalDate: date(),
    departureDate: date().openapi({ description: 'The day the boat leaves (exclusive): nights = departure - arrival.' }),
    boat: BoatIn,
    renterId: id().optional(),
    renter: RenterIn.optional(),
    status: z
      .enum(['pending', 'confirmed'])
      .optional()
      .openapi({ description: "Default: pending when the location's settings require approval, else confirmed." }),
    overrideFit: z.boolean().default(false).openapi({ description: 'Book a boat that does not fit (staff override; audited).' }),
    notes: z.string().max(5000).optional(),
    ...PricingFields,
  })
  .strict()
  .openapi('CreateSlipReservation');

export const UpdateBody = z
  .object({
    rateType: z.enum(RATE_TYPES).optional(),
    arrivalDate: date().optional(),
    departureDate: date().optional(),
    boat: BoatIn.partial().strict().optional(),
    overrideFit: z.boolean().default(false),
    notes: z.string().max(5000).nullable().optional(),
    ...PricingFields,
  })
  .strict()
  .openapi('UpdateSlipReservation');

export const IdParams = z.object({ id: id() });
export const NumberParams = z.object({ reservationNumber: z.string().trim().min(1).max(40) });

export const ListQuery = z.object({
  locationId: id().optional(),
  status: z.enum(RESERVATION_STATUSES).optional(),
  rateType: z.enum(RATE_TYPES).optional(),
  slipId: id().optional(),
  renterId: id().optional(),
  arrivalFrom: date().optional(),
  arrivalTo: date().optional(),
  inHouseOn: date().optional().openapi({ description: 'Reservations holding their unit on this night (arrival ≤ date < departure).' }),
  q: z.string().trim().min(1).max(60).optional().openapi({ description: 'Reservation number or vessel name (substring; case-insensitive for ASCII letters).' }),
  limit: zLimit(200, 50),
  offset: zOffset(),
});

export const LocationQuery = z.object({ locationId: id().optional() });
export const DueQuery = z.object({
  locationId: id().optional(),
  withinDays: z.coerce.number().int().min(0).max(365).default(7),
  limit: zLimit(200, 50),
  offset: zOffset(),
});
export const ExpiringQuery = z.object({
  locationId: id().optional(),
  withinDays: z.coerce.number().int().min(0).max(365).default(30),
  rateType: z.enum(RATE_TYPES).optional(),
  limit: zLimit(200, 50),
  offset: zOffset(),
});

const BoatQuery = {
  loaFt: z.coerce.number().positive().max(1000).optional(),
  beamFt: z.coerce.number().positive().max(1000).optional(),
  draftFt: z.coerce.number().positive().max(1000).optional(),
  airDraftFt: z.coerce.number().positive().max(1000).optional(),
};

export const AvailabilityQuery = z.object({
  locationId: id(),
  arrivalDate: date(),
  departureDate: date(),
  unitType: z.enum(UNIT_TYPES).optional(),
  section: z.string().trim().min(1).max(60).optional(),
  includeRefused: z.enum(['true', 'false']).optional().openapi({ description: 'Also list the units that do not fit or are taken, with the reasons.' }),
  ...BoatQuery,
});

export const Refused = z
  .object({
    slipId: z.string(),
    unitNumber: z.string(),
    section: z.string().nullable(),
    reasons: z.array(z.enum(['does_not_fit', 'reserved', 'closed'])),
    fit: z.array(FitRefusal),
    conflicts: z.array(Conflict),
  })
  .openapi('SlipRefusal');

export const Availability = z
  .object({
    locationId: z.string(),
    arrivalDate: z.string(),
    departureDate: z.string(),
    nights: z.number().int(),
    clearances: z.object({ overhangAllowanceFt: z.number(), sideClearanceFt: z.number(), underKeelClearanceFt: z.number() }),
    data: z.array(SlipSchema),
    total: z.number().int(),
    refused: z.array(Refused).optional(),
  })
  .openapi('SlipAvailability');

export const CheckQuery = z.object({
  slipId: id(),
  arrivalDate: date(),
  departureDate: date(),
  excludeReservationId: id().optional().openapi({ description: 'Ignore this reservation (checking a date change or a transfer).' }),
  ...BoatQuery,
});

export const CheckResult = z
  .object({
    slipId: z.string(),
    unitNumber: z.string(),
    arrivalDate: z.string(),
    departureDate: z.string(),
    available: z.boolean(),
    free: z.boolean(),
    fits: z.boolean().nullable().openapi({ description: 'null when no boat dimensions were given.' }),
    open: z.boolean().openapi({ description: 'false when the unit is in maintenance or out of service.' }),
    fit: z.array(FitRefusal),
    conflicts: z.array(Conflict),
  })
  .openapi('SlipAvailabilityCheck');

export const Stats = z
  .object({
    locationId: z.string().nullable(),
    today: z.string(),
    byStatus: z.record(z.string(), z.number().int()),
    byRateType: z.record(z.string(), z.number().int()),
    arrivalsToday: z.number().int(),
    departuresToday: z.number().int(),
    inHouse: z.number().int(),
    awaitingPayment: z.number().int(),
    bookedCents: z.number().int(),
    collectedCents: z.number().int(),
    outstandingCents: z.number().int(),
  })
  .openapi('SlipReservationStats');

export const ConfirmBody = z.object({ note: z.string().max(1000).optional() }).strict();
export const SendBillBody = z
  .object({
    holdHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .optional()
      .openapi({ description: "Default: the location's billHoldHours." }),
    message: z.string().max(5000).optional(),
    channel: z.enum(['email', 'sms']).default('email'),
  })
  .strict();
export const CancelBody = z.object({ reason: z.string().trim().max(1000).optional() }).strict();
export const EmptyBody = z.object({}).strict();
export const TransferBody = z
  .object({
    slipId: id().openapi({ description: 'The unit to move to.' }),
    reprice: z.boolean().default(false).openapi({ description: "Re-price with the new unit's length and rates (default: keep the price)." }),
    overrideFit: z.boolean().default(false),
    reason: z.string().trim().max(1000).optional(),
  })
  .strict();
export const ContractSignedBody = z
  .object({ contractId: id().optional(), signedAt: z.string().datetime({ offset: true }).optional(), note: z.string().max(1000).optional() })
  .strict();
export const MessageBody = z
  .object({
    body: z.string().trim().min(1).max(10_000),
    subject: z.string().trim().max(200).optional(),
    channel: z.enum(['email', 'sms', 'note']).default('email'),
  })
  .strict();
export const MessageList = z
  .object({ data: z.array(Message), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipMessageList');
export const PageQuery = z.object({ limit: zLimit(200, 50), offset: zOffset() });

export const RecordPaymentBody = z
  .object({
    amountCents: z.number().int().min(1).max(100_000_000),
    method: z.enum(['cash', 'check', 'bank_transfer', 'other', 'card', 'terminal']).openapi({ description: 'How the money was received outside Berth.' }),
    reference: z.string().trim().max(120).optional(),
    note: z.string().max(1000).optional(),
  })
  .strict();
export const ChargeCardBody = z
  .object({
    amountCents: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Default: the balance.' }),
    paymentMethodId: z.string().trim().min(1).max(128).optional().openapi({ description: "Default: the renter's default saved card." }),
  })
  .strict();
export const TerminalBody = z
  .object({
    amountCents: z.number().int().min(1).max(100_000_000).optional(),
    readerId: z.string().trim().min(1).max(128).optional(),
    paymentIntentId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: 'A card-present payment the reader (or tap to pay) completed: recorded.' }),
  })
  .strict();
export const RefundBody = z
  .object({
    paymentId: id().optional().openapi({ description: 'Default: the latest payment with money left to refund.' }),
    amountCents: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Default: what is left of the payment.' }),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();
export const RecognizeBody = z
  .object({
    throughMonth: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM')
      .optional()
      .openapi({ description: 'Default: the current month at the location. A later month answers 400 (revenue is not recognised ahead of time).' }),
  })
  .strict();
export const RecalcBody = z
  .object({ refreshRates: z.boolean().default(false).openapi({ description: "Also take the unit's or location's current rate per foot." }) })
  .strict();

export const PaymentResult = z
  .object({
    status: z.enum(['succeeded', 'pending']),
    payment: Payment.nullable(),
    reservation: Reservation,
    paymentIntentId: z.string().nullable().optional(),
    clientSecret: z.string().nullable().optional(),
    nextStep: z.string().nullable().optional(),
  })
  .openapi('SlipPaymentResult');
export const PaymentList = z
  .object({ data: z.array(Payment), total: z.number().int(), paidCents: z.number().int(), refundedCents: z.number().int(), netCents: z.number().int() })
  .openapi('SlipPaymentHistory');
export const RecognizeResult = z
  .object({
    reservationId: z.string(),
    recognized: z.array(z.object({ month: z.string(), amountCents: z.number().int() })),
    recognizedThrough: z.string().nullable(),
    deferredCents: z.number().int(),
    recognizedCents: z.number().int(),
    remainingDeferredCents: z.number().int(),
  })
  .openapi('SlipRevenueRecognition');
export const DeleteResult = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('SlipReservationDeleted');

export const RefundResult = z.object({ refund: Payment, payment: Payment, reservation: Reservation }).openapi('SlipRefundResult');
export const RecalcResult = Reservation.extend({ previousTotalCents: z.number().int() }).openapi('SlipReservationRecalculated');
export const DueList = ReservationList.extend({ today: z.string() }).openapi('SlipReservationDueList');
