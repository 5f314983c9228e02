import { z } from '@hono/zod-openapi';
import { zEmail } from '../../lib/openapi';

const code = () => z.string().trim().min(1).max(64).openapi({ example: 'SUMMER10' });
const id = () => z.string().trim().min(1).max(128);
const currency = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, 'must be a three-letter ISO 4217 code')
    .openapi({ example: 'usd' });
const dollars = () => z.number().finite().nonnegative().max(1_000_000).openapi({ description: 'Dollars' });
const positiveDollars = () => z.number().finite().positive().max(1_000_000).openapi({ description: 'Dollars' });
const dateOrInstant = () =>
  z
    .string()
    .trim()
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date (YYYY-MM-DD) or an ISO 8601 instant')
    .openapi({ example: '2027-12-31' });

export const Details = z.record(z.string(), z.unknown()).openapi({
  description: `Must hold exactly one of \`$Discount\` (dollars off; for a gift card its value) or \`%Discount\` (percent off, above 0 and at most 100). Optional \`type\` (\`promo\` default, or \`gift_card\`), \`usageLimit\` (uses allowed), \`active\`.`,
  example: { '%Discount': 10 },
});

export const ListQuery = z.object({
  customerId: id(),
  promoCode: code().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const CreateBody = z
  .object({
    promoCode: code(),
    customerId: id(),
    currency: currency()
      .optional()
      .openapi({
        description:
          "The currency of an amount off or a gift card's value: the location's when `locationId` is given, " +
          'else one the operator sells in (required when it sells in several)',
      }),
    ExpiryDate: dateOrInstant().openapi({ description: 'A date (valid through that day, UTC) or an instant' }),
    Details,
    inventoryIds: z.array(id()).max(200).optional(),
    locationId: id().optional(),
    affiliateId: id().optional(),
    usageLimit: z
      .number()
      .int()
      .min(1)
      .max(10_000_000)
      .optional()
      .openapi({ description: 'Uses allowed in total (promo codes); also accepted as `Details.usageLimit`' }),
  })
  .openapi('CreatePromoCode');

export const UpdateBody = z
  .object({
    promoCode: code(),
    customerId: id(),
    Updates: z
      .object({
        ExpiryDate: dateOrInstant().nullable().optional(),
        Details: Details.optional(),
        inventoryIds: z.array(id()).max(200).optional(),
        locationId: id().nullable().optional(),
        affiliateId: id().nullable().optional(),
        usageLimit: z.number().int().min(1).max(10_000_000).nullable().optional(),
        active: z.boolean().optional(),
      })
      .strict(),
  })
  .openapi('UpdatePromoCode');

export const DeleteQuery = z.object({ promoCode: code(), customerId: id() });
export const SearchQuery = z.object({ promoCode: code() });
export const BalanceQuery = z.object({ promoCode: code(), customerId: id().optional() });
export const UseBody = z
  .object({
    promoCode: code(),
    customerId: id(),
    orderAmount: dollars().openapi({ description: 'Dollars: the order total the code applies to' }),
    userId: id().optional(),
    currency: currency().optional().openapi({ description: "The order's currency (default: the location's, else the code's own)" }),
    locationId: id().optional().openapi({ description: 'Where the order is made: a code of another location is refused, and the order is in its currency' }),
  })
  .openapi('UsePromoCode');
export const AffiliateParams = z.object({ affiliateId: id() });
export const AffiliateQuery = z.object({ customerId: id() });

export const PromoCode = z
  .object({
    promoCode: z.string(),
    customerId: z.string(),
    kind: z.enum(['promo', 'gift_card']),
    Details: z.record(z.string(), z.unknown()),
    ExpiryDate: z.string().nullable(),
    inventoryIds: z.array(z.string()),
    locationId: z.string().nullable(),
    affiliateId: z.string().nullable(),
    usageLimit: z.number().nullable(),
    timesUsed: z.number(),
    remainingUses: z.number().nullable(),
    balance: z.number().nullable().openapi({ description: 'Gift cards: dollars left' }),
    currency: z.string(),
    active: z.boolean(),
    expired: z.boolean(),
    recipientName: z.string().nullable(),
    recipientEmail: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PromoCode');

export const PromoList = z.object({ data: z.array(PromoCode), total: z.number(), limit: z.number(), offset: z.number() }).openapi('PromoCodeList');
export const SearchResult = z.object({ data: z.array(PromoCode) }).openapi('PromoCodeSearch');

export const Balance = z
  .object({
    promoCode: z.string(),
    kind: z.enum(['promo', 'gift_card']),
    balance: z.number().nullable(),
    initialValue: z.number().nullable(),
    currency: z.string(),
    remainingUses: z.number().nullable(),
    expired: z.boolean(),
    active: z.boolean(),
    ExpiryDate: z.string().nullable(),
    entries: z.array(z.object({ kind: z.string(), amount: z.number(), reference: z.string().nullable(), createdAt: z.string() })),
  })
  .openapi('GiftCardBalance');

export const UseResult = z
  .object({
    useId: z.string(),
    promoCode: z.string(),
    kind: z.enum(['promo', 'gift_card']),
    orderAmount: z.number(),
    discount: z.number().openapi({ description: 'Dollars taken off (promo) or redeemed (gift card)' }),
    finalAmount: z.number(),
    timesUsed: z.number(),
    remainingUses: z.number().nullable(),
    balance: z.number().nullable(),
    affiliateId: z.string().nullable(),
    commission: z.number(),
    commissionRate: z.number().nullable(),
  })
  .openapi('PromoUseResult');

export const AffiliateStats = z
  .object({
    affiliateId: z.string(),
    name: z.string(),
    percentageEarned: z.number(),
    uses: z.number(),
    revenue: z.number().openapi({ description: 'Dollars: order amounts after discount of the active uses' }),
    discounts: z.number(),
    commission: z.number(),
    codes: z.array(z.object({ promoCode: z.string(), uses: z.number(), revenue: z.number(), commission: z.number() })),
  })
  .openapi('AffiliatePromoAnalytics');

export const Deleted = z.object({ success: z.boolean(), promoCode: z.string() }).openapi('PromoCodeDeleted');

// Public gift-card purchase

export const CreateIntentBody = z
  .object({
    amount: positiveDollars().openapi({ description: 'Dollars: total charged, fees included' }),
    customerId: id(),
    giftCardCode: code(),
    giftCardAmount: positiveDollars().optional().openapi({ description: "Dollars: the card's value (defaults to amount)" }),
    recipientName: z.string().trim().max(200).optional(),
    recipientEmail: zEmail().optional(),
    message: z.string().trim().max(2000).optional(),
    expiryDate: dateOrInstant().optional(),
    currency: currency()
      .optional()
      .openapi({ description: "One the operator sells in (its locations' currencies); default its only one. The card holds this currency." }),
    connectAccountId: id().optional(),
    applicationFeeAmount: z.number().int().min(0).optional().openapi({ description: 'Cents: the platform fee of a connected-account charge' }),
    paymentMethodId: id()
      .optional()
      .openapi({ description: 'Confirm at once with this payment method (server-side confirmation); otherwise the client confirms with the client secret' }),
  })
  .openapi('GiftCardPaymentIntentRequest');

export const PaymentIntentOut = z
  .object({
    paymentIntentId: z.string(),
    clientSecret: z.string(),
    status: z.string(),
    amount: z.number(),
    currency: z.string(),
    giftCardCode: z.string(),
    giftCardAmount: z.number(),
  })
  .openapi('GiftCardPaymentIntent');

export const ConfirmBody = z.object({ paymentIntentId: id() }).openapi('GiftCardConfirm');

export const GiftCardOut = z
  .object({
    giftCard: PromoCode,
    paymentIntentId: z.string().nullable(),
    amountCharged: z.number(),
    created: z.boolean().openapi({ description: 'false when the card already existed (a replayed confirmation or the webhook came first)' }),
  })
  .openapi('GiftCardIssued');

export const SendEmailBody = z
  .object({
    giftCardCode: code(),
    giftCardAmount: positiveDollars(),
    recipientEmail: zEmail(),
    customerId: id(),
    recipientName: z.string().trim().max(200).optional(),
    message: z.string().trim().max(2000).optional(),
    expiryDate: dateOrInstant().optional(),
  })
  .openapi('GiftCardEmail');

export const GiftCardEmailSent = z
  .object({ success: z.literal(true), messageId: z.string().openapi({ description: 'The queued message (GET /outbox/messages)' }), to: z.string() })
  .openapi('GiftCardEmailSent');
export const WebhookResult = z
  .object({
    received: z.literal(true),
    handled: z.boolean().openapi({ description: 'false for events that are not the payment of a gift-card purchase' }),
    eventId: z.string().nullable(),
    giftCardCode: z.string().optional().openapi({ description: 'The card issued (or issued before) for the payment' }),
    created: z.boolean().optional().openapi({ description: 'false when the card was already issued by confirm-payment or an earlier delivery' }),
    refunded: z.boolean().optional().openapi({ description: 'true when the code was taken by another card and the payment was refunded' }),
  })
  .openapi('GiftCardWebhookResult');

export const ChargeSavedCardBody = z
  .object({
    paymentMethodId: id(),
    amount: positiveDollars(),
    customerId: id(),
    currency: currency().optional().openapi({ description: 'One the operator sells in; default its only one. The card holds this currency.' }),
    stripeCustomerId: id().optional(),
    description: z.string().trim().max(500).optional(),
    metadata: z.record(z.string().max(40), z.union([z.string().max(500), z.number(), z.boolean()])).optional(),
    connectAccountId: id().optional(),
    applicationFeeAmount: z.number().int().min(0).optional(),
  })
  .openapi('GiftCardChargeSavedCard');
