import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { json, tenant, timestamps } from './_columns';

/**
 * Guest passes of slip reservations: an access code (at least 8 characters of an unambiguous
 * alphabet; unique among the operator's active passes by a partial unique index), a validity
 * window, permissions, check-ins and ID verification. A pass stops working at once when its
 * reservation is cancelled, checked out or expires (the verification reads the reservation; the
 * `slip_reservation.ended` hook marks the pass revoked).
 */
export const slipGuestPasses = sqliteTable(
  'slip_guest_passes',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    slipId: text('slip_id').notNull(),
    renterId: text('renter_id').notNull(),
    guestName: text('guest_name').notNull(),
    guestEmail: text('guest_email'),
    guestPhone: text('guest_phone'),
    vehiclePlate: text('vehicle_plate'),
    accessCode: text('access_code').notNull(),
    validFrom: text('valid_from').notNull(),
    validUntil: text('valid_until').notNull(),
    permissions: json<string[]>('permissions')
      .notNull()
      .$defaultFn(() => []),
    idRequired: integer('id_required', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: ['active', 'revoked', 'expired'] }).notNull(),
    revokedAt: text('revoked_at'),
    revokedReason: text('revoked_reason'),
    idVerified: integer('id_verified', { mode: 'boolean' }).notNull().default(false),
    idVerifiedAt: text('id_verified_at'),
    idVerifiedBy: text('id_verified_by'),
    idType: text('id_type'),
    checkInCount: integer('check_in_count').notNull().default(0),
    lastCheckInAt: text('last_check_in_at'),
    createdVia: text('created_via').notNull().default('staff'),
    notes: text('notes'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('slip_guest_pass_code_uq')
      .on(t.customerId, t.accessCode)
      .where(sql`status = 'active'`),
    index('slip_guest_pass_location_idx').on(t.customerId, t.locationId, t.status),
    index('slip_guest_pass_reservation_idx').on(t.customerId, t.reservationId),
    index('slip_guest_pass_due_idx').on(t.status, t.validUntil),
  ],
);
