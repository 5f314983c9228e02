import type { z } from '@hono/zod-openapi';
import type { slipWaitlistEntries, slipWaitlistOffers } from '../../db/schema/slip-waitlist';
import type * as s from './schemas';

export type EntryRow = typeof slipWaitlistEntries.$inferSelect;
export type OfferRow = typeof slipWaitlistOffers.$inferSelect;

export function offerOut(o: OfferRow, unitNumber: string | null): z.output<typeof s.Offer> {
  return {
    id: o.id,
    entryId: o.entryId,
    slipId: o.slipId,
    unitNumber,
    reservationId: o.reservationId,
    arrivalDate: o.arrivalDate,
    departureDate: o.departureDate,
    rateType: o.rateType,
    status: o.status,
    expiresAt: new Date(o.expiresAt).toISOString(),
    totalCents: o.totalCents,
    message: o.message,
    respondedAt: o.respondedAt,
    responseNote: o.responseNote,
    createdAt: o.createdAt,
  };
}

export function entryOut(e: EntryRow, queuePosition: number | null, currentOffer: z.output<typeof s.Offer> | null): z.output<typeof s.Entry> {
  return {
    id: e.id,
    customerId: e.customerId,
    locationId: e.locationId,
    renterId: e.renterId,
    renter: { id: e.renterId, firstName: e.renter.firstName, lastName: e.renter.lastName, email: e.renter.email, phone: e.renter.phone ?? null },
    boat: e.boat,
    unitType: e.unitType,
    section: e.section,
    preferredSlipId: e.preferredSlipId,
    rateType: e.rateType,
    arrivalDate: e.arrivalDate,
    departureDate: e.departureDate,
    season: e.season,
    status: e.status,
    queuePosition: e.status === 'waiting' ? queuePosition : null,
    source: e.source,
    notes: e.notes,
    offerCount: e.offerCount,
    declineCount: e.declineCount,
    currentOffer,
    acceptedReservationId: e.acceptedReservationId,
    acceptedAt: e.acceptedAt,
    cancelledAt: e.cancelledAt,
    cancelReason: e.cancelReason,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
