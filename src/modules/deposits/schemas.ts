import { z } from '@hono/zod-openapi';

const id = () => z.string().trim().min(1).max(128);
const dollars = () => z.number().finite().positive().max(1_000_000).multipleOf(0.01, 'at most 2 decimals (dollars and cents)');

export const AuthorizeBody = z
  .object({
    rentalId: id(),
    authorizeAmount: dollars().min(0.5, 'must be at least 0.50').openapi({ description: 'Dollars to hold', example: 250 }),
    paymentMethodType: z.enum(['card', 'terminal', 'card_present']).openapi({
      description: '`card`: charge a saved card or test token now (needs `paymentMethodId`). `terminal` / `card_present`: a card reader (needs `readerId`).',
    }),
    currency: z.string().trim().length(3).toLowerCase().optional(),
    description: z.string().trim().max(500).optional(),
    customer: z.string().trim().max(128).optional().openapi({ description: 'Payment-provider customer id the card belongs to' }),
    paymentMethodId: z.string().trim().min(1).max(128).optional(),
    notes: z.string().trim().max(2000).optional(),
    readerId: z.string().trim().min(1).max(128).optional(),
    connectedAccountId: z.string().trim().max(128).optional(),
    platformFeePercent: z.number().min(0).max(100).optional(),
    customerId: z.string().trim().max(128).optional(),
    locationId: z.string().trim().max(128).optional(),
  })
  .openapi('AuthorizeDeposit');

export const PostDepositBody = z
  .object({
    rentalId: id(),
    intentId: id(),
    authorizeAmount: dollars().optional().openapi({ description: 'When given, must equal the amount of the intent (dollars)' }),
    customerId: z.string().trim().max(128).optional(),
    locationId: z.string().trim().max(128).optional(),
    notes: z.string().trim().max(2000).optional(),
    connectId: z.string().trim().max(128).optional(),
  })
  .openapi('PostDeposit');

export const CaptureBody = z
  .object({
    rentalId: id(),
    paymentIntentId: id(),
    captureAmount: dollars().openapi({ description: 'Dollars to capture; less than the hold captures part and releases the rest', example: 80 }),
    connectedAccountId: z.string().trim().max(128).optional(),
    description: z.string().trim().max(500).optional(),
    claimType: z.string().trim().max(100).optional().openapi({ example: 'damage' }),
    feeInCents: z.number().int().min(0).max(100_000_000).optional().openapi({ description: 'Platform fee kept from the capture, in cents' }),
    locationId: z.string().trim().max(128).optional(),
  })
  .openapi('CaptureDeposit');

export const ReleaseBody = z
  .object({
    rentalId: id(),
    paymentIntentId: id(),
    amount: dollars().optional().openapi({ description: 'When given, must equal the held amount (a hold is released whole)' }),
    customerId: z
      .string()
      .trim()
      .max(128)
      .optional()
      .openapi({ description: "The operator account (must be the caller's); with `locationId` the renter is e-mailed" }),
    locationId: z.string().trim().max(128).optional(),
    connectedAccountId: z.string().trim().max(128).optional(),
  })
  .openapi('ReleaseDeposit');

export const SyncParams = z.object({ paymentIntentId: id() });
export const SyncBody = z
  .object({
    rentalId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "The rental to attach the intent to; defaults to the intent's `rentalId` metadata" }),
    locationId: z.string().trim().max(128).optional(),
  })
  .openapi('SyncPreauth');

export const AuditParams = z.object({ rentalId: id() });
export const AuditQuery = z.object({
  locationId: z.string().trim().max(128).optional(),
  connected_account_id: z.string().trim().max(128).optional(),
});

export const ConnectionTokenBody = z.object({ locationId: z.string().trim().min(1).max(128).optional() }).openapi('ConnectionTokenRequest');

export const Deposit = z
  .object({
    depositId: z.string(),
    rentalId: z.string(),
    locationId: z.string().nullable(),
    paymentIntentId: z.string(),
    method: z.enum(['card', 'terminal']),
    readerId: z.string().nullable(),
    status: z.enum(['pending', 'authorized', 'captured', 'partially_captured', 'released', 'failed']),
    amount: z.number().openapi({ description: 'Dollars held' }),
    capturedAmount: z.number().openapi({ description: 'Dollars captured' }),
    currency: z.string(),
    notes: z.string().nullable(),
    claimType: z.string().nullable(),
    releasedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Deposit');

export const ProviderState = z
  .object({
    status: z.string(),
    amount: z.number(),
    amountCapturable: z.number(),
    amountReceived: z.number(),
    captureMethod: z.string(),
    lastError: z.string().nullable(),
  })
  .openapi('ProviderIntentState');

export const AuthorizeResponse = Deposit.extend({
  provider: ProviderState,
  clientSecret: z.string().nullable().openapi({ description: "Terminal payments: the intent's client secret for the reader SDK" }),
  nextStep: z.string().nullable(),
}).openapi('DepositAuthorization');

export const DepositWithProvider = Deposit.extend({ provider: ProviderState.nullable() }).openapi('DepositWithProvider');

export const ReleaseResponse = DepositWithProvider.extend({ notified: z.boolean(), notifiedTo: z.string().nullable() }).openapi('DepositRelease');
export const SyncResponse = DepositWithProvider.extend({ synced: z.boolean() }).openapi('DepositSync');

export const AuditResponse = z
  .object({
    rentalId: z.string(),
    deposits: z.array(DepositWithProvider.extend({ expectedStatus: z.string().nullable(), inSync: z.boolean() })),
    untracked: z.array(z.object({ paymentIntentId: z.string(), provider: ProviderState.nullable() })),
    totals: z.object({ authorized: z.number(), captured: z.number(), released: z.number(), currency: z.string() }),
  })
  .openapi('DepositAudit');

export const ConnectionToken = z.object({ secret: z.string(), locationId: z.string().nullable() }).openapi('ConnectionToken');

export const CaptureResponse = DepositWithProvider.extend({
  releasedAmount: z.number().openapi({ description: 'Dollars of the hold released by a partial capture' }),
  feeInCents: z.number(),
}).openapi('DepositCapture');
