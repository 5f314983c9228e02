import { z } from '@hono/zod-openapi';
import { MoneyViewSchema } from '../../lib/money-view';

const id = () => z.string().trim().min(1).max(128);

export const OrderParams = z.object({ orderId: id().openapi({ description: 'A transaction (order) id, a bundle group id or a rental id' }) });
export const BookingQuery = z.object({
  TransactionId: id().openapi({ description: "The order's transaction id (the booking reference of the confirmation e-mail)" }),
});

export const PatchBookingBody = z
  .object({
    rentalId: id(),
    data: z
      .record(z.string().min(1).max(200), z.unknown())
      .refine((o) => Object.keys(o).length > 0, 'give at least one path')
      .refine((o) => Object.keys(o).length <= 20, 'at most 20 paths at once')
      .openapi({
        type: 'object',
        example: { 'customerInfo.phone': '+15555550123', 'extendedData.notes': 'Arriving 15 minutes early' },
        description: 'Dot-notation paths to new values (see the allow-list)',
      }),
  })
  .openapi('PatchPublicBooking');

export const CustomerQuery = z.object({ customer_id: id().openapi({ description: 'The operator account whose widget asks' }) });
export const WidgetInfoQuery = z.object({ customer_id: id(), inventory_id: id() });

const Money = z.number().openapi({ description: 'Dollars' });
const Totals = z
  .object({ subtotal: Money, discountTotal: Money, taxTotal: Money, tipTotal: Money, feeTotal: Money, total: Money, amountPaid: Money, balanceDue: Money })
  .openapi('PublicTotals');

export const PublicLocation = z
  .object({ locationId: z.string(), name: z.string(), address: z.string(), phoneNumber: z.string(), timezone: z.string() })
  .openapi('PublicLocation');

export const LineItem = z
  .object({
    rentalId: z.string(),
    status: z.string(),
    inventoryId: z.string(),
    name: z.string().nullable(),
    image: z.string().nullable(),
    category: z.string().nullable(),
    locationId: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    localDate: z.string(),
    timezone: z.string(),
    quantity: z.number(),
    participants: z.number().nullable(),
    assets: z.array(z.object({ assetId: z.string(), name: z.string() })),
    addons: z.array(z.unknown()),
    pricing: Totals,
    money: MoneyViewSchema.openapi({
      description: "The rental's money from its ledger (the one money view): the same figures the operator's GET /coreBooking/{rentalId} shows",
    }),
    deposit: z.object({ amount: z.number().nullable(), status: z.string().nullable() }).nullable(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
  })
  .openapi('PublicLineItem');

export const Group = z
  .object({ groupId: z.string(), type: z.enum(['bundle', 'single']), lineItems: z.array(LineItem), total: Money })
  .openapi('PublicLineItemGroup');

export const Order = z
  .object({
    orderId: z.string(),
    matchedAs: z.enum(['transaction', 'bundle', 'rental']),
    transactionId: z.string(),
    customerId: z.string(),
    businessName: z.string(),
    locations: z.array(PublicLocation),
    status: z.string().openapi({ description: 'The common status of the line items, or `mixed`' }),
    currency: z.string(),
    renter: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
    totals: Totals,
    groups: z.array(Group),
    createdAt: z.string(),
  })
  .openapi('PublicOrder');

export const PublicBookingLine = LineItem.extend({
  extendedData: z.record(z.string(), z.unknown()).openapi({ description: 'The renter-editable part only' }),
  editable: z.boolean(),
}).openapi('PublicBookingLine');

export const PublicBooking = z
  .object({
    transactionId: z.string(),
    customerId: z.string(),
    businessName: z.string(),
    locations: z.array(PublicLocation),
    status: z.string(),
    currency: z.string(),
    customerInfo: z.record(z.string(), z.unknown()).openapi({ description: "The renter's contact details (allow-listed fields)" }),
    totals: Totals,
    bookings: z.array(PublicBookingLine),
    editablePaths: z.array(z.string()),
  })
  .openapi('PublicBooking');

export const EncryptedPayload = z
  .object({
    alg: z.literal('AES-256-GCM'),
    iv: z.string().openapi({ description: 'base64 of the 12-byte nonce' }),
    ciphertext: z.string().openapi({ description: 'base64 of the ciphertext with the 16-byte GCM tag appended' }),
    customerId: z.string(),
    generatedAt: z.string(),
  })
  .openapi('EncryptedWidgetPayload');

export const WidgetInfo = z
  .object({
    inventoryId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    name: z.string(),
    type: z.string(),
    category: z.string().nullable(),
    image: z.string().nullable(),
    startingPrice: z.number().nullable().openapi({ description: 'Dollars; null when no price is configured' }),
    priceUnit: z.string().nullable().openapi({ description: 'hr, day, person or charter' }),
    currency: z.string(),
    capacity: z.number(),
  })
  .openapi('WidgetInfo');
