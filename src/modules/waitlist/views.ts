/** Waitlist rows -> API responses, and the offer's booking link. */
import type { EntryRow } from './types';

export const iso = (ms: number) => new Date(ms).toISOString();

export function entryOut(e: EntryRow) {
  return {
    entryId: e.id,
    customerId: e.customerId,
    locationId: e.locationId,
    inventoryId: e.inventoryId,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email,
    date: e.date,
    time: e.time,
    duration: e.duration,
    quantity: e.quantity,
    addons: e.addons ?? null,
    boatAddons: e.boatAddons ?? null,
    giftCardCode: e.giftCardCode,
    refAffiliate: e.refAffiliate,
    status: e.status,
    offer:
      e.offerId && e.offerStart != null && e.offerEnd != null
        ? {
            offerId: e.offerId,
            startTime: iso(e.offerStart),
            endTime: iso(e.offerEnd),
            quantity: e.quantity,
            assetIds: e.offerAssetIds ?? [],
            offeredAt: e.offeredAt ?? e.updatedAt,
            expiresAt: e.offerExpiresAt ?? e.updatedAt,
            bookingUrl: e.offerBookingUrl ?? '',
          }
        : null,
    bookedRentalId: e.bookedRentalId,
    bookedAt: e.bookedAt,
    expiredAt: e.expiredAt,
    cancelledAt: e.cancelledAt,
    closedAt: e.closedAt,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** The link in the offer e-mail: the location's booking page (`details.bookingUrl`) or this API's public day view. */
export function bookingUrl(
  publicBaseUrl: string | undefined,
  loc: { details: Record<string, unknown> | null },
  q: { inventoryId: string; locationId: string; date: string; time: string; quantity: number; entryId: string },
) {
  const configured = loc.details?.bookingUrl;
  const base =
    typeof configured === 'string' && /^https?:\/\//i.test(configured) ? configured : `${(publicBaseUrl ?? '').replace(/\/$/, '')}/public/day-availability`;
  const params = new URLSearchParams({
    inventoryId: q.inventoryId,
    locationId: q.locationId,
    date: q.date,
    time: q.time,
    quantity: String(q.quantity),
    waitlistEntryId: q.entryId,
  });
  return `${base}${base.includes('?') ? '&' : '?'}${params.toString()}`;
}
