import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Waitlist entries (`POST /public/waitlist`): a person waiting for a tour departure or a rental
 * window of one item on one local date. Statuses: `waiting` -> `offered` -> `booked` | `expired` |
 * `cancelled`; `waiting` -> `cancelled` | `closed`. An entry is offered at most once (see
 * `waitlistOffers`). `activeKey` is set while the entry is waiting or offered and cleared when it
 * ends, so the unique index allows one active entry per (item, e-mail, date, time).
 */
export const waitlistEntries = sqliteTable(
  'waitlist_entries',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    inventoryId: text('inventory_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    /** Local date (YYYY-MM-DD) in the location's zone. */
    date: text('date').notNull(),
    /** Local HH:mm: a tour departure or a rental start; null means any time that date. */
    time: text('time'),
    /** Rentals: hours wanted. */
    duration: integer('duration'),
    /** Seats (tours) or units (rentals) to hold when a spot is offered. */
    quantity: integer('quantity').notNull().default(1),
    addons: json<unknown>('addons'),
    boatAddons: json<unknown>('boat_addons'),
    giftCardCode: text('gift_card_code'),
    refAffiliate: text('ref_affiliate'),
    status: text('status', { enum: ['waiting', 'offered', 'booked', 'expired', 'cancelled', 'closed'] })
      .notNull()
      .default('waiting'),
    /** `{inventoryId}|{email}|{date}|{time}` while waiting or offered; null afterwards. */
    activeKey: text('active_key'),
    /** The offer (also the `holds` row id and the hold allocations' sourceId). */
    offerId: text('offer_id'),
    offerStart: integer('offer_start'),
    offerEnd: integer('offer_end'),
    offerAssetIds: json<string[]>('offer_asset_ids'),
    offeredAt: text('offered_at'),
    offerExpiresAt: text('offer_expires_at'),
    /** The booking link sent in the offer e-mail. */
    offerBookingUrl: text('offer_booking_url'),
    bookedAt: text('booked_at'),
    bookedRentalId: text('booked_rental_id'),
    expiredAt: text('expired_at'),
    cancelledAt: text('cancelled_at'),
    closedAt: text('closed_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('waitlist_active_uq').on(t.customerId, t.activeKey),
    index('waitlist_queue_idx').on(t.customerId, t.inventoryId, t.date, t.status, t.createdAt),
    index('waitlist_status_expiry_idx').on(t.status, t.offerExpiresAt),
    index('waitlist_status_date_idx').on(t.status, t.date),
    index('waitlist_offer_idx').on(t.offerId),
  ],
);

/**
 * One row per offer ever made. `entryId` is NOT NULL and unique and is written as a sub-select of
 * the entry *while it is waiting*: an entry that is no longer waiting, or was already offered,
 * makes the whole offer batch (hold, allocations, e-mail) abort, so one entry is never offered twice.
 */
export const waitlistOffers = sqliteTable(
  'waitlist_offers',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    entryId: text('entry_id').notNull(),
    inventoryId: text('inventory_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    quantity: integer('quantity').notNull().default(1),
    expiresAt: text('expires_at').notNull(),
    /** What freed the spot: a released booking, an expired or cancelled offer, or an operator's manual offer. */
    trigger: text('trigger', { enum: ['released', 'offer_expired', 'offer_cancelled', 'manual'] }).notNull(),
    triggerSourceId: text('trigger_source_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('waitlist_offers_entry_uq').on(t.entryId), index('waitlist_offers_item_idx').on(t.customerId, t.inventoryId, t.start)],
);
