import type { bookings } from '../../db/schema/bookings';
import type { BookingStatus } from './status';
import { dollars, quoteOut, type LineQuote } from './pricing';

export type BookingRow = typeof bookings.$inferSelect;

/** The API view of a rental (money in dollars, times as ISO UTC). */
export function bookingOut(b: BookingRow, opts: { timezone?: string } = {}) {
  const pricing = (b.pricing ?? {}) as { quote?: LineQuote; loyaltyPoints?: number };
  return {
    rentalId: b.id,
    reference: b.id,
    transactionId: b.transactionId,
    bundleGroupId: b.bundleGroupId,
    customerId: b.customerId,
    locationId: b.locationId,
    inventoryId: b.itemId,
    renterId: b.renterId,
    status: b.status as BookingStatus,
    Status: b.status as BookingStatus,
    source: b.source,
    startTime: new Date(b.start).toISOString(),
    endTime: new Date(b.end).toISOString(),
    localDate: b.localDate,
    ...(opts.timezone ? { timezone: opts.timezone } : {}),
    quantity: b.quantity,
    participants: b.participants,
    assetIds: b.assetIds ?? [],
    currency: b.currency,
    pricing: {
      subtotal: dollars(b.subtotal),
      discountTotal: dollars(b.discountTotal),
      taxTotal: dollars(b.taxTotal),
      tipTotal: dollars(b.tipTotal),
      feeTotal: dollars(b.feeTotal),
      total: dollars(b.total),
      amountPaid: dollars(b.amountPaid),
      balanceDue: dollars(Math.max(0, b.total - b.amountPaid)),
      ...(pricing.loyaltyPoints != null ? { loyaltyPoints: pricing.loyaltyPoints } : {}),
      breakdown: pricing.quote ? quoteOut(pricing.quote) : null,
    },
    customerInfo: b.customerInfo ?? null,
    rentalDetails: b.rentalDetails ?? null,
    extendedData: b.extendedData ?? null,
    addons: b.addons ?? [],
    paymentPlan: b.paymentPlan ?? null,
    paymentIntentId: b.paymentIntentId,
    depositInformation: b.depositInformation ?? null,
    promoCode: b.promoCode,
    channel: b.channelConnectionId
      ? { connectionId: b.channelConnectionId, reference: b.channelReference, commissionRate: b.commissionRate, testMode: !!b.testMode }
      : null,
    checkedInAt: b.checkedInAt,
    checkedOutAt: b.checkedOutAt,
    cancelledAt: b.cancelledAt,
    cancellationReason: b.cancellationReason,
    version: b.version,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}

export type BookingView = ReturnType<typeof bookingOut>;
