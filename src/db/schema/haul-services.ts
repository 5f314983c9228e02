import { sqliteTable, text, integer, index, check } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { json, tenant, timestamps, createdAt } from './_columns';

export interface HaulBoat {
  vesselName: string;
  loaFt: number;
  beamFt: number | null;
  draftFt: number | null;
  weightLbs: number | null;
}

export interface HaulPricing {
  lines: { description: string; amountCents: number; taxable: boolean }[];
  subtotalCents: number;
  taxRatePercent: number;
  taxCents: number;
  totalCents: number;
}

export interface HaulPhoto {
  id: string;
  key: string;
  contentType: string;
  sizeBytes: number;
  caption: string | null;
  uploadedAt: string;
}

/**
 * Haul services (haul out, launch, haul and hold, round trip, relocation): requested → scheduled
 * (with pricing) → confirmed → in_progress → completed, or cancelled. The lifts a scheduled service
 * takes are rows of `haul_lift_bookings`.
 */
export const haulServices = sqliteTable(
  'haul_services',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    serviceNumber: text('service_number').notNull(),
    reservationId: text('reservation_id'),
    slipId: text('slip_id'),
    renterId: text('renter_id').notNull(),
    renter: json<{ firstName: string; lastName: string; email: string; phone: string | null }>('renter').notNull(),
    serviceType: text('service_type', { enum: ['haul_out', 'launch', 'haul_and_hold', 'round_trip', 'relocation'] }).notNull(),
    boat: json<HaulBoat>('boat').notNull(),
    status: text('status', { enum: ['requested', 'scheduled', 'confirmed', 'in_progress', 'completed', 'cancelled'] }).notNull(),
    requestedDate: text('requested_date').notNull(),
    requestedReturnDate: text('requested_return_date'),
    scheduledDate: text('scheduled_date'),
    scheduledTime: text('scheduled_time'),
    returnDate: text('return_date'),
    destination: text('destination'),
    pricing: json<HaulPricing>('pricing'),
    photos: json<HaulPhoto[]>('photos')
      .notNull()
      .$defaultFn(() => []),
    notes: text('notes'),
    staffNotes: text('staff_notes'),
    requestedVia: text('requested_via').notNull().default('staff'),
    scheduledAt: text('scheduled_at'),
    confirmedAt: text('confirmed_at'),
    confirmedBy: text('confirmed_by'),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
    cancelledAt: text('cancelled_at'),
    cancelReason: text('cancel_reason'),
    /** The amount posted to the reservation on completion (null while not charged or without a reservation). */
    chargedCents: integer('charged_cents'),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    index('haul_services_location_idx').on(t.customerId, t.locationId, t.status, t.scheduledDate),
    index('haul_services_renter_idx').on(t.customerId, t.renterId),
    index('haul_services_reservation_idx').on(t.customerId, t.reservationId),
  ],
);

/**
 * One row per lift a scheduled haul service takes on a local day. `seq` is the count of that day's
 * lifts + 1 when the row is written, in the INSERT itself, and `capacity` the location's daily lift
 * capacity then: the CHECK refuses the row once the day is full. D1 runs statements one at a time,
 * so two services scheduled at once for the last lift of a day cannot both get it.
 */
export const haulLiftBookings = sqliteTable(
  'haul_lift_bookings',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    serviceId: text('service_id').notNull(),
    liftDate: text('lift_date').notNull(),
    kind: text('kind').notNull(),
    seq: integer('seq').notNull(),
    capacity: integer('capacity').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('haul_lift_day_idx').on(t.customerId, t.locationId, t.liftDate),
    index('haul_lift_service_idx').on(t.serviceId),
    check('haul_lift_capacity_check', sql`${t.seq} <= ${t.capacity}`),
  ],
);
