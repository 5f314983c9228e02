import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';
import { BookBody, BookResult } from '../bookings/types';
import { DEPOSIT_EFFECTS, FIELD_TYPES, QUOTE_STATUSES } from './types';
import { Dollars, Iso } from './schemas-fields';

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
