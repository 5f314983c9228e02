import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';
import { DOCUMENT_KINDS } from './documents';
import { BookingShape, ChangeQuote, RefundLine, ReschedulePriceChange } from '../bookings/service';

export const RentalParams = z.object({ rentalId: zId('bk_01J0000000000000000000000') });
export const ParticipantParams = RentalParams.extend({ participantId: zId('bpt_01J0000000000000000000000') });
export const DocumentParams = RentalParams.extend({ documentId: zId('doc_01J0000000000000000000000') });
export const LocationParams = z.object({ locationId: zId('loc_01J0000000000000000000000') });

const Money = z.number().openapi({ description: 'Dollars (major units)' });

export const CodeSent = z
  .object({
    sessionId: z.string().openapi({ description: 'Send it back with the code' }),
    rentalId: z.string(),
    sentTo: z.string().openapi({ description: 'The masked address the code went to', example: 'r*****@example.com' }),
    expiresAt: z.string(),
    codeLength: z.number().int(),
    maxAttempts: z.number().int(),
  })
  .openapi('RenterCodeSent');

export const VerifyBody = z
  .object({
    sessionId: z.string().trim().min(1).max(64),
    code: z
      .union([z.string(), z.number().int()])
      .transform((v) =>
        String(v)
          .trim()
          .padStart(typeof v === 'number' ? 6 : 0, '0'),
      )
      .pipe(z.string().regex(/^\d{6}$/, 'must be the 6 digits of the e-mailed code'))
      .openapi({ type: 'string', example: '042917' }),
  })
  .openapi('VerifyRenterCode');

export const RenterSession = z
  .object({
    token: z.string().openapi({ description: 'Send it as `X-Renter-Token` (or `token` in the cancel body); valid 30 minutes' }),
    tokenType: z.literal('renter_session'),
    expiresAt: z.string(),
    rentalId: z.string(),
    transactionId: z.string(),
    scopes: z.array(z.enum(['cancel', 'manage', 'change'])).openapi({
      description: '`cancel`: POST .../cancel; `change`: POST .../change (and its quote); `manage`: participants, documents, passes',
    }),
  })
  .openapi('RenterSession');

const Policy = z.object({
  allowRenterCancellation: z.boolean(),
  cutoffHours: z.number(),
  tiers: z.array(z.object({ hoursBefore: z.number(), refundPercent: z.number() })),
  description: z.string(),
  source: z.enum(['location', 'account', 'default']),
});

export const Eligibility = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    customerId: z.string().openapi({ description: 'The operator (the widget links back to its booking page)' }),
    status: z.string(),
    cancellable: z.boolean(),
    reason: z
      .enum(['already_cancelled', 'not_cancellable_status', 'started', 'past_cutoff', 'online_cancellation_disabled', 'booked_through_partner'])
      .nullable(),
    message: z.string(),
    startTime: z.string(),
    timezone: z.string(),
    hoursBeforeStart: z.number(),
    policy: Policy,
    refund: z.object({
      percent: z.number(),
      amount: Money,
      amountCents: z.number().int(),
      paid: Money.openapi({ description: 'What the renter paid by card for this rental (its plans and tips included)' }),
      fee: Money.openapi({ description: 'What the operator keeps in all (the cancellation fee and any premium kept): see `lines`' }),
      feeCents: z.number().int(),
      currency: z.string(),
      lines: z.array(RefundLine).openapi({ description: 'Each line paid for, what comes back of it and what is kept, with the rule that decides it' }),
    }),
    refundSchedule: z.array(z.object({ until: z.string(), refundPercent: z.number() })),
    checkedAt: z.string(),
  })
  .openapi('CancellationEligibility');

export const CancelBody = z
  .object({
    token: z.string().trim().max(100).optional().openapi({ description: 'The renter session token (or send it as `X-Renter-Token`)' }),
    reason: z.string().trim().max(500).optional(),
  })
  .openapi('RenterCancelBody');

export const CancelResult = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    status: z.literal('cancelled'),
    alreadyCancelled: z.boolean(),
    refund: z
      .object({
        status: z.enum(['succeeded', 'failed', 'none']),
        amount: Money,
        refundId: z.string().nullable(),
        refundIds: z.array(z.string()).openapi({ description: 'One refund per payment that is given back (a plan bought later was its own payment)' }),
        fee: Money,
        percent: z.number(),
        currency: z.string(),
        lines: z.array(RefundLine),
      })
      .nullable(),
    eligibility: Eligibility,
  })
  .openapi('RenterCancellation');

export const TipBody = z
  .object({
    amount: z.number().positive().max(10_000).openapi({ description: 'The tip in dollars' }),
    percentage: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .openapi({ description: 'When given, amount must be this percentage of the booking total (within a cent)' }),
  })
  .openapi('TipBody');

export const Tip = z
  .object({
    tipId: z.string(),
    rentalId: z.string(),
    amount: Money,
    currency: z.string(),
    status: z.enum(['charging', 'paid']),
    paymentIntentId: z.string().nullable(),
    charged: z.boolean().openapi({ description: 'false when this answers an earlier tip (no second charge)' }),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    createdAt: z.string(),
  })
  .openapi('Tip');

export const DocumentForm = z.object({
  file: z.file().describe('The document: PDF, JPEG, PNG, WebP or HEIC, at most 10 MB'),
  kind: z.enum(DOCUMENT_KINDS).optional().describe('insurance (default), ownership or other'),
});

const DocumentFields = {
  documentId: z.string(),
  rentalId: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
};
export const BookingDocument = z.object(DocumentFields).openapi('BookingDocument');
export const UploadedDocument = z
  .object({ ...DocumentFields, documentsCount: z.number().int(), maxDocuments: z.number().int() })
  .openapi('UploadedBookingDocument');
export const DocumentList = z
  .object({ rentalId: z.string(), data: z.array(BookingDocument), total: z.number().int(), maxDocuments: z.number().int() })
  .openapi('BookingDocumentList');

export const PaymentMethodsQuery = z.object({
  stripeCustomerId: z
    .string()
    .trim()
    .min(3)
    .max(128)
    .regex(/^[A-Za-z0-9_]+$/, 'must be a payment-provider customer id')
    .openapi({ example: 'cus_Q1w2e3r4t5y6' }),
});
export const MaskedPaymentMethods = z
  .object({
    stripeCustomerId: z.string(),
    data: z.array(
      z.object({ type: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int(), isDefault: z.boolean() }),
    ),
  })
  .openapi('MaskedPaymentMethods');

export const ReviewsBody = z
  .object({
    reviewConnections: z
      .array(z.string().trim().min(2).max(32))
      .min(1)
      .max(10)
      .openapi({ description: 'Names of the review platforms (as configured), e.g. ["google", "tripadvisor"]' }),
    rentalId: zId('bk_01J0000000000000000000000').optional().openapi({ description: 'E-mail the review request to the renter of this completed booking' }),
  })
  .openapi('ReviewRequestBody');
export const ReviewsResult = z
  .object({
    locationId: z.string(),
    connections: z.array(z.object({ name: z.string(), url: z.string() })),
    request: z.object({ rentalId: z.string(), sentTo: z.string(), status: z.enum(['sent', 'already_sent']), requestedAt: z.string() }).nullable(),
  })
  .openapi('ReviewRequestResult');

const name = () => z.string().trim().min(1).max(100);
export const ParticipantBody = z
  .object({
    firstName: name(),
    lastName: name(),
    email: z.string().trim().toLowerCase().max(254).email().optional(),
    dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .optional(),
  })
  .openapi('ParticipantBody');
export const ParticipantPatch = z
  .object({
    firstName: name().optional(),
    lastName: name().optional(),
    email: z.string().trim().toLowerCase().max(254).email().optional(),
    dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .optional(),
  })
  .refine((o) => Object.keys(o).length > 0, 'give at least one field')
  .openapi('ParticipantPatch');
export const WaiverLinkBody = z.object({ signatureId: zId('sig_01J0000000000000000000000') }).openapi('ParticipantWaiverLink');

export const Participants = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    status: z.string(),
    partySize: z.number().int(),
    editable: z.boolean().openapi({ description: 'Participants can change until check-in' }),
    participants: z.array(
      z.object({
        participantId: z.string(),
        rentalId: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        email: z.string().nullable(),
        dob: z.string().nullable(),
        waiver: z.object({ status: z.enum(['signed', 'missing']), signatureId: z.string().nullable(), signedAt: z.string().nullable() }),
        createdAt: z.string(),
        updatedAt: z.string(),
      }),
    ),
    waiversSigned: z.number().int(),
    spotsLeft: z.number().int(),
  })
  .openapi('BookingParticipants');

export const RenterChangeQuote = ChangeQuote.extend({
  changeableUntil: z.string().openapi({
    description: "Online changes close then: the start less the larger of the cancellation policy's cutoffHours and the item's minimum notice",
  }),
}).openapi('RenterBookingChangeQuote');

export const RenterChanged = z
  .object({
    rentalId: z.string(),
    status: z.string(),
    booking: BookingShape.openapi({ description: 'The booking as it is now' }),
    pricing: z.object({ total: Money, amountPaid: Money, balanceDue: Money, currency: z.string() }),
    change: ReschedulePriceChange.openapi({
      description: 'The price change: `charged` (to the card the booking was paid with), `refunded` (to it), `balance_due` (no card on file), `none`',
    }),
  })
  .openapi('RenterBookingChanged');
