import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { json, tenant, timestamps } from './_columns';
import type { SlipBoat } from './slip-reservations';

/**
 * The slip waitlist of a location: renters waiting for a unit that fits their boat. Queue order is
 * `position` (ascending); joining, declining and letting an offer lapse put an entry at the bottom
 * (max + 1 in one statement). Statuses: waiting → offered → accepted, or back to waiting after a
 * declined or lapsed offer; cancelled by staff or the renter.
 */
export const slipWaitlistEntries = sqliteTable(
  'slip_waitlist_entries',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    renterId: text('renter_id').notNull(),
    renter: json<{ firstName: string; lastName: string; email: string; phone: string | null }>('renter').notNull(),
    boat: json<SlipBoat>('boat').notNull(),
    /** null: any unit type. */
    unitType: text('unit_type', { enum: ['slip', 'side_tie', 'mooring', 'dry_rack'] }),
    section: text('section'),
    /** A unit the renter asked for (public join from a unit's page); others that fit are offered too. */
    preferredSlipId: text('preferred_slip_id'),
    rateType: text('rate_type', { enum: ['nightly', 'monthly', 'seasonal', 'annual'] }).notNull(),
    arrivalDate: text('arrival_date'),
    departureDate: text('departure_date'),
    /** A season the renter waits for when no dates are known ("Summer 2027"). */
    season: text('season'),
    status: text('status', { enum: ['waiting', 'offered', 'accepted', 'cancelled'] }).notNull(),
    position: integer('position').notNull(),
    source: text('source').notNull().default('staff'),
    notes: text('notes'),
    offerCount: integer('offer_count').notNull().default(0),
    declineCount: integer('decline_count').notNull().default(0),
    acceptedReservationId: text('accepted_reservation_id'),
    acceptedAt: text('accepted_at'),
    cancelledAt: text('cancelled_at'),
    cancelReason: text('cancel_reason'),
    ...timestamps(),
  },
  (t) => [
    index('slip_waitlist_queue_idx').on(t.customerId, t.locationId, t.status, t.position),
    index('slip_waitlist_renter_idx').on(t.customerId, t.renterId),
    // One open entry per renter, location and rate type (a second join answers the first).
    uniqueIndex('slip_waitlist_open_entry_uq')
      .on(t.customerId, t.locationId, t.renterId, t.rateType)
      .where(sql`status IN ('waiting', 'offered')`),
  ],
);

/**
 * Offers made to waitlist entries: a unit held for the renter through a slip reservation
 * `awaiting_payment` (source `waitlist`) whose hold ends at `expiresAt`. At most one open offer per
 * entry (partial unique index): two offers racing for one entry cannot both land.
 */
export const slipWaitlistOffers = sqliteTable(
  'slip_waitlist_offers',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    entryId: text('entry_id').notNull(),
    slipId: text('slip_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    arrivalDate: text('arrival_date').notNull(),
    departureDate: text('departure_date').notNull(),
    rateType: text('rate_type').notNull(),
    status: text('status', { enum: ['offered', 'accepted', 'declined', 'expired', 'withdrawn'] }).notNull(),
    expiresAt: integer('expires_at').notNull(),
    totalCents: integer('total_cents').notNull(),
    message: text('message'),
    respondedAt: text('responded_at'),
    responseNote: text('response_note'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('slip_waitlist_open_offer_uq')
      .on(t.entryId)
      .where(sql`status = 'offered'`),
    index('slip_waitlist_offers_entry_idx').on(t.customerId, t.entryId),
    index('slip_waitlist_offers_slip_idx').on(t.customerId, t.slipId, t.status),
    index('slip_waitlist_offers_due_idx').on(t.status, t.expiresAt),
  ],
);
