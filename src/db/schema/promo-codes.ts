import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, real, index, uniqueIndex, check } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Promo codes and gift cards of an operator: one table, one code per operator (case-insensitive,
 * `codeKey` is the lower-cased code). A promo code takes `percentOff` or `amountOff` per use and
 * may have a `usageLimit`; a gift card has a balance.
 *
 * Race-proof counters: `timesUsed` and `balance` change only in single UPDATE statements, and the
 * CHECK constraints make any statement (and so its whole D1 batch) fail rather than exceed the usage
 * limit or spend below zero. `balance` is the running sum of the card's `gift_card_entries`, always
 * written in the same batch as the entry.
 */
export const promoCodes = sqliteTable(
  'promo_codes',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    code: text('code').notNull(),
    codeKey: text('code_key').notNull(),
    kind: text('kind', { enum: ['promo', 'gift_card'] }).notNull(),
    details: json<Record<string, unknown>>('details').notNull(),
    percentOff: real('percent_off'),
    /** Cents (promo codes: per use; gift cards: the value issued). */
    amountOff: integer('amount_off'),
    expiryDate: text('expiry_date'),
    inventoryIds: json<string[]>('inventory_ids')
      .notNull()
      .$defaultFn(() => []),
    locationId: text('location_id'),
    affiliateId: text('affiliate_id'),
    usageLimit: integer('usage_limit'),
    timesUsed: integer('times_used').notNull().default(0),
    /** Gift cards: cents left (the sum of the card's entries). */
    balance: integer('balance').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    message: text('message'),
    /** Gift cards bought online: the payment intent that paid for it (unique: one card per payment). */
    paymentIntentId: text('payment_intent_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('promo_codes_customer_code_uq').on(t.customerId, t.codeKey),
    uniqueIndex('promo_codes_payment_intent_uq').on(t.paymentIntentId),
    index('promo_codes_code_idx').on(t.codeKey),
    index('promo_codes_affiliate_idx').on(t.customerId, t.affiliateId),
    check('promo_codes_usage_limit', sql`${t.timesUsed} >= 0 AND (${t.usageLimit} IS NULL OR ${t.timesUsed} <= ${t.usageLimit})`),
    check('promo_codes_balance_nonnegative', sql`${t.balance} >= 0`),
  ],
);

/** The balance ledger of gift cards: issue and purchase (+), redemptions (-), releases of a cancelled booking's redemption (+). */
export const giftCardEntries = sqliteTable(
  'gift_card_entries',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    promoCodeId: text('promo_code_id').notNull(),
    kind: text('kind', { enum: ['issue', 'purchase', 'redeem', 'release', 'adjust'] }).notNull(),
    /** Signed cents. */
    amount: integer('amount').notNull(),
    useId: text('use_id'),
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (t) => [index('gift_card_entries_card_idx').on(t.promoCodeId, t.createdAt)],
);

/**
 * One use of a code (POST /promoGiftCards/use or a booking): the discount or the amount redeemed,
 * the affiliate and the commission at the rate of that moment. A booking's use stays `active`
 * until every rental of the order is cancelled, then it is `released` (the count and the
 * redeemed amount are given back once).
 */
export const promoUses = sqliteTable(
  'promo_uses',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    promoCodeId: text('promo_code_id').notNull(),
    code: text('code').notNull(),
    kind: text('kind', { enum: ['promo', 'gift_card'] }).notNull(),
    source: text('source', { enum: ['api', 'booking'] }).notNull(),
    /** Cents. */
    orderAmount: integer('order_amount').notNull(),
    discount: integer('discount').notNull(),
    userId: text('user_id'),
    affiliateId: text('affiliate_id'),
    commissionRate: real('commission_rate'),
    commission: integer('commission').notNull().default(0),
    transactionId: text('transaction_id'),
    rentalIds: json<string[]>('rental_ids')
      .notNull()
      .$defaultFn(() => []),
    openRentals: integer('open_rentals').notNull().default(0),
    status: text('status', { enum: ['active', 'released'] })
      .notNull()
      .default('active'),
    releasedAt: text('released_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('promo_uses_code_idx').on(t.promoCodeId),
    index('promo_uses_affiliate_idx').on(t.customerId, t.affiliateId),
    index('promo_uses_transaction_idx').on(t.customerId, t.transactionId),
  ],
);

/**
 * Online gift-card purchases: created with the payment intent (POST /public/gift-card/create-payment-intent),
 * completed once (confirm-payment or the provider's webhook, whichever comes first) when the card is issued.
 */
export const giftCardPurchases = sqliteTable(
  'gift_card_purchases',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    paymentIntentId: text('payment_intent_id').notNull(),
    code: text('code').notNull(),
    /** Cents: the card's value and the total charged (value plus fees). */
    giftCardAmount: integer('gift_card_amount').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    message: text('message'),
    expiryDate: text('expiry_date'),
    status: text('status', { enum: ['pending', 'completed', 'refunded'] })
      .notNull()
      .default('pending'),
    promoCodeId: text('promo_code_id'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('gift_card_purchases_intent_uq').on(t.paymentIntentId), index('gift_card_purchases_customer_idx').on(t.customerId)],
);
