import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, real, index, uniqueIndex, check, primaryKey } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/** The sales and refunds of a Z report's range as stored with it (amounts in dollars, as the report answers them). */
export interface ZReportTotals {
  salesCount: number;
  grossSales: number;
  taxCollected: number;
  discounts: number;
  salesByPaymentType: Record<string, number>;
  refundCount: number;
  refundsByMethod: Record<string, number>;
}

/** Point-of-sale products of a location. `taxRate` is a percentage; a product with `allowNegativeStock` may be sold below zero. */
export const posItems = sqliteTable(
  'pos_items',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    name: text('name').notNull(),
    category: text('category'),
    taxRate: real('tax_rate').notNull().default(0),
    image: text('image'),
    tags: json<string[]>('tags')
      .notNull()
      .$defaultFn(() => []),
    allowNegativeStock: integer('allow_negative_stock', { mode: 'boolean' }).notNull().default(false),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('pos_items_location_idx').on(t.customerId, t.locationId)],
);

/** Sellable variants of a product; `price` in cents per unit. */
export const posVariants = sqliteTable(
  'pos_variants',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    itemId: text('item_id').notNull(),
    name: text('name').notNull(),
    sku: text('sku'),
    price: integer('price').notNull(),
    unit: text('unit'),
    position: integer('position').notNull().default(0),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('pos_variants_item_idx').on(t.itemId)],
);

/**
 * Stock per variant: the location's stock (`tillId` = '') and each till's own. Quantities change
 * only by `quantity = quantity + delta` in one statement; the CHECK makes a change (and its whole
 * batch, such as a sale) fail instead of going below zero unless the product allows it.
 */
export const posStock = sqliteTable(
  'pos_stock',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    itemId: text('item_id').notNull(),
    variantId: text('variant_id').notNull(),
    tillId: text('till_id').notNull().default(''),
    quantity: integer('quantity').notNull().default(0),
    allowNegative: integer('allow_negative', { mode: 'boolean' }).notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('pos_stock_variant_till_uq').on(t.variantId, t.tillId),
    index('pos_stock_item_idx').on(t.itemId),
    check('pos_stock_nonnegative', sql`${t.quantity} >= 0 OR ${t.allowNegative} = 1`),
  ],
);

/** Folders (buttons of the register screen) of a location, optionally of one till. */
export const posFolders = sqliteTable(
  'pos_folders',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    tillId: text('till_id'),
    name: text('name').notNull(),
    color: text('color'),
    favorite: integer('favorite', { mode: 'boolean' }).notNull().default(false),
    position: integer('position').notNull().default(0),
    ...timestamps(),
  },
  (t) => [index('pos_folders_location_idx').on(t.customerId, t.locationId, t.position)],
);

/** Products in a folder (a product may sit in several folders). */
export const posFolderItems = sqliteTable(
  'pos_folder_items',
  {
    folderId: text('folder_id').notNull(),
    itemId: text('item_id').notNull(),
    customerId: tenant(),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.itemId] }), index('pos_folder_items_item_idx').on(t.itemId)],
);

/**
 * Sales and cash-drawer movements. Amounts in cents. `refundedAmount` grows by conditional
 * UPDATEs only and can never pass `total` (CHECK), so racing partial refunds cannot over-refund.
 */
export const posTransactions = sqliteTable(
  'pos_transactions',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    tillId: text('till_id'),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['sale', 'opening_float', 'paid_in', 'paid_out'] }).notNull(),
    paymentType: text('payment_type').notNull(),
    accountId: text('account_id'),
    rentalId: text('rental_id'),
    settleBooking: integer('settle_booking', { mode: 'boolean' }).notNull().default(false),
    currency: text('currency').notNull().default('usd'),
    lines: json<Record<string, unknown>[]>('lines')
      .notNull()
      .$defaultFn(() => []),
    subtotal: integer('subtotal').notNull().default(0),
    discountTotal: integer('discount_total').notNull().default(0),
    taxTotal: integer('tax_total').notNull().default(0),
    total: integer('total').notNull().default(0),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    /** The gift-card lines' part of `refundedAmount` (the rest is the products'): each part is capped by its own lines' total. */
    giftCardRefunded: integer('gift_card_refunded').notNull().default(0),
    discountPercentage: real('discount_percentage'),
    discountAmount: integer('discount_amount'),
    paymentIntentId: text('payment_intent_id'),
    note: text('note'),
    settled: integer('settled', { mode: 'boolean' }).notNull().default(false),
    settledAt: text('settled_at'),
    settlementId: text('settlement_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('pos_transactions_location_idx').on(t.customerId, t.locationId, t.createdAt),
    index('pos_transactions_till_idx').on(t.customerId, t.tillId, t.createdAt),
    index('pos_transactions_rental_idx').on(t.customerId, t.rentalId),
    uniqueIndex('pos_transactions_intent_uq').on(t.paymentIntentId),
    check('pos_transactions_refund_cap', sql`${t.refundedAmount} >= 0 AND ${t.refundedAmount} <= ${t.total}`),
  ],
);

/** Refunds of a sale: each its own row and ledger entry (a sale is never edited into a negative). */
export const posRefunds = sqliteTable(
  'pos_refunds',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    transactionId: text('transaction_id').notNull(),
    locationId: text('location_id').notNull(),
    tillId: text('till_id'),
    refundType: text('refund_type', { enum: ['full', 'partial'] }).notNull(),
    method: text('method').notNull(),
    amount: integer('amount').notNull(),
    providerRefundId: text('provider_refund_id'),
    restocked: json<{ variantId: string; quantity: number }[]>('restocked')
      .notNull()
      .$defaultFn(() => []),
    reason: text('reason'),
    settlementId: text('settlement_id'),
    createdAt: createdAt(),
  },
  (t) => [index('pos_refunds_transaction_idx').on(t.transactionId), index('pos_refunds_location_idx').on(t.customerId, t.locationId, t.createdAt)],
);

/**
 * Cash-drawer settlements (Z reports), immutable once written and numbered per location. The
 * server's expected cash and difference are kept next to the figures the client sent.
 */
export const posSettlements = sqliteTable(
  'pos_settlements',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    /** The drawer (till) settled; '' for every drawer of the location. */
    drawerId: text('drawer_id').notNull().default(''),
    number: integer('number').notNull(),
    rangeStart: text('range_start').notNull(),
    rangeEnd: text('range_end').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** Cents. */
    openingFloat: integer('opening_float').notNull(),
    cashSales: integer('cash_sales').notNull(),
    paidIn: integer('paid_in').notNull(),
    paidOut: integer('paid_out').notNull(),
    cashRefunds: integer('cash_refunds').notNull(),
    expectedCash: integer('expected_cash').notNull(),
    countedCash: integer('counted_cash'),
    difference: integer('difference'),
    clientExpectedCash: integer('client_expected_cash'),
    clientDifference: integer('client_difference'),
    cashBreakdown: json<Record<string, number>>('cash_breakdown'),
    totals: json<ZReportTotals>('totals').notNull(),
    transactionCount: integer('transaction_count').notNull(),
    userId: text('user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pos_settlements_number_uq').on(t.customerId, t.locationId, t.number),
    uniqueIndex('pos_settlements_range_uq').on(t.customerId, t.locationId, t.drawerId, t.rangeStart, t.rangeEnd),
    index('pos_settlements_drawer_idx').on(t.customerId, t.locationId, t.drawerId, t.rangeEnd),
  ],
);

/** Connected (merchant) accounts an operator created through POST /pos/account, per provider region. */
export const posConnectedAccounts = sqliteTable(
  'pos_connected_accounts',
  {
    accountId: text('account_id').primaryKey(),
    customerId: tenant(),
    region: text('region', { enum: ['US', 'CA'] }).notNull(),
    country: text('country').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pos_connected_accounts_customer_idx').on(t.customerId)],
);
