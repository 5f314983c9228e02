import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zOffset } from '../../lib/openapi';
import { BookBody, BookResult } from '../bookings/types';
import { DEPOSIT_EFFECTS, FIELD_TYPES, MAX_QUOTE_TIMEOUT_MS, MESSAGE_CATEGORIES, POLICY_STATUSES, QUOTE_STATUSES, RESCHEDULE_DELIVERIES } from './types';

const country = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code (US, GB, DE, ...)');
const currency = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, 'must be an ISO 4217 currency code (usd, eur, ...)');
const uniqueList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((a) => new Set(a as unknown[]).size === a.length, 'must not repeat a value');
/** A page of a list: `{ data, total, limit, offset }`. */
const page = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi(name);
const Dollars = z.number().openapi({ description: 'Dollars (decimal) in the currency named beside it' });
const Iso = z.string().openapi({ description: 'ISO 8601 instant, UTC', example: '2027-06-01T14:00:00.000Z' });

// ---------------------------------------------------------------------------------------------
// Offerings (partner)

export const OfferingParams = z.object({ offeringId: zId('cov_01J0000000000000000000000') });

export const CreateOfferingBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    supportEmail: zEmail().openapi({ description: "The underwriter's support address (reply-to of messages to renters)" }),
    baseUrl: z.string().trim().max(500).openapi({ description: 'https base address of the six endpoints', example: 'https://cover.example.com/berth' }),
    supportedCountries: uniqueList(country(), 60)
      .default([])
      .openapi({ description: 'Licensed countries (ISO 3166-1 alpha-2); empty means nowhere', example: ['US'] }),
    currencies: uniqueList(currency(), 20)
      .default([])
      .openapi({ description: 'Currencies the offering prices in (ISO 4217)', example: ['usd'] }),
    quoteTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(MAX_QUOTE_TIMEOUT_MS)
      .default(2000)
      .openapi({ description: `Deadline of /quote in milliseconds (at most ${MAX_QUOTE_TIMEOUT_MS})` }),
    enabled: z.boolean().default(true).openapi({ description: 'On/off switch: off, no operator is offered it' }),
  })
  .openapi('CreateCoverageOffering');

export const UpdateOfferingBody = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    supportEmail: zEmail().optional(),
    baseUrl: z.string().trim().max(500).optional(),
    supportedCountries: uniqueList(country(), 60).optional(),
    currencies: uniqueList(currency(), 20).optional(),
    quoteTimeoutMs: z.number().int().min(100).max(MAX_QUOTE_TIMEOUT_MS).optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('UpdateCoverageOffering');

const SecretInfo = z
  .object({
    present: z.boolean(),
    prefix: z.string().nullable().openapi({ description: 'First characters of the current secret (to recognise it)' }),
    createdAt: z.string().nullable(),
    previousValidUntil: z.string().nullable().openapi({ description: 'After a rotation: until when the previous secret still works' }),
  })
  .openapi('CoverageSecretInfo');

export const Offering = z
  .object({
    offeringId: z.string(),
    partnerId: z.string(),
    name: z.string(),
    supportEmail: z.string(),
    baseUrl: z.string(),
    supportedCountries: z.array(z.string()),
    currencies: z.array(z.string()),
    quoteTimeoutMs: z.number().int(),
    enabled: z.boolean(),
    status: z.enum(['draft', 'in_review', 'approved']),
    payoutAccountId: z.string().nullable(),
    rescheduleDelivery: z.enum(RESCHEDULE_DELIVERIES),
    secret: SecretInfo,
    review: z.object({
      reasons: z.array(z.string()).nullable(),
      note: z.string().nullable(),
      submittedAt: z.string().nullable(),
      reviewedAt: z.string().nullable(),
      approvedAt: z.string().nullable(),
    }),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CoverageOffering');

export const OfferingCreated = Offering.extend({
  signingSecret: z.string().openapi({ description: 'Shown once: keep it in SERVICE_SIGNING_SECRET or the credentials file; no endpoint returns it again' }),
}).openapi('CoverageOfferingCreated');

export const OfferingList = page(Offering, 'CoverageOfferingList');
export const ListQuery = z.object({ limit: zLimit(), offset: zOffset() });

export const SecretRotated = z
  .object({
    offeringId: z.string(),
    signingSecret: z.string().openapi({ description: 'The new secret, shown once' }),
    previousValidUntil: z.string().openapi({ description: 'The previous secret keeps working until then (24 hours)' }),
  })
  .openapi('CoverageSecretRotated');

const Missing = z.object({ item: z.enum(['payout_account', 'licensed_country', 'signing_secret']), message: z.string() });
export const OfferingReadiness = z
  .object({
    offeringId: z.string(),
    status: z.enum(['draft', 'in_review', 'approved']),
    ready: z.boolean().openapi({ description: 'Everything review needs is there' }),
    missing: z.array(Missing),
    payoutAccount: z
      .object({ accountId: z.string(), country: z.string(), status: z.enum(['onboarding', 'active']) })
      .nullable()
      .openapi({ description: "The partner's payout account, if one was connected" }),
    supportedCountries: z.array(z.string()),
    currencies: z.array(z.string()),
  })
  .openapi('CoverageOfferingReadiness');

export const Call = z
  .object({
    callId: z.string(),
    endpoint: z.string(),
    outcome: z.string().openapi({
      description: '`ok`, `timeout`, `network`, `http_error`, `invalid_json`, `too_large`, `refused_url` or `rejected` (an answer that breaks the contract)',
    }),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    subjectId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('CoverageCall');
export const CallList = page(Call, 'CoverageCallList');

// ---------------------------------------------------------------------------------------------
// Payout account (partner)

export const PayoutBody = z
  .object({ country: country().openapi({ description: 'Country of the payout account (US, GB, an EEA country, CA or CH)', example: 'US' }) })
  .openapi('ConnectPayoutAccount');

export const PayoutAccount = z
  .object({
    accountId: z.string(),
    country: z.string(),
    status: z.enum(['onboarding', 'active']),
    payoutsEnabled: z.boolean(),
    onboardingUrl: z.string().nullable().openapi({ description: "The payment provider's Express onboarding link (when onboarding is not finished)" }),
    onboardingExpiresAt: z.string().nullable(),
    attachedOfferingIds: z.array(z.string()),
  })
  .openapi('PayoutAccount');

// ---------------------------------------------------------------------------------------------
// Review (platform staff)

export const ReviewQuery = z.object({ status: z.enum(['draft', 'in_review', 'approved']).default('in_review'), limit: zLimit(), offset: zOffset() });
export const ReviewOffering = Offering.extend({
  partner: z.object({ partnerId: z.string(), name: z.string(), email: z.string(), company: z.string().nullable() }),
}).openapi('CoverageOfferingForReview');
export const ReviewList = z
  .object({ data: z.array(ReviewOffering), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('CoverageReviewList');
export const ApproveBody = z
  .object({
    rescheduleDelivery: z
      .enum(RESCHEDULE_DELIVERIES)
      .default('hourly')
      .openapi({ description: '`hourly`: date changes reach /reschedule within the hour (default); `immediate`: at once; `none`: never' }),
    note: z.string().trim().max(2000).optional(),
  })
  .openapi('ApproveCoverageOffering');
export const RejectBody = z
  .object({ reasons: z.array(z.string().trim().min(1).max(500)).min(1).max(20).openapi({ description: 'What the partner must fix' }) })
  .openapi('RejectCoverageOffering');

// ---------------------------------------------------------------------------------------------
// Operator: offerings available, enablements

export const OperatorOffering = z
  .object({
    offeringId: z.string(),
    name: z.string(),
    supportEmail: z.string(),
    supportedCountries: z.array(z.string()),
    currencies: z.array(z.string()),
    status: z.enum(['draft', 'in_review', 'approved']),
    enabled: z.boolean().openapi({ description: "The underwriter's on/off switch" }),
    live: z.boolean().openapi({ description: 'Approved: real renters can be offered it' }),
    enabledLocationIds: z.array(z.string()),
  })
  .openapi('CoverageOfferingForOperator');
export const OperatorOfferingList = z.object({ data: z.array(OperatorOffering) }).openapi('CoverageOfferingCatalog');

export const EnablementBody = z
  .object({ locationId: zId('loc_01J0000000000000000000000'), offeringId: zId('cov_01J0000000000000000000000') })
  .openapi('EnableCoverage');
export const EnablementParams = z.object({ enablementId: zId('cen_01J0000000000000000000000') });
export const EnablementQuery = z.object({ locationId: zId().optional() });
export const Enablement = z
  .object({ enablementId: z.string(), locationId: z.string(), offeringId: z.string(), offeringName: z.string(), createdAt: z.string() })
  .openapi('CoverageEnablement');
export const EnablementList = z.object({ data: z.array(Enablement) }).openapi('CoverageEnablementList');

// ---------------------------------------------------------------------------------------------
// Quotes (checkout)

const Option = z.object({ value: z.string(), label: z.string() });
export const QuestionField = z
  .object({
    id: z.string(),
    type: z.enum(FIELD_TYPES),
    label: z.string(),
    required: z.boolean(),
    help: z.string().nullable(),
    text: z.string().nullable().openapi({ description: 'The disclosure text of a `notice`' }),
    options: z.array(Option).nullable().openapi({ description: '`dropdown` and `multiselect`' }),
    minAgeYears: z.number().int().nullable().openapi({ description: '`date`: the age the person must have reached on the rental date' }),
    pattern: z.string().nullable().openapi({ description: '`text`: a regular expression the whole answer must match' }),
    min: z.number().nullable(),
    max: z.number().nullable(),
    maxLength: z.number().int().nullable(),
    showIf: z
      .object({ field: z.string(), equals: z.union([z.string(), z.number(), z.boolean()]).nullable(), in: z.array(z.string()).nullable() })
      .nullable()
      .openapi({ description: 'Shown only when that field has that answer; a question never shown is neither required nor sent' }),
  })
  .openapi('CoverageQuestion');

export const QuoteBody = z
  .object({
    inventoryId: zId('inv_01J0000000000000000000000'),
    locationId: zId().optional(),
    startTime: z.string().datetime({ offset: true }).openapi({ description: 'ISO 8601 with offset' }),
    endTime: z.string().datetime({ offset: true }).optional().openapi({ description: 'Rentals: the end; tours: the departure end (optional)' }),
    quantity: z.number().int().min(1).max(100).default(1).openapi({ description: 'Boats of a rental, or guests of a tour' }),
  })
  .openapi('CoverageQuoteRequest');
export const PublicQuoteBody = QuoteBody.extend({ customerId: zId('cus_01J0000000000000000000000') }).openapi('PublicCoverageQuoteRequest');

export const QuoteParams = z.object({ quoteId: zId('cq_01J0000000000000000000000') });

export const Quote = z
  .object({
    quoteId: z.string(),
    offeringId: z.string(),
    offering: z.object({ name: z.string(), supportEmail: z.string() }),
    status: z.enum(QUOTE_STATUSES),
    currency: z.string(),
    estimate: Dollars.openapi({ description: 'The premium displayed on the card (Berth keeps its own record of it)' }),
    premium: Dollars.openapi({ description: 'The price now: the estimate, or the final price of the requote' }),
    priceChange: z.enum(['none', 'lower', 'higher']).openapi({ description: 'The final price against the displayed estimate' }),
    depositEffect: z.enum(DEPOSIT_EFFECTS),
    depositEffectValue: z.number().nullable(),
    deposit: z.object({ withoutCoverage: Dollars, withCoverage: Dollars }),
    questions: z.array(QuestionField),
    answersNeeded: z.boolean().openapi({ description: 'The questions must be answered (POST .../answers) before the coverage can be bought' }),
    reason: z.string().nullable().openapi({ description: 'Why a quote was declined or failed' }),
    inventoryId: z.string(),
    locationId: z.string(),
    startTime: Iso,
    endTime: Iso,
    quantity: z.number().int(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .openapi('CoverageQuote');

export const QuoteResult = z
  .object({
    data: z.array(Quote).openapi({ description: 'One card per offering that quoted in time' }),
    unavailable: z
      .array(z.object({ offeringId: z.string(), name: z.string(), reason: z.string() }))
      .openapi({ description: 'Offerings enabled at the location that show no card, and why (timeout, error, rejected quote, not eligible)' }),
  })
  .openapi('CoverageQuoteResult');

export const AnswersBody = z
  .object({ answers: z.record(z.string().max(64), z.unknown()).openapi({ description: 'Answers by question id' }) })
  .openapi('CoverageAnswers');
export const AcceptBody = z
  .object({ premium: z.number().min(0).max(1_000_000).openapi({ description: 'The new price the renter accepts (dollars), as displayed' }) })
  .openapi('AcceptCoveragePrice');

// ---------------------------------------------------------------------------------------------
// Checkout

const CoverageChoice = z
  .object({ quoteId: zId('cq_01J0000000000000000000000') })
  .nullable()
  .optional()
  .openapi({ description: 'The coverage the renter chose (a quote of POST /coverage/quotes); omit or null for none' });

export const CheckoutBody = BookBody.extend({ coverage: CoverageChoice }).openapi('CoverageCheckoutRequest');

export const CheckoutCoverage = z
  .object({
    status: z.enum(['purchased', 'not_purchased', 'not_requested']),
    reason: z.string().nullable().openapi({ description: 'Why the coverage was not bought (the booking went ahead without it)' }),
    quoteId: z.string().nullable(),
    policyId: z.string().nullable(),
    premium: Dollars.nullable(),
    currency: z.string().nullable(),
  })
  .openapi('CheckoutCoverage');

export const CheckoutResult = BookResult.extend({ coverage: CheckoutCoverage }).openapi('CoverageCheckoutResult');

export const PublicCheckoutBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    locationId: zId().optional(),
    inventoryId: zId('inv_01J0000000000000000000000'),
    startTime: z.string().datetime({ offset: true }),
    endTime: z.string().datetime({ offset: true }).optional(),
    quantity: z.number().int().min(1).max(100).optional(),
    customerInfo: z.object({
      firstName: z.string().trim().min(1).max(100),
      lastName: z.string().trim().min(1).max(100),
      email: zEmail(),
      phone: z.string().trim().max(32).optional(),
    }),
    paymentMethodId: z.string().trim().min(1).max(255).openapi({ example: 'pm_card_visa' }),
    expectedTotal: z.number().min(0).max(10_000_000).optional().openapi({ description: 'The rental total the renter saw (dollars, without the premium)' }),
    coverage: CoverageChoice,
  })
  .openapi('PublicCoverageCheckoutRequest');

export const PublicCheckoutResult = z
  .object({
    transactionId: z.string(),
    rentalId: z.string(),
    status: z.string(),
    currency: z.string(),
    total: Dollars.openapi({ description: 'Rental plus premium, paid in one payment' }),
    amountPaid: Dollars,
    startTime: Iso,
    endTime: Iso,
    deposit: z.object({ amount: Dollars, status: z.string() }).nullable(),
    coverage: CheckoutCoverage,
  })
  .openapi('PublicCoverageCheckoutResult');

// ---------------------------------------------------------------------------------------------
// Policies, flags

export const PolicyParams = z.object({ policyId: zId('cpl_01J0000000000000000000000') });
export const PolicyQuery = z.object({
  status: z.enum(POLICY_STATUSES).optional(),
  rentalId: zId().optional(),
  limit: zLimit(),
  offset: zOffset(),
});

const Window = z.object({ startTime: Iso, endTime: Iso });
export const Amendment = z
  .object({
    amendmentId: z.string(),
    startTime: Iso,
    endTime: Iso,
    status: z.enum(['pending', 'accepted', 'declined', 'superseded', 'skipped', 'failed']),
    reason: z.string().nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    dueAt: z.string(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('CoverageAmendment');

export const Policy = z
  .object({
    policyId: z.string(),
    quoteId: z.string(),
    offeringId: z.string(),
    offeringName: z.string(),
    rentalId: z.string().nullable(),
    transactionId: z.string(),
    locationId: z.string(),
    status: z.enum(POLICY_STATUSES),
    premium: Dollars,
    currency: z.string(),
    policyNumber: z.string().nullable(),
    documentUrl: z.string().nullable(),
    covered: Window.openapi({ description: 'The window the underwriter covers' }),
    bindAttempts: z.number().int(),
    lastError: z.string().nullable(),
    boundAt: z.string().nullable(),
    transferStatus: z.enum(['none', 'done', 'failed', 'reversed', 'not_needed']),
    cancelStatus: z.enum(['none', 'pending', 'done', 'failed']),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    premiumRefunded: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CoveragePolicy');
export const PolicyDetail = Policy.extend({ amendments: z.array(Amendment) }).openapi('CoveragePolicyDetail');
export const PolicyList = page(Policy, 'CoveragePolicyList');

export const VoidBody = z
  .object({
    reason: z.string().trim().min(1).max(500),
    refund: z.boolean().default(true).openapi({ description: 'Give the premium back to the renter (default)' }),
  })
  .openapi('VoidCoverage');

export const FlagParams = z.object({ flagId: zId('cfl_01J0000000000000000000000') });
export const FlagQuery = z.object({ open: z.enum(['true', 'false']).optional(), limit: zLimit(), offset: zOffset() });
export const Flag = z
  .object({
    flagId: z.string(),
    kind: z.enum(['bind_failed', 'not_covered']),
    policyId: z.string(),
    rentalId: z.string().nullable(),
    message: z.string(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    resolution: z.string().nullable(),
  })
  .openapi('CoverageFlag');
export const FlagList = page(Flag, 'CoverageFlagList');
export const ResolveBody = z.object({ resolution: z.string().trim().min(1).max(1000) }).openapi('ResolveCoverageFlag');

// ---------------------------------------------------------------------------------------------
// Renter page

export const PublicCoverageQuery = z.object({ TransactionId: zId('txn_01J0000000000000000000000') });
export const PublicCoverage = z
  .object({
    transactionId: z.string(),
    policies: z.array(
      z.object({
        rentalId: z.string().nullable(),
        status: z.enum(['issued', 'not_issued_yet', 'not_covered', 'cancelled']),
        statusText: z.string(),
        offeringName: z.string(),
        supportEmail: z.string(),
        premium: Dollars,
        currency: z.string(),
        policyNumber: z.string().nullable(),
        documentUrl: z.string().nullable(),
        coveredStartTime: Iso,
        coveredEndTime: Iso,
      }),
    ),
  })
  .openapi('PublicCoverage');

// ---------------------------------------------------------------------------------------------
// Message requests (the underwriter calls Berth)

export const MessageBody = z
  .object({
    policyNumber: z.string().trim().min(1).max(100).optional().openapi({ description: 'The policy, by the number the underwriter issued' }),
    quoteId: z.string().trim().min(1).max(500).optional().openapi({ description: "Or by the underwriter's quote id" }),
    category: z.enum(MESSAGE_CATEGORIES),
    subject: z.string().trim().min(1).max(150).optional(),
    text: z.string().trim().min(1).max(5000).openapi({ description: 'Plain text: it is escaped and placed in Berth\u2019s template' }),
  })
  .refine((b) => !!b.policyNumber || !!b.quoteId, { message: 'policyNumber or quoteId is required', path: ['policyNumber'] })
  .openapi('CoverageMessageRequest');

export const MessageResult = z
  .object({
    messageId: z.string(),
    policyId: z.string(),
    category: z.enum(MESSAGE_CATEGORIES),
    duplicate: z.boolean().openapi({ description: 'This category was already sent for this policy: nothing was sent again' }),
    createdAt: z.string(),
  })
  .openapi('CoverageMessageResult');
