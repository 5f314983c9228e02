import type { z } from '@hono/zod-openapi';
import type { slipGuestPasses } from '../../db/schema/slip-guest-access';
import type * as s from './schemas';
import type { PassStatus } from './types';

export type PassRow = typeof slipGuestPasses.$inferSelect;

/** The status at `now` (ISO, the caller's clock): an active pass past its window is expired. */
export const statusAt = (p: Pick<PassRow, 'status' | 'validUntil'>, now: string): PassStatus =>
  p.status === 'active' && p.validUntil <= now ? 'expired' : p.status;

export function passOut(p: PassRow, now: string): z.output<typeof s.Pass> {
  return {
    id: p.id,
    customerId: p.customerId,
    locationId: p.locationId,
    reservationId: p.reservationId,
    slipId: p.slipId,
    renterId: p.renterId,
    guestName: p.guestName,
    guestEmail: p.guestEmail,
    guestPhone: p.guestPhone,
    vehiclePlate: p.vehiclePlate,
    accessCode: p.accessCode,
    validFrom: p.validFrom,
    validUntil: p.validUntil,
    permissions: p.permissions as z.output<typeof s.Pass>['permissions'],
    idRequired: p.idRequired,
    status: statusAt(p, now),
    revokedAt: p.revokedAt,
    revokedReason: p.revokedReason,
    idVerified: p.idVerified,
    idVerifiedAt: p.idVerifiedAt,
    idVerifiedBy: p.idVerifiedBy,
    idType: p.idType,
    checkInCount: p.checkInCount,
    lastCheckInAt: p.lastCheckInAt,
    createdVia: p.createdVia,
    notes: p.notes,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
