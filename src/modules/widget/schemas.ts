import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';

const isoOffset = () => z.string().datetime({ offset: true }).openapi({ example: '2027-06-01T10:00:00-04:00' });
const code = () => z.string().trim().min(1).max(64);

export const PageQuery = z.object({
  customer: z.string().trim().max(128).optional().openapi({ description: 'The operator (customerId) whose widget to show' }),
  item: z.string().trim().max(128).optional().openapi({ description: 'Deep link: open this item (inventoryId)' }),
  date: z.string().trim().max(10).optional().openapi({ description: "Deep link: open this local date (YYYY-MM-DD) of the item's calendar" }),
  location: z.string().trim().max(128).optional().openapi({ description: 'Show the items of this location only' }),
  ref: z.string().trim().max(64).optional().openapi({ description: 'Affiliate code, carried to the booking as extendedData.refAffiliate' }),
  pass: z.string().trim().max(128).optional().openapi({ description: 'Show the pass of this booking (rentalId)' }),
  manage: z.string().trim().max(128).optional().openapi({ description: 'Open the manage/cancel view of this booking (rentalId)' }),
});

export const CatalogQuery = z.object({
  customerId: zId('cus_01J0000000000000000000000'),
  locationId: zId('loc_01J0000000000000000000000').optional(),
});

export const Catalog = z
  .object({
    customerId: z.string(),
    now: z.string().openapi({
      description: `The operator's current time (ISO instant; a sandbox test clock's time when one is set): the widget's today and refund deadlines
count from it, not from the renter's device`,
    }),
    businessName: z.string(),
    look: z.object({
      primaryColor: z.string().nullable(),
      accentColor: z.string().nullable(),
      logoUrl: z.string().nullable(),
      termsUrl: z.string().nullable(),
      privacyUrl: z.string().nullable(),
    }),
    payments: z.object({
      mode: z.enum(['simulator', 'stripe']),
      publishableKey: z.string().nullable().openapi({ description: "The provider's publishable key (stripe mode)" }),
      testCards: z
        .array(z.object({ number: z.string(), label: z.string() }))
        .openapi({ description: 'Simulator mode: card numbers the test form accepts and what they do' }),
    }),
    locations: z.array(
      z.object({ locationId: z.string(), name: z.string(), address: z.string(), phoneNumber: z.string(), timezone: z.string(), currency: z.string() }),
    ),
    items: z.array(
      z.object({
        inventoryId: z.string(),
        name: z.string(),
        type: z.enum(['rental', 'tour']),
        locationId: z.string(),
        description: z.string().nullable(),
        category: z.string().nullable(),
        image: z.string().nullable().openapi({ description: "The first photo's URL (its 640-pixel variant when Berth resized it)" }),
        photos: z
          .array(
            z.object({
              src: z.string(),
              srcset: z.string().nullable().openapi({ description: '`url 320w, url 640w, url 1280w` (the widths the photo has); null for an outside image' }),
              width: z
                .number()
                .int()
                .nullable()
                .openapi({ description: 'Intrinsic size of the largest variant (for width/height attributes); null when unknown' }),
              height: z.number().int().nullable(),
              alt: z.string().openapi({ description: "The item's name" }),
            }),
          )
          .openapi({ description: "The item's photos in order, ready for <img src srcset sizes width height alt>" }),
        capacity: z.number(),
        units: z.number().int().openapi({ description: 'Rentals: boats (assets) in the pool' }),
        currency: z.string(),
        startingPrice: z.number().nullable(),
        priceUnit: z.string().nullable(),
        durations: z.array(z.number()).openapi({ description: 'Rentals: lengths (hours) the widget offers' }),
        fullDayOnly: z.boolean(),
        tiers: z.array(z.object({ tierId: z.string().nullable(), name: z.string(), price: z.number(), seats: z.number(), isStandard: z.boolean() })),
        isPrivate: z.boolean(),
        minParticipants: z.number().int(),
        addons: z.array(z.object({ addonId: z.string(), name: z.string(), price: z.number(), priceType: z.string(), maxQuantity: z.number().int() })),
        deposit: z.number().nullable().openapi({ description: 'Required security deposit (dollars, pre-authorized), if any' }),
      }),
    ),
  })
  .openapi('WidgetCatalog');

const AddonPick = z.object({ addonId: code(), quantity: z.number().int().min(1).max(1000).optional() });

const orderFields = {
  customerId: zId('cus_01J0000000000000000000000'),
  inventoryId: zId('inv_01J0000000000000000000000'),
  startTime: isoOffset(),
  endTime: isoOffset().optional().openapi({ description: 'Rentals: the end; tours take the departure end' }),
  quantity: z.number().int().min(1).max(50).optional().openapi({ description: 'Rentals: boats; tours without tickets: standard tickets' }),
  tickets: z.record(z.string().min(1).max(64), z.number().int().min(0).max(100)).optional().openapi({ description: 'Tours: tickets per tier' }),
  participants: z.number().int().min(1).max(1000).optional().openapi({ description: 'Rentals: people in the party' }),
  addons: z.array(AddonPick).max(50).optional(),
  promoCode: code()
    .optional()
    .openapi({ description: 'A promo code (a discount) or a gift card (pays what its balance covers; the card pays the rest) of the operator' }),
  giftCardCode: code().optional().openapi({ description: 'A gift card of the operator, with or without a promo code' }),
  tip: z.number().min(0).max(10_000).optional(),
};

export const QuoteBody = z.object(orderFields).openapi('WidgetQuoteRequest');

export const Quote = z
  .object({
    currency: z.string(),
    total: z.number(),
    giftCard: z
      .object({ code: z.string(), applied: z.number(), balance: z.number() })
      .nullable()
      .openapi({ description: 'The gift card of the order: what it pays of the total (dollars) and its balance now' }),
    amountDue: z.number().openapi({ description: 'What the card is charged: the total minus the gift card' }),
    deposit: z.number(),
    available: z.boolean(),
    reasons: z.array(z.object({ code: z.string(), message: z.string() }).passthrough()),
    lines: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: 'Price breakdown per line (dollars): rental, tickets, add-ons, discounts, taxes, tip, total' }),
  })
  .openapi('WidgetQuote');

export const CheckoutBody = z
  .object({
    ...orderFields,
    locationId: zId('loc_01J0000000000000000000000').optional(),
    customerInfo: z.object({
      firstName: z.string().trim().min(1).max(100),
      lastName: z.string().trim().min(1).max(100),
      email: zEmail(),
      phone: z.string().trim().max(32).optional(),
    }),
    paymentMethodId: z.string().trim().min(1).max(255).optional().openapi({ description: "The card (simulator test token or the provider's payment method)" }),
    expectedTotal: z.number().min(0).optional().openapi({ description: 'The total the renter saw; must match within a cent (400 price_mismatch)' }),
    waiverSignatureIds: z.array(zId('sig_01J0000000000000000000000')).max(20).optional().openapi({ description: 'Waivers signed in the widget' }),
    refAffiliate: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, dot, dash, underscore')
      .optional(),
    sessionId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional()
      .openapi({ description: "The widget visit's funnel id" }),
    source: z.string().trim().max(253).optional().openapi({ description: 'Host name of the page embedding the widget' }),
    notes: z.string().trim().max(2000).optional(),
    coverage: z
      .object({ quoteId: zId('cq_01J0000000000000000000000') })
      .nullable()
      .optional()
      .openapi({ description: 'The coverage card the renter chose (a quote of POST /public/coverage/quotes, ready or accepted); omit or null for none' }),
  })
  .openapi('WidgetCheckout');

export const WidgetCoverage = z
  .object({
    status: z.enum(['purchased', 'not_purchased', 'not_requested']),
    reason: z.string().nullable().openapi({ description: 'Why the coverage was not bought (the booking went ahead without it)' }),
    quoteId: z.string().nullable(),
    policyId: z.string().nullable(),
    premium: z.number().nullable().openapi({ description: 'Dollars, paid in the same card payment as the rental' }),
    currency: z.string().nullable(),
  })
  .openapi('WidgetCheckoutCoverage');

export const CheckoutResult = z
  .object({
    transactionId: z.string(),
    rentalId: z.string(),
    reference: z.string().openapi({ description: "The booking's one public reference (its id), as the e-mails, the pass and the manage page show it" }),
    rentalIds: z.array(z.string()),
    status: z.string(),
    currency: z.string(),
    total: z.number(),
    amountPaid: z.number(),
    balanceDue: z.number(),
    startTime: z.string(),
    endTime: z.string(),
    timezone: z.string(),
    renterToken: z.string().openapi({ description: "Manages the booking's participants and documents for 24 hours (X-Renter-Token); cannot cancel" }),
    renterTokenExpiresAt: z.string(),
    coverage: WidgetCoverage,
    links: z.object({
      pass: z.string(),
      passFile: z.string(),
      saveToWallet: z.string(),
      calendar: z.string(),
      manage: z.string(),
      coverage: z.string().openapi({ description: "The order's coverage on the renter's booking page (GET /public/coverage)" }),
    }),
  })
  .openapi('WidgetCheckoutResult');

export const EventBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    sessionId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,64}$/),
    event: z.enum(['view', 'date_chosen', 'slot_chosen', 'checkout', 'waitlist']),
    inventoryId: zId('inv_01J0000000000000000000000').optional(),
    locationId: zId('loc_01J0000000000000000000000').optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    time: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .optional(),
    ref: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .optional(),
    source: z.string().trim().max(253).optional(),
  })
  .openapi('WidgetEvent');

export const EventAccepted = z.object({ accepted: z.boolean(), eventId: z.string() }).openapi('WidgetEventAccepted');
