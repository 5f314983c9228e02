import type { z } from '@hono/zod-openapi';
import type { haulLiftBookings, haulServices } from '../../db/schema/haul-services';
import type * as s from './schemas';
import type { LiftKind } from './types';

export type HaulRow = typeof haulServices.$inferSelect;
export type LiftRow = typeof haulLiftBookings.$inferSelect;

export const photoUrl = (serviceId: string, photoId: string) => `/haul-services/${serviceId}/photos/${photoId}`;

export function haulOut(h: HaulRow, lifts: Pick<LiftRow, 'liftDate' | 'kind'>[] = []): z.output<typeof s.HaulService> {
  return {
    id: h.id,
    customerId: h.customerId,
    locationId: h.locationId,
    serviceNumber: h.serviceNumber,
    serviceType: h.serviceType,
    status: h.status,
    reservationId: h.reservationId,
    slipId: h.slipId,
    renterId: h.renterId,
    renter: { firstName: h.renter.firstName, lastName: h.renter.lastName, email: h.renter.email, phone: h.renter.phone ?? null },
    boat: h.boat,
    requestedDate: h.requestedDate,
    requestedReturnDate: h.requestedReturnDate,
    scheduledDate: h.scheduledDate,
    scheduledTime: h.scheduledTime,
    returnDate: h.returnDate,
    destination: h.destination,
    lifts: lifts.map((l) => ({ date: l.liftDate, kind: l.kind as LiftKind })).sort((a, b) => a.date.localeCompare(b.date)),
    pricing: h.pricing,
    chargedCents: h.chargedCents,
    photos: h.photos.map((p) => ({
      id: p.id,
      url: photoUrl(h.id, p.id),
      contentType: p.contentType,
      sizeBytes: p.sizeBytes,
      caption: p.caption,
      uploadedAt: p.uploadedAt,
    })),
    notes: h.notes,
    staffNotes: h.staffNotes,
    requestedVia: h.requestedVia,
    scheduledAt: h.scheduledAt,
    confirmedAt: h.confirmedAt,
    confirmedBy: h.confirmedBy,
    startedAt: h.startedAt,
    completedAt: h.completedAt,
    cancelledAt: h.cancelledAt,
    cancelReason: h.cancelReason,
    version: h.version,
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
  };
}

/** The view the renter sees in the tenant portal: no staff notes, no photo storage details. */
export function portalHaulOut(h: HaulRow, lifts: Pick<LiftRow, 'liftDate' | 'kind'>[] = []) {
  const { staffNotes: _staff, photos: _photos, customerId: _c, ...rest } = haulOut(h, lifts);
  return { ...rest, photoCount: h.photos.length };
}
