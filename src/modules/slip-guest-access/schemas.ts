import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { PASS_PERMISSIONS, PASS_STATUSES, VERIFY_RESULTS } from './types';

const id = () => z.string().trim().min(1).max(128);
const instant = () => z.string().datetime({ offset: true });

export const Pass = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    reservationId: z.string(),
    slipId: z.string(),
    renterId: z.string(),
    guestName: z.string(),
    guestEmail: z.string().nullable(),
    guestPhone: z.string().nullable(),
    vehiclePlate: z.string().nullable(),
    accessCode: z.string(),
    validFrom: z.string(),
    validUntil: z.string(),
    permissions: z.array(z.enum(PASS_PERMISSIONS)),
    idRequired: z.boolean(),
    status: z.enum(PASS_STATUSES).openapi({ description: 'At the time of the answer: an active pass past its window is `expired`.' }),
    revokedAt: z.string().nullable(),
    revokedReason: z.string().nullable(),
    idVerified: z.boolean(),
    idVerifiedAt: z.string().nullable(),
    idVerifiedBy: z.string().nullable(),
    idType: z.string().nullable(),
    checkInCount: z.number().int(),
    lastCheckInAt: z.string().nullable(),
    createdVia: z.string().openapi({ description: '`staff` or `tenant` (the renter in the portal).' }),
    notes: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipGuestPass');

export const PassList = z
  .object({ data: z.array(Pass), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipGuestPassList');

export const Verification = z
  .object({
    valid: z.boolean(),
    result: z.enum(VERIFY_RESULTS).openapi({ description: 'valid, not_yet_valid, expired or revoked.' }),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why a pass is not valid: `window_ended`, `revoked_by_staff`, `reservation_cancelled`, `reservation_checked_out`, ...' }),
    pass: Pass,
    reservation: z.object({
      id: z.string(),
      reservationNumber: z.string(),
      status: z.string(),
      unitNumber: z.string().nullable(),
      vesselName: z.string(),
      renterName: z.string(),
    }),
  })
  .openapi('SlipGuestPassVerification');

export const Stats = z
  .object({
    locationId: z.string(),
    byStatus: z.record(z.string(), z.number().int()),
    validNow: z.number().int(),
    expiringWithin24h: z.number().int(),
    checkedInToday: z.number().int(),
    idVerified: z.number().int(),
    total: z.number().int(),
  })
  .openapi('SlipGuestPassStats');

export const DeleteResult = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('SlipGuestPassDeleted');
export const ExpireResult = z.object({ locationId: z.string(), expired: z.number().int() }).openapi('SlipGuestPassesExpired');

export const ListQuery = z.object({
  locationId: id(),
  reservationId: id().optional(),
  status: z.enum(PASS_STATUSES).optional(),
  q: z.string().trim().min(1).max(60).optional().openapi({ description: 'Guest name or vehicle plate (substring).' }),
  limit: zLimit(200, 50),
  offset: zOffset(),
});
export const StatsQuery = z.object({ locationId: id() });
export const IdParams = z.object({ id: id() });
export const CodeParams = z.object({ accessCode: z.string().trim().min(1).max(64) });

const GuestFields = {
  guestName: z.string().trim().min(1).max(120),
  guestEmail: z.string().trim().toLowerCase().email().max(254).optional(),
  guestPhone: z.string().trim().max(32).optional(),
  vehiclePlate: z.string().trim().max(20).optional(),
  validFrom: instant().optional().openapi({ description: 'Default: now (or the arrival day when later).' }),
  validUntil: instant()
    .optional()
    .openapi({ description: "Default: the reservation's departure day at the location's check-out time (also the latest allowed)." }),
  permissions: z.array(z.enum(PASS_PERMISSIONS)).min(1).max(PASS_PERMISSIONS.length).optional().openapi({ description: 'Default: gate and dock_access.' }),
  notes: z.string().max(1000).optional(),
  notifyGuest: z.boolean().default(true).openapi({ description: 'E-mail the code to `guestEmail` (when given).' }),
};

export const CreateBody = z
  .object({
    reservationId: id(),
    ...GuestFields,
    accessCode: z
      .string()
      .trim()
      .toUpperCase()
      .optional()
      .openapi({ description: 'A code of your own (8 to 16 of 23456789ABCDEFGHJKMNPQRSTUVWXYZ); default: a random 8-character code.' }),
    idRequired: z.boolean().default(false).openapi({ description: "Check-in needs the guest's ID verified first." }),
  })
  .strict()
  .openapi('CreateSlipGuestPass');

/** The renter's own passes in the tenant portal (no own code, no ID rule). */
export const TenantCreateBody = z.object(GuestFields).strict().openapi('CreateTenantGuestPass');

export const UpdateBody = z
  .object({
    guestName: z.string().trim().min(1).max(120).optional(),
    guestEmail: z.string().trim().toLowerCase().email().max(254).nullable().optional(),
    guestPhone: z.string().trim().max(32).nullable().optional(),
    vehiclePlate: z.string().trim().max(20).nullable().optional(),
    validFrom: instant().optional(),
    validUntil: instant().optional(),
    permissions: z.array(z.enum(PASS_PERMISSIONS)).min(1).max(PASS_PERMISSIONS.length).optional(),
    idRequired: z.boolean().optional(),
    notes: z.string().max(1000).nullable().optional(),
    regenerateCode: z.literal(true).optional().openapi({ description: 'Issue a new random code (the old one stops working).' }),
  })
  .strict()
  .openapi('UpdateSlipGuestPass');

export const CheckInBody = z.object({ note: z.string().trim().max(500).optional() }).strict();
export const VerifyIdBody = z
  .object({
    idType: z.enum(['drivers_license', 'passport', 'state_id', 'boating_license', 'other']),
    note: z.string().trim().max(500).optional(),
  })
  .strict();
export const RevokeBody = z.object({ reason: z.string().trim().max(500).optional() }).strict();
export const ExpireBody = z.object({ locationId: id() }).strict();
