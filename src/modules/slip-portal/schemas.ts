import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { RESERVATION_STATUSES } from '../slip-reservations/types';
import { BoatInputSchema, MessageSchema, PaymentSchema, ReservationSchema } from '../slip-reservations/service';
import { docType, DocumentSchema, expiresOn, RequirementsSchema } from '../slip-documents/service';
import { PassListSchema, PassSchema, TenantPassBody } from '../slip-guest-access/service';
import { HaulServiceSchema, PortalHaulRequestBody } from '../haul-services/service';

const id = () => z.string().trim().min(1).max(128);

// ---------------------------------------------------------------------------------------------
// Sign-in

export const PortalPageQuery = z.object({
  customer: z.string().max(128).optional().openapi({ description: 'The operator (`cus_...`): its name, logo and colour' }),
  location: z.string().max(128).optional().openapi({ description: 'The marina (`loc_...`) a new sign-in link is asked for' }),
  token: z.string().max(200).optional().openapi({ description: 'A sign-in link token (`spl_...`), exchanged once by the page' }),
});
export const MagicLinkBody = z
  .object({ email: z.string().trim().toLowerCase().email().max(254), locationId: id() })
  .strict()
  .openapi('SlipPortalMagicLinkRequest');
export const MagicLinkResult = z.object({ sent: z.literal(true), message: z.string() }).openapi('SlipPortalMagicLinkSent');
export const InviteBody = z.object({ reservationId: id() }).strict().openapi('SlipPortalInvite');
export const InviteResult = z
  .object({ reservationId: z.string(), renterId: z.string(), sentTo: z.string(), linkExpiresAt: z.string() })
  .openapi('SlipPortalInviteSent');
export const SessionBody = z
  .object({ token: z.string().trim().min(10).max(200).openapi({ description: 'The `spl_...` token of the e-mailed link.' }) })
  .strict()
  .openapi('SlipPortalSessionRequest');
const RenterBrief = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() });
export const SessionOpened = z
  .object({
    sessionToken: z.string().openapi({ description: 'Send as `Authorization: Bearer sps_...` to the portal routes.' }),
    expiresAt: z.string(),
    renter: RenterBrief,
  })
  .openapi('SlipPortalSessionOpened');
export const Session = z
  .object({
    sessionId: z.string(),
    expiresAt: z.string(),
    customerId: z.string(),
    renter: RenterBrief.extend({ phone: z.string().nullable() }),
    reservations: z.number().int().openapi({ description: 'How many reservations the tenant has with this operator.' }),
  })
  .openapi('SlipPortalSession');
export const SignedOut = z.object({ signedOut: z.literal(true) }).openapi('SlipPortalSignedOut');

// ---------------------------------------------------------------------------------------------
// Reservations

export const ListQuery = z.object({ status: z.enum(RESERVATION_STATUSES).optional(), limit: zLimit(100, 50), offset: zOffset() });
export const PageQuery = z.object({ limit: zLimit(100, 50), offset: zOffset() });
export const IdParams = z.object({ id: id() });
export const GuestParams = z.object({ id: id(), guestId: id() });
export const ServiceParams = z.object({ id: id(), serviceId: id() });

export const Reservation = ReservationSchema;
export const Requirements = RequirementsSchema;
export const Document = DocumentSchema;
export const Message = MessageSchema;

export const ReservationList = z
  .object({ data: z.array(ReservationSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipPortalReservationList');

export const ReservationDetail = ReservationSchema.extend({
  payments: z.array(PaymentSchema),
  messages: z.array(MessageSchema).openapi({ description: 'The latest 20 messages of the thread (staff notes excluded).' }),
  documents: RequirementsSchema,
  guestPasses: z.array(PassSchema),
}).openapi('SlipPortalReservation');

export const VesselBody = BoatInputSchema.partial()
  .strict()
  .openapi({ description: 'Vessel fields to change; dimensions must still fit the unit, and a new length re-prices the stay.' })
  .openapi('SlipPortalVesselUpdate');

export const ContractQuery = z.object({ format: z.enum(['json', 'pdf']).default('json') });
export const Contract = z
  .object({
    id: z.string(),
    reservationId: z.string(),
    status: z.enum(['sent', 'signed']),
    title: z.string(),
    body: z.string(),
    documentSha256: z.string(),
    pdfUrl: z.string().openapi({ description: 'GET with the session: the PDF (the signed one once signed).' }),
    sentAt: z.string().nullable(),
    signedAt: z.string().nullable(),
    signerName: z.string().nullable(),
  })
  .openapi('SlipPortalContract');
export const SignBody = z
  .object({
    signerName: z.string().trim().min(1).max(200),
    signerEmail: z.string().trim().toLowerCase().email().max(254).optional(),
    signature: z
      .string()
      .min(1)
      .max(400_000)
      .openapi({ description: 'The typed name, or a drawn signature as a data URL (data:image/png;base64,... or image/jpeg).' }),
    agreed: z.literal(true).openapi({ description: 'The tenant agreed to the contract (must be true).' }),
  })
  .strict()
  .openapi('SlipPortalSignContract');

export const AttachBody = z
  .object({
    uploadId: id().openapi({ description: 'From POST /slip-portal/upload.' }),
    type: docType(),
    expiresOn: expiresOn(),
    notes: z.string().trim().max(1000).optional(),
  })
  .strict()
  .openapi('SlipPortalDocumentSubmit');
export const UploadForm = z.object({ file: z.file().describe('A PDF, JPEG, PNG, WebP or HEIC file (by content), at most 10 MB.') });
export const Upload = z
  .object({ uploadId: z.string(), fileName: z.string(), contentType: z.string(), sizeBytes: z.number().int(), sha256: z.string(), createdAt: z.string() })
  .openapi('SlipPortalUpload');

export const MessageList = z
  .object({ data: z.array(MessageSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipPortalMessageList');
export const MessageBody = z
  .object({ subject: z.string().trim().min(1).max(200).optional(), body: z.string().trim().min(1).max(5000) })
  .strict()
  .openapi('SlipPortalMessage');

// ---------------------------------------------------------------------------------------------
// Payments

const Card = z.object({ id: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int(), isDefault: z.boolean() });
export const PaymentMethods = z.object({ data: z.array(Card) }).openapi('SlipPortalPaymentMethods');
export const SetupIntentBody = z
  .object({
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({
      description: "A card the page already tokenized with the provider's card element: saved as the default card instead of answering a setup intent.",
    }),
  })
  .strict()
  .openapi('SlipPortalSetupIntentRequest');
export const SetupIntent = z
  .object({
    setupIntentId: z.string().nullable(),
    clientSecret: z.string().nullable(),
    status: z.string(),
    paymentMethod: Card.nullable().openapi({ description: 'The saved card when `paymentMethodId` was sent.' }),
  })
  .openapi('SlipPortalSetupIntent');
export const PayBody = z
  .object({
    amountCents: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Default: the balance.' }),
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({ description: 'Default: the saved default card.' }),
    paymentIntentId: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: 'An intent of POST .../create-payment-intent that the card element confirmed: recorded (once).' }),
  })
  .strict()
  .openapi('SlipPortalPay');
export const PayResult = z.object({ status: z.literal('succeeded'), payment: PaymentSchema, reservation: ReservationSchema }).openapi('SlipPortalPayment');
export const IntentBody = z
  .object({ amountCents: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Default: the balance.' }) })
  .strict()
  .openapi('SlipPortalPaymentIntentRequest');
export const Intent = z
  .object({ paymentIntentId: z.string(), clientSecret: z.string(), amountCents: z.number().int(), currency: z.string(), status: z.string() })
  .openapi('SlipPortalPaymentIntent');

// ---------------------------------------------------------------------------------------------
// Guest passes and haul services

export const GuestPassBody = TenantPassBody;
export const GuestPassList = PassListSchema;
export const Pass = PassSchema;

export const PortalHaulService = HaulServiceSchema.omit({ staffNotes: true, photos: true, customerId: true })
  .extend({ photoCount: z.number().int() })
  .openapi('SlipPortalHaulService');
export const PortalHaulList = z
  .object({ data: z.array(PortalHaulService), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipPortalHaulServiceList');
export const HaulRequestBody = PortalHaulRequestBody;
export const CancelBody = z.object({ reason: z.string().trim().max(500).optional() }).strict();
export const ConfirmBody = z.object({ note: z.string().trim().max(500).optional() }).strict();
