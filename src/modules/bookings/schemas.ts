import { z } from '@hono/zod-openapi';
import { MoneyViewSchema } from '../../lib/money-view';
import { zEmail, zId, zJsonObject } from '../../lib/openapi';
import { BOOKING_STATUSES } from './status';

const isoOffset = () => z.string().datetime({ offset: true }).openapi({ example: '2026-07-04T10:00:00-04:00', description: 'ISO 8601 with offset (or Z)' });
const ymd = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const AddonSelection = z
  .object({
    addonId: z.string().trim().min(1).max(64),
    quantity: z.number().int().min(1).max(1000).optional().openapi({ description: 'Defaults to 1 (per_person add-ons: the party size)' }),
  })
  .openapi('AddonSelection');

const Tickets = z
  .record(z.string().min(1).max(64), z.number().int().min(0).max(1000))
  .openapi({ example: { Adult: 2, Child: 1 }, description: 'Tours: tickets per fare tier (tier name or tierId)' });

const lineFields = {
  startTime: isoOffset(),
  endTime: isoOffset().optional().openapi({ description: "Required for rentals; tours take the departure's end (if given it must match)" }),
  quantity: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Rentals: assets wanted (default 1). Tours without `tickets`: standard-fare tickets (private charters: the headcount)' }),
  tickets: Tickets.optional(),
  participants: z.number().int().min(1).max(10_000).optional().openapi({ description: 'Rentals: people in the party (per-person add-ons)' }),
  assetIds: z
    .array(z.string().trim().min(1).max(128))
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Rentals: these assets exactly (for example chosen boats); otherwise the first free ones' }),
};

export const RentalLine = z
  .object({
    inventoryId: zId('inv_01J0000000000000000000000'),
    ...lineFields,
    selectedBoatAddons: z.array(AddonSelection).max(50).optional().openapi({ description: 'Add-ons of this line (multi-item orders)' }),
  })
  .openapi('RentalLine');

export const RentalDetails = z
  .object({
    inventoryId: zId('inv_01J0000000000000000000000').optional(),
    locationId: zId('loc_01J0000000000000000000000').optional().openapi({ description: 'When given, every item must be at this location' }),
    startTime: lineFields.startTime.optional(),
    endTime: lineFields.endTime,
    quantity: lineFields.quantity,
    tickets: lineFields.tickets,
    participants: lineFields.participants,
    assetIds: lineFields.assetIds,
    bundleCode: z.string().trim().min(1).max(64).optional().openapi({
      description: 'A bundle of the operator (`customers.settings.bundles`): one rental per bundle item, booked all-or-nothing with a shared bundleGroupId',
    }),
    items: z
      .array(RentalLine)
      .min(1)
      .max(20)
      .optional()
      .openapi({ description: "A multi-item order (one rental per entry, one payment). With `bundleCode`: each bundle item's own window or tickets" }),
    notes: z.string().max(2000).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.bundleCode || d.items) return;
    if (!d.inventoryId) ctx.addIssue({ code: 'custom', path: ['inventoryId'], message: 'inventoryId is required (or items, or bundleCode)' });
    if (!d.startTime) ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'startTime is required' });
  })
  .openapi('RentalDetails');

export const RentalPricing = z
  .object({
    total: z
      .number()
      .min(0)
      .max(10_000_000)
      .optional()
      .openapi({
        description: `The tax-inclusive total (dollars) the client showed. When given it must match the server's price within one cent, else 400
\`price_mismatch\` with the server's breakdown`,
      }),
    currency: z.string().trim().length(3).toLowerCase().optional().openapi({ description: "When given it must be the item's currency" }),
    tip: z.number().min(0).max(100_000).optional().openapi({ description: 'Tip in dollars (not taxed)' }),
  })
  .openapi('RentalPricing');

export const CustomerInfo = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: zEmail(),
    phone: z.string().trim().max(32).optional(),
    address: z.union([z.string().max(500), z.record(z.string(), z.unknown())]).optional(),
    dob: z.string().max(20).optional(),
  })
  .openapi('BookingCustomerInfo');

export const DiscountDetails = z
  .object({
    promoCode: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: 'A promo code of the operator; an unknown, expired or inapplicable code is 400 `invalid_promo_code`' }),
    discountPercentage: z.number().min(0).max(100).optional().openapi({ description: 'Manual discount (operator bookings only)' }),
    discountAmount: z.number().min(0).max(1_000_000).optional().openapi({ description: 'Manual discount in dollars off the order (operator bookings only)' }),
  })
  .openapi('DiscountDetails');

export const PaymentPlan = z
  .object({
    type: z.enum(['full', 'installments', 'pay_later']),
    installments: z.number().int().min(2).max(24).optional().openapi({ description: 'Number of equal installments (default 2); the first is charged now' }),
    schedule: z
      .array(z.object({ dueDate: ymd(), amount: z.number().positive().max(10_000_000) }))
      .min(2)
      .max(24)
      .optional()
      .openapi({ description: 'Explicit installments (dollars, summing to the total); the first is charged now' }),
  })
  .openapi('PaymentPlan');

export const DepositInformation = z
  .object({
    amount: z.number().min(0).max(1_000_000).openapi({ description: 'Dollars to pre-authorize (manual capture)' }),
    required: z.boolean().optional().openapi({ description: 'false skips the deposit' }),
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({ description: "Card for the hold; defaults to the booking's paymentMethodId" }),
  })
  .openapi('DepositInformation');

/** A payment source the order may ask to spend (membership credits, account credit): how many dollars of it, default as much as it covers. */
const creditAsk = (what: string, covers: string) =>
  z
    .object({
      amount: z
        .number()
        .positive()
        .max(1_000_000)
        .optional()
        .openapi({ description: `Dollars of ${what} to use (default: as much as ${covers} covers of what is due now)` }),
    })
    .optional();

export const BookBody = z
  .object({
    rentalDetails: RentalDetails,
    rentalPricing: RentalPricing,
    customerInfo: CustomerInfo,
    depositInformation: DepositInformation.optional(),
    discountDetails: DiscountDetails.optional(),
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({ example: 'pm_card_visa' }),
    paymentPlan: PaymentPlan.optional(),
    membershipCredits: creditAsk('credits', 'the balance').openapi({
      description: "Pay part of the booking with the renter's membership credits (400 without an active membership or with too few credits)",
    }),
    accountCredit: creditAsk('account credit', 'the credit').openapi({
      description: [
        "Pay part of the booking with the renter's account credit (the goodwill credits moved to the renter's account,",
        "`accounting.accountCreditCents` of GET /renters/{id}), in the booking's currency, after membership credits and a gift card and",
        "before the card. The operator's API only (another sales path answers 400). 400 `insufficient_account_credit` when the renter",
        '(by `customerInfo.email`) has no credit or less than asked, or another booking spent it at the same moment.',
      ].join(' '),
    }),
    selectedBoatAddons: z.array(AddonSelection).max(50).optional().openapi({ description: 'Add-ons of the item (the first line of a multi-item order)' }),
    globalAddons: z
      .array(AddonSelection)
      .max(50)
      .optional()
      .openapi({ description: 'Global add-ons of the location (`isGlobal` add-ons of its items or `details.globalAddons` of the location)' }),
    extendedData: zJsonObject().openapi({ description: 'Free-form data stored with the booking' }),
  })
  .openapi('BookRequest');

export type BookInput = z.output<typeof BookBody>;

const Money = z.number().openapi({ description: 'Dollars' });

export const PriceBreakdown = z
  .object({
    unit: z.string(),
    hours: z.number(),
    days: z.number(),
    season: z.string().nullable(),
    rental: Money,
    tickets: z.array(z.object({ tier: z.string(), quantity: z.number(), unitPrice: Money, seats: z.number(), amount: Money })).optional(),
    addons: z.array(
      z.object({
        addonId: z.string(),
        name: z.string(),
        priceType: z.string(),
        unitPrice: Money,
        quantity: z.number(),
        amount: Money,
        taxable: z.boolean(),
        global: z.boolean(),
      }),
    ),
    subtotal: Money,
    discounts: z.array(z.object({ type: z.string(), code: z.string().optional(), percent: z.number().optional(), amount: Money })),
    discountTotal: Money,
    taxes: z.array(z.object({ name: z.string(), rate: z.number(), appliesTo: z.string(), amount: Money })),
    taxTotal: Money,
    tip: Money,
    total: Money,
  })
  .openapi('PriceBreakdown');

export const Booking = z
  .object({
    rentalId: z.string(),
    reference: z.string().openapi({
      description:
        "The booking's one public reference (its id): the renter sees it on the confirmation, the pass, the manage page (`/widget?manage=`) and every e-mail",
    }),
    transactionId: z.string().openapi({ description: 'The order the booking belongs to (internal; several bookings of one checkout share it)' }),
    bundleGroupId: z.string().nullable(),
    customerId: z.string(),
    locationId: z.string(),
    inventoryId: z.string(),
    renterId: z.string().nullable(),
    status: z.enum(BOOKING_STATUSES),
    Status: z.enum(BOOKING_STATUSES).openapi({ description: "Same as `status` (the spec's field name)" }),
    source: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    localDate: z.string(),
    timezone: z.string().optional(),
    quantity: z.number(),
    participants: z.number().nullable(),
    assetIds: z.array(z.string()),
    currency: z.string(),
    pricing: z.object({
      subtotal: Money,
      discountTotal: Money,
      taxTotal: Money,
      tipTotal: Money,
      feeTotal: Money,
      total: Money,
      amountPaid: Money,
      balanceDue: Money,
      loyaltyPoints: z.number().optional(),
      breakdown: PriceBreakdown.nullable(),
    }),
    customerInfo: z.record(z.string(), z.unknown()).nullable(),
    rentalDetails: z.record(z.string(), z.unknown()).nullable(),
    extendedData: z.record(z.string(), z.unknown()).nullable(),
    addons: z.array(z.unknown()),
    paymentPlan: z.record(z.string(), z.unknown()).nullable(),
    paymentIntentId: z.string().nullable(),
    depositInformation: z.record(z.string(), z.unknown()).nullable(),
    promoCode: z.string().nullable(),
    channel: z.object({ connectionId: z.string(), reference: z.string().nullable(), commissionRate: z.number().nullable(), testMode: z.boolean() }).nullable(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancellationReason: z.string().nullable(),
    version: z.number(),
    money: MoneyViewSchema.openapi({
      description:
        "The rental's money from its ledger and deposits (the one money view, read once the change is written): " +
        "lines left after reversals, paid, refunded, the balance and the deposit's state",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Booking');

export const BookResult = Booking.extend({
  rentals: z.array(Booking).openapi({ description: 'Every rental of the order (one for a single item)' }),
  order: z.object({
    transactionId: z.string(),
    bundleGroupId: z.string().nullable(),
    currency: z.string(),
    subtotal: Money,
    discountTotal: Money,
    taxTotal: Money,
    tipTotal: Money,
    total: Money,
    amountPaid: Money,
    balanceDue: Money,
    loyaltyPoints: z.number(),
  }),
  payment: z.object({
    status: z.enum(['paid', 'partially_paid', 'unpaid', 'prepaid']),
    plan: z.string(),
    paymentIntentId: z.string().nullable(),
    amountCharged: Money,
    installments: z.array(z.object({ dueDate: z.string(), amount: Money, status: z.string() })).optional(),
  }),
  deposit: z.object({ depositId: z.string(), paymentIntentId: z.string(), amount: Money, status: z.string() }).nullable(),
  customerCreated: z.boolean(),
}).openapi('BookResult');

export const RentalParams = z.object({ rentalId: zId('bk_01J0000000000000000000000') });

export const CancelBody = z
  .object({
    reason: z.string().trim().max(1000).optional(),
    refund: z.boolean().optional().openapi({ description: 'Refund what Berth collected (default true)' }),
  })
  .openapi('CancelBooking');

/** What a change asks of the price (a reschedule, a modification). */
const priceAsk = {
  keepPrice: z
    .boolean()
    .optional()
    .openapi({
      description: `true: keep the booking's price and breakdown (marked \`priceKept: true\` in its \`extendedData\`). Default false: the changed
booking is priced like a new booking, the booking's discounts kept`,
    }),
  chargeDifference: z
    .boolean()
    .optional()
    .openapi({
      description: `A higher price: true charges the difference to the card of the booking's payment (the card on file), in the same write; 402
\`payment_failed\` on a decline (nothing changed). Default false: the difference is a balance due. Not with \`keepPrice\``,
    }),
  refundDifference: z
    .boolean()
    .optional()
    .openapi({
      description: `A lower price: true (default) refunds what was paid beyond the new total to the card it was paid with; false keeps it on
the booking as the renter's credit`,
    }),
};
const notKeptAndCharged = (d: { keepPrice?: boolean; chargeDifference?: boolean }, ctx: z.RefinementCtx) => {
  if (d.keepPrice && d.chargeDifference)
    ctx.addIssue({ code: 'custom', path: ['chargeDifference'], message: 'a kept price has no difference to charge: not with keepPrice' });
};
const movedAssets = z
  .array(z.string().trim().min(1).max(128))
  .min(1)
  .max(100)
  .optional()
  .openapi({ description: 'Rentals: move to these assets (as many as the booking has); otherwise its assets are kept when free' });

export const RescheduleBody = z
  .object({
    startTime: isoOffset(),
    endTime: isoOffset().optional().openapi({ description: "Required for rentals; tours take the departure's end" }),
    assetIds: movedAssets,
    ...priceAsk,
  })
  .superRefine(notKeptAndCharged)
  .openapi('RescheduleBooking');

/** The booking's shape a change asks for (every field optional: what is not sent stays as it is). */
export const changeFields = {
  startTime: isoOffset().optional().openapi({ description: 'A new start (tours: a departure). Without it the booking keeps its start' }),
  endTime: isoOffset().optional().openapi({
    description: "Rentals: the new end (required with a new startTime; alone, it lengthens or shortens the rental). Tours take the departure's end",
  }),
  participants: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .openapi({ description: "The party's size: a rental's people (at most the item's capacity per boat times the boats), a tour's tickets of its one fare" }),
  tickets: Tickets.optional().openapi({ description: "Tours: the tickets per fare tier after the change (replaces the booking's)" }),
  addons: z.array(AddonSelection).max(50).optional().openapi({
    description: "The booking's add-ons after the change (the item's and the location's global ones): an add-on left out is removed; [] removes all",
  }),
};
const oneParty = (d: { participants?: number; tickets?: unknown }, ctx: z.RefinementCtx) => {
  if (d.participants != null && d.tickets)
    ctx.addIssue({ code: 'custom', path: ['participants'], message: 'give tickets (per fare) or participants, not both' });
};

export const ModifyBody = z
  .object({
    ...changeFields,
    inventoryId: zId('inv_01J0000000000000000000000')
      .optional()
      .openapi({ description: 'Another item for the booking (same location and kind): reserved in its lock and priced at its prices' }),
    assetIds: movedAssets,
    ...priceAsk,
  })
  .superRefine((d, ctx) => {
    notKeptAndCharged(d, ctx);
    oneParty(d, ctx);
  })
  .openapi('ModifyBooking');

/** A change without the operator's options (the renter's self-service: no assets, and the price always follows the change). */
export const ChangeBody = z.object(changeFields).superRefine(oneParty).openapi('BookingChange');

export const ReschedulePriceChange = z
  .object({
    priceKept: z.boolean().openapi({ description: 'The price was kept: asked (`keepPrice`) or set by a reseller' }),
    keptReason: z.enum(['requested', 'seller_priced']).nullable(),
    previousTotal: Money,
    newTotal: Money,
    difference: Money.openapi({ description: 'newTotal - previousTotal (dollars; negative when cheaper)' }),
    settlement: z.enum(['none', 'balance_due', 'charged', 'refunded', 'credit', 'refund_failed']).openapi({
      description: `How the difference was settled: \`balance_due\` (the booking owes \`amount\`), \`charged\` (to the card on file), \`refunded\`
(to the card), \`credit\` (kept on the booking), \`refund_failed\` (kept as credit; the operator is told), \`none\``,
    }),
    amount: Money.openapi({ description: 'Dollars charged, refunded, kept as credit or due' }),
    paymentIntentId: z.string().nullable().openapi({ description: 'The charge of the difference' }),
    refundId: z.string().nullable(),
    reason: z
      .string()
      .optional()
      .openapi({ description: '`no_card_on_file`, `not_paid_by_card` or `partly_credit` when the settlement differs from the one asked' }),
  })
  .openapi('ReschedulePriceChange');

export const RescheduleResult = Booking.extend({
  pricing: Booking.shape.pricing.extend({ change: ReschedulePriceChange }),
}).openapi('RescheduleResult');

export const ModifyResult = Booking.extend({
  pricing: Booking.shape.pricing.extend({ change: ReschedulePriceChange }),
}).openapi('ModifyResult');

/** A booking's shape before or after a change, as the renter sees it. */
export const BookingShape = z
  .object({
    startTime: z.string(),
    endTime: z.string(),
    participants: z.number().nullable(),
    tickets: z.record(z.string(), z.number()).nullable().openapi({ description: 'Tours: tickets per fare tier' }),
    addons: z.array(z.object({ addonId: z.string(), name: z.string(), quantity: z.number() })),
    total: Money,
  })
  .openapi('BookingShape');

export const ChangeQuote = z
  .object({
    rentalId: z.string(),
    inventoryId: z.string(),
    locationId: z.string(),
    customerId: z.string(),
    kind: z.enum(['rental', 'tour']),
    units: z.number().int().openapi({ description: "A rental's boats (its party is at most the item's capacity per boat times these); 1 for a tour" }),
    currency: z.string(),
    timezone: z.string(),
    unchanged: z.boolean().openapi({ description: 'The booking already is what was asked: nothing would change' }),
    current: BookingShape,
    proposed: BookingShape,
    change: ReschedulePriceChange,
    breakdown: PriceBreakdown.nullable().openapi({ description: 'The new price breakdown (null when the price is kept or nothing changes)' }),
  })
  .openapi('BookingChangeQuote');

export const TransitionBody = z.object({ notes: z.string().trim().max(2000).optional() }).openapi('BookingTransition');

export const ConfirmBody = z
  .object({
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({ description: 'Collect the balance due with this card while confirming' }),
    notes: z.string().trim().max(2000).optional(),
  })
  .openapi('ConfirmBooking');

/** One line of a cancellation's refund (refund-lines.ts); the renter's cancellation answers the same lines. */
export const RefundLine = z
  .object({
    kind: z.enum(['rental', 'tip', 'coverage_premium', 'protection_plan']),
    description: z.string(),
    paid: Money,
    refund: Money,
    kept: Money,
    rule: z.string(),
  })
  .openapi('CancellationRefundLine');

export const CancelResult = Booking.extend({
  alreadyCancelled: z.boolean(),
  refund: z
    .object({
      status: z.enum(['succeeded', 'failed', 'none']),
      amount: Money,
      refundId: z.string().nullable(),
      lines: z
        .array(RefundLine)
        .openapi({ description: 'Each line paid for (the rental, a tip, a coverage premium, each protection plan) and what came back of it' }),
    })
    .optional(),
}).openapi('CancelResult');

// ------------------------------------------------------------------------------------------------
// The operator's money actions on a booking: partial refunds, goodwill credits, charging the balance

const Reason = z.string().trim().min(1).max(500);
const PositiveDollars = z.number().positive().max(1_000_000).multipleOf(0.01).openapi({ description: 'Dollars (at most two decimals)' });

export const PartialRefundBody = z
  .object({
    amount: PositiveDollars.optional().openapi({ description: 'Dollars to give back (give `amount` or `lines`, not both)' }),
    lines: z
      .array(
        z.object({
          entryId: zId('led_01J0000000000000000000000').openapi({ description: 'A charge of the booking: `id` of a ledger entry (GET /renters/{id}/journal)' }),
          amount: PositiveDollars.optional().openapi({ description: 'Dollars of that line to give back; default: all that is left of it' }),
        }),
      )
      .min(1)
      .max(50)
      .optional(),
    reason: Reason.openapi({ description: 'Why: shown on the ledger line, the audit log and the `payment.refunded` event' }),
  })
  .superRefine((d, ctx) => {
    if ((d.amount == null) === (d.lines == null)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give amount or lines (one of them)' });
  })
  .openapi('PartialRefundRequest');

export const PartialRefundResult = Booking.extend({
  refund: z.object({
    status: z.enum(['succeeded', 'partial']).openapi({ description: '`partial`: a later payment intent refused its refund; what is listed was given back' }),
    amount: Money.openapi({ description: 'Dollars given back' }),
    reason: z.string(),
    refunds: z.array(z.object({ refundId: z.string().nullable(), paymentIntentId: z.string(), amount: Money })),
  }),
}).openapi('PartialRefundResult');

export const CreditBody = z
  .object({ amount: PositiveDollars, reason: Reason.openapi({ description: 'Why: shown on the ledger line and the activity log' }) })
  .openapi('GoodwillCreditRequest');

export const CreditResult = Booking.extend({
  credit: z.object({
    amount: Money,
    reason: z.string(),
    appliedToBooking: Money.openapi({ description: 'Dollars taken off what the booking owed' }),
    toAccount: Money.openapi({ description: "Dollars moved to the renter's account credit (the part beyond what the booking owed)" }),
    renterId: z.string().nullable(),
  }),
}).openapi('GoodwillCreditResult');

export const ChargeBalanceResult = Booking.extend({
  charge: z.object({
    amount: Money.openapi({ description: 'Dollars charged: the balance due' }),
    paymentIntentId: z.string(),
    card: z.enum(['booking', 'renter']).openapi({ description: "Whose card: the booking's own payment's, or the renter's default saved card" }),
  }),
}).openapi('ChargeBalanceResult');
