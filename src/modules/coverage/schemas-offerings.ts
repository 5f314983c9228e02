import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zOffset } from '../../lib/openapi';
import { MAX_QUOTE_TIMEOUT_MS, RESCHEDULE_DELIVERIES } from './types';
import { country, currency, page, uniqueList } from './schemas-fields';

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
      description:
        '`ok`, `timeout`, `network` (unreachable, or refused by the outbound URL policy), `http_error`, `invalid_json`, `too_large` ' +
        'or `rejected` (an answer that breaks the contract)',
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
