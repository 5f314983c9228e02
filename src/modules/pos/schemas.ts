import { z } from '@hono/zod-openapi';
import { MoneyViewSchema } from '../../lib/money-view';

const id = () => z.string().trim().min(1).max(128);
const dollars = () => z.number().finite().nonnegative().max(1_000_000).openapi({ description: 'Dollars' });
/** Dollars per unit, to a tenth of a cent: a fuel price such as 5.899 is kept as it is. */
const unitPrice = () =>
  z
    .number()
    .finite()
    .nonnegative()
    .max(1_000_000)
    .refine((d) => Math.abs(d * 1000 - Math.round(d * 1000)) < 1e-6, 'at most three decimals (a tenth of a cent)')
    .openapi({ description: 'Dollars per unit, to a tenth of a cent (at most three decimals, e.g. 5.899 a gallon)' });
const cents = () => z.number().int().positive().max(100_000_000).openapi({ description: 'Cents, a positive integer' });
const region = () => z.enum(['US', 'CA']).optional().openapi({ description: 'Platform account of the payment provider (default US)' });

export const Variant = z.object({
  variantId: id().optional().openapi({ description: 'Keep (PUT) an existing variant; omit for a new one' }),
  name: z.string().trim().min(1).max(200).default('Default'),
  price: unitPrice(),
  quantity: z.number().int().min(-1_000_000).max(1_000_000).optional().openapi({ description: 'Initial stock of a new variant (whole units)' }),
  sku: z.string().trim().max(64).optional(),
  unit: z.string().trim().max(32).optional(),
});

export const LocationQuery = z.object({
  locationId: id(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});
export const GasQuery = z.object({ locationId: id() });

export const CreateItemBody = z
  .object({
    locationId: id(),
    name: z.string().trim().min(1).max(200),
    category: z.string().trim().max(100).optional(),
    taxRate: z.number().min(0).max(100).optional().openapi({ description: 'Percent' }),
    image: z.string().trim().max(2000).optional(),
    variants: z.array(Variant).max(100).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
    price: unitPrice()
      .optional()
      .openapi({ description: 'Price of the single default variant when `variants` is not given (dollars per unit, to a tenth of a cent)' }),
    allowNegativeStock: z.boolean().optional(),
    folderIds: z.array(id()).max(50).optional(),
  })
  .openapi('CreatePosItem');

export const UpdateItemBody = z
  .object({
    locationId: id(),
    itemId: id(),
    name: z.string().trim().min(1).max(200).optional(),
    category: z.string().trim().max(100).nullable().optional(),
    taxRate: z.number().min(0).max(100).optional(),
    image: z.string().trim().max(2000).nullable().optional(),
    variants: z.array(Variant).min(1).max(100).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
    allowNegativeStock: z.boolean().optional(),
    folderIds: z.array(id()).max(50).optional(),
  })
  .openapi('UpdatePosItem');

export const StockChangeBody = z
  .object({
    locationId: id(),
    itemId: id(),
    variantId: id(),
    quantity: z.number().int().min(-1_000_000).max(1_000_000).openapi({ description: 'Signed change in whole units (negative takes stock out)' }),
  })
  .openapi('PosStockChange');

export const TillStockChangeBody = StockChangeBody.extend({ tillId: id() }).openapi('PosTillStockChange');
export const DeleteItemBody = z.object({ locationId: id(), itemId: id() }).openapi('DeletePosItem');

export const StockLine = z.object({ tillId: z.string().nullable(), quantity: z.number() });
export const PosVariantOut = z.object({
  variantId: z.string(),
  name: z.string(),
  price: z.number(),
  sku: z.string().nullable(),
  unit: z.string().nullable(),
  quantity: z.number().openapi({ description: "The location's stock" }),
  tills: z.array(z.object({ tillId: z.string(), quantity: z.number() })),
});
export const PosItem = z
  .object({
    itemId: z.string(),
    locationId: z.string(),
    name: z.string(),
    category: z.string().nullable(),
    taxRate: z.number(),
    image: z.string().nullable(),
    tags: z.array(z.string()),
    allowNegativeStock: z.boolean(),
    folderIds: z.array(z.string()),
    variants: z.array(PosVariantOut),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PosItem');
export const PosItemList = z.object({ data: z.array(PosItem), total: z.number(), limit: z.number(), offset: z.number() }).openapi('PosItemList');
export const StockOut = z
  .object({ itemId: z.string(), variantId: z.string(), tillId: z.string().nullable(), quantity: z.number(), change: z.number() })
  .openapi('PosStock');
export const GasPrice = z
  .object({
    itemId: z.string(),
    name: z.string(),
    variantId: z.string(),
    price: z.number().openapi({ description: 'Dollars per unit, to a tenth of a cent (5.899)' }),
    unit: z.string(),
    taxRate: z.number(),
    currency: z.string(),
    variants: z.array(z.object({ variantId: z.string(), name: z.string(), price: z.number(), unit: z.string().nullable() })),
  })
  .openapi('PosGasPrice');

// Folders

export const FolderQuery = z.object({ locationId: id(), tillId: id().optional() });
export const CreateFolderBody = z
  .object({
    locationId: id(),
    name: z.string().trim().min(1).max(100),
    color: z.string().trim().max(32).optional(),
    tillId: id().optional(),
    favorite: z.boolean().optional(),
    itemIds: z.array(id()).max(500).optional(),
  })
  .openapi('CreatePosFolder');
export const UpdateFolderBody = z
  .object({
    locationId: id(),
    folderId: id(),
    name: z.string().trim().min(1).max(100).optional(),
    color: z.string().trim().max(32).nullable().optional(),
    favorite: z.boolean().optional(),
    tillId: id().nullable().optional(),
    itemIds: z.array(id()).max(500).optional(),
  })
  .openapi('UpdatePosFolder');
export const DeleteFolderBody = z.object({ locationId: id(), folderId: id() }).openapi('DeletePosFolder');
export const ReorderBody = z.object({ locationId: id(), folderOrder: z.array(id()).min(1).max(500) }).openapi('ReorderPosFolders');
export const DuplicateBody = z.object({ locationId: id(), sourceTillId: id(), targetTillId: id() }).openapi('DuplicatePosFolders');
export const Folder = z
  .object({
    folderId: z.string(),
    locationId: z.string(),
    tillId: z.string().nullable(),
    name: z.string(),
    color: z.string().nullable(),
    favorite: z.boolean(),
    position: z.number(),
    itemIds: z.array(z.string()),
  })
  .openapi('PosFolder');
export const FolderList = z.object({ data: z.array(Folder) }).openapi('PosFolderList');

// Transactions

export const PAYMENT_TYPES = ['cash', 'card', 'terminal', 'account', 'opening_float', 'paid_in', 'paid_out'] as const;

export const TransactionLine = z.object({
  itemId: id(),
  variantId: id().optional().openapi({ description: 'Required when the product has more than one variant' }),
  quantity: z.number().int().min(1).max(10_000).default(1),
});

export const GiftCardSaleLine = z
  .object({
    action: z.enum(['issue', 'reload']).openapi({ description: 'issue: a new card; reload: add value to an existing card (by code)' }),
    code: z
      .string()
      .trim()
      .max(64)
      .optional()
      .openapi({ description: 'issue: the new code (at least 6 characters, unique per operator; generated when omitted); reload: the card' }),
    amount: z.number().finite().positive().max(1_000_000).openapi({ description: 'Dollars loaded on the card (two decimals at most)' }),
    recipientName: z.string().trim().max(200).optional(),
    recipientEmail: z.string().trim().email().max(254).optional().openapi({ description: 'The gift e-mail (code, value, expiry) goes here' }),
    message: z.string().trim().max(1000).optional(),
    expiryDate: z
      .string()
      .trim()
      .max(40)
      .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date (YYYY-MM-DD) or an ISO instant')
      .optional()
      .openapi({ description: 'issue only: YYYY-MM-DD (valid through that day) or an ISO instant; in the future' }),
  })
  .openapi('PosGiftCardLine');

export const CreateTransactionBody = z
  .object({
    items: z.array(TransactionLine).max(200).default([]),
    giftCards: z
      .array(GiftCardSaleLine)
      .max(20)
      .optional()
      .openapi({
        description:
          'Gift cards sold or reloaded at the counter: paid with the sale (cash, card or terminal), recorded as gift card liability (not revenue), ' +
          'with no discount and no tax',
      }),
    locationId: id(),
    userId: id().openapi({ description: 'The cashier' }),
    paymentType: z.enum(PAYMENT_TYPES).default('cash'),
    accountId: id().optional().openapi({ description: 'paymentType account: the renter whose account is charged' }),
    discountPercentage: z.number().min(0).max(100).optional(),
    discountAmount: dollars().optional(),
    settleBooking: z.boolean().optional(),
    rentalId: id().optional(),
    tillId: id().optional(),
    paymentMethodId: id().optional().openapi({ description: 'paymentType card: a saved card or a test token (pm_card_visa)' }),
    stripeCustomerId: id().optional(),
    paymentIntentId: id().optional().openapi({ description: 'paymentType terminal: the intent the card reader completed' }),
    amount: dollars().optional().openapi({ description: 'Drawer movements (opening_float, paid_in, paid_out): the cash amount' }),
    note: z.string().trim().max(500).optional(),
  })
  .openapi('CreatePosTransaction');

export const TransactionQuery = z.object({
  locationId: id(),
  tillId: id().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const TransactionParams = z.object({ transactionId: id() });
export const RentalParams = z.object({ rentalId: id() });
export const SettleQuery = z.object({ transactionId: id() });

export const RefundBody = z
  .object({
    transactionId: id(),
    refundType: z.enum(['full', 'partial']),
    amount: dollars().optional().openapi({ description: 'Dollars; required for a partial refund' }),
    items: z
      .array(z.object({ variantId: id(), quantity: z.number().int().min(1).max(10_000) }))
      .max(200)
      .optional()
      .openapi({ description: 'Partial refund: the units returned to stock' }),
    giftCards: z
      .array(
        z.object({
          code: z.string().trim().min(1).max(64),
          amount: dollars().optional().openapi({ description: 'Dollars; default what is left of the line' }),
        }),
      )
      .max(20)
      .optional()
      .openapi({
        description:
          'Partial refund: gift-card lines of the sale refunded (their value is taken back off the card; 409 gift_card_spent when the card no longer ' +
          'holds it). `amount` is then the products part only (optional)',
      }),
    reason: z.string().trim().max(500).optional(),
  })
  .openapi('PosRefundRequest');

export const SettleRangeBody = z
  .object({
    locationId: id(),
    startDate: z
      .string()
      .trim()
      .max(40)
      .optional()
      .openapi({ description: "YYYY-MM-DD (from the start of that day in the location's zone) or an ISO instant" }),
    endDate: z.string().trim().max(40).optional().openapi({ description: 'YYYY-MM-DD (through the end of that day) or an ISO instant; at most now' }),
    drawerId: id().optional().openapi({ description: 'The till whose drawer is counted (all drawers of the location when omitted)' }),
    countedCash: dollars().optional(),
    expectedCash: z.number().finite().optional().openapi({ description: "The client's figure, kept beside the server's" }),
    difference: z.number().finite().optional().openapi({ description: "The client's figure, kept beside the server's" }),
    cashBreakdown: z.record(z.string().regex(/^\d+(\.\d{1,2})?$/, 'denomination in dollars'), z.number().int().min(0).max(1_000_000)).optional(),
  })
  .openapi('PosSettleRange');

const Money = z.number().openapi({ description: 'Dollars' });
export const TransactionLineOut = z
  .object({
    itemId: z.string().nullable().openapi({ description: 'The catalog product sold; null only on a line recorded without one (imported history)' }),
    variantId: z.string().nullable().openapi({ description: 'The variant sold; null only on a line recorded without a catalog product' }),
    name: z.string().openapi({ description: 'Product and variant name at the time of the sale' }),
    quantity: z.number().int(),
    unitPrice: Money,
    subtotal: Money.openapi({ description: 'Dollars: unit price × quantity' }),
    discount: Money.openapi({ description: "Dollars: this line's share of the sale's discount" }),
    taxRate: z.number().openapi({
      description: "Percent: the product's rate at the time of the sale (on a line recorded without one, the rate its tax makes, 2 decimals)",
    }),
    tax: Money,
    total: Money.openapi({ description: 'Dollars: subtotal − discount + tax' }),
    giftCard: z
      .object({ code: z.string(), action: z.enum(['issue', 'reload']) })
      .nullable()
      .openapi({ description: 'A gift-card line: the card sold or reloaded (itemId and variantId are null); null on a product line' }),
  })
  .openapi('PosTransactionLine', {
    description: 'Every field is answered on every line: the items of GET /pos/transaction, GET /pos/transaction/{transactionId} and the sale itself',
  });
export const TransactionOut = z
  .object({
    transactionId: z.string(),
    locationId: z.string(),
    tillId: z.string().nullable(),
    userId: z.string(),
    kind: z.enum(['sale', 'opening_float', 'paid_in', 'paid_out']),
    paymentType: z.string(),
    accountId: z.string().nullable(),
    rentalId: z.string().nullable(),
    settleBooking: z.boolean(),
    currency: z.string(),
    items: z.array(TransactionLineOut),
    subtotal: Money,
    discountTotal: Money,
    taxTotal: Money,
    total: Money,
    refundedAmount: Money,
    refundableAmount: Money,
    discountPercentage: z.number().nullable(),
    discountAmount: Money.nullable(),
    paymentIntentId: z.string().nullable(),
    note: z.string().nullable(),
    settled: z.boolean(),
    settledAt: z.string().nullable(),
    settlementId: z.string().nullable(),
    money: MoneyViewSchema.nullable().openapi({
      description:
        "The sale's money from the ledger (the one money view): what is left of its lines after returns, paid, refunded and the balance; " +
        'null for a drawer movement',
    }),
    createdAt: z.string(),
  })
  .openapi('PosTransaction');
export const TransactionList = z
  .object({ data: z.array(TransactionOut), total: z.number(), limit: z.number(), offset: z.number() })
  .openapi('PosTransactionList');
export const RentalTransactions = z.object({ data: z.array(TransactionOut) }).openapi('PosRentalTransactions');
export const RefundOut = z
  .object({
    refundId: z.string(),
    transactionId: z.string(),
    refundType: z.enum(['full', 'partial']),
    method: z.string(),
    amount: Money,
    providerRefundId: z.string().nullable(),
    restocked: z.array(z.object({ variantId: z.string(), quantity: z.number() })),
    giftCards: z
      .array(z.object({ code: z.string(), amount: Money }))
      .openapi({ description: 'Gift-card lines refunded: the value taken back off each card (a card sold by the sale and refunded in full is voided)' }),
    createdAt: z.string(),
    transaction: TransactionOut,
  })
  .openapi('PosRefund');
export const ZReport = z
  .object({
    settlementId: z.string(),
    zReportNumber: z.number(),
    locationId: z.string(),
    drawerId: z.string().nullable(),
    startDate: z.string(),
    endDate: z.string(),
    currency: z.string(),
    openingFloat: Money,
    cashSales: Money,
    paidIn: Money,
    paidOut: Money,
    cashRefunds: Money,
    expectedCash: Money,
    countedCash: Money.nullable(),
    difference: Money.nullable(),
    clientExpectedCash: Money.nullable(),
    clientDifference: Money.nullable(),
    cashBreakdown: z.record(z.string(), z.number()).nullable(),
    totals: z
      .object({
        salesCount: z.number().int(),
        grossSales: Money,
        taxCollected: Money,
        discounts: Money,
        salesByPaymentType: z.record(z.string(), z.number()).openapi({ description: 'Dollars of sales per payment type' }),
        refundCount: z.number().int(),
        refundsByMethod: z.record(z.string(), z.number()).openapi({ description: 'Dollars refunded per method' }),
      })
      .openapi({ description: 'Sales and refunds of the range (every payment type)' }),
    transactionCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi('PosZReport');

// Payment provider (connected accounts, terminal)

export const CreatePaymentBody = z
  .object({
    amount: cents(),
    currency: z.string().trim().toLowerCase().length(3).optional(),
    description: z.string().trim().max(500).optional(),
  })
  .openapi('PosCreatePayment');
export const CreatePaymentIntentBody = z
  .object({
    amount: cents(),
    currency: z.string().trim().toLowerCase().length(3).optional(),
    connected_account_id: id().optional(),
    fee_in_cents: z.number().int().min(0).optional(),
    use_destination_charges: z.boolean().optional(),
  })
  .openapi('PosCreatePaymentIntent');
export const ChargeCustomerBody = z
  .object({
    amount: cents(),
    stripe_customer_id: id(),
    payment_method: id(),
    currency: z.string().trim().toLowerCase().length(3).optional(),
    fee_amount: z.number().int().min(0).optional().openapi({ description: 'Cents: platform fee of a connected-account charge' }),
    connect_id: id().optional(),
  })
  .openapi('PosChargeCustomer');
export const AccountBody = z.object({ country: z.string().trim().length(2).toUpperCase().optional(), stripeRegion: region() }).openapi('PosCreateAccount');
export const AccountRefBody = z.object({ account: id(), stripeRegion: region() }).openapi('PosAccountRef');
export const ConnectionTokenBody = z.object({ locationId: id().optional() }).optional();

export const IntentOut = z
  .object({
    id: z.string(),
    paymentIntentId: z.string(),
    client_secret: z.string(),
    clientSecret: z.string(),
    status: z.string(),
    amount: z.number().openapi({ description: 'Cents' }),
    currency: z.string(),
    application_fee_amount: z.number().nullable(),
    transfer_destination: z.string().nullable(),
  })
  .openapi('PosPaymentIntent');
export const AccountOut = z
  .object({
    id: z.string(),
    type: z.string(),
    country: z.string(),
    charges_enabled: z.boolean(),
    payouts_enabled: z.boolean(),
    details_submitted: z.boolean(),
    stripeRegion: z.enum(['US', 'CA']),
  })
  .openapi('PosConnectedAccount');
export const LinkOut = z.object({ url: z.string(), expires_at: z.string().nullable() }).openapi('PosAccountLink');
export const SessionOut = z.object({ client_secret: z.string(), expires_at: z.string() }).openapi('PosAccountSession');
export const TokenOut = z.object({ secret: z.string() }).openapi('PosConnectionToken');
