import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, createdAt } from './_columns';

/**
 * Funnel events of the booking widget (view, date chosen, slot chosen, checkout, booked), for the
 * widget metrics: one row per event of an anonymous browser session. No personal data.
 */
export const widgetEvents = sqliteTable(
  'widget_events',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id'),
    inventoryId: text('inventory_id'),
    /** A random id the widget keeps for one visit. */
    sessionId: text('session_id').notNull(),
    event: text('event', { enum: ['view', 'date_chosen', 'slot_chosen', 'checkout', 'booked', 'waitlist'] }).notNull(),
    /** Local date and time the renter picked, when the event has them. */
    date: text('date'),
    time: text('time'),
    rentalId: text('rental_id'),
    /** Affiliate code from the page's `ref`. */
    ref: text('ref'),
    /** Host name of the page embedding the widget. */
    source: text('source'),
    details: json<Record<string, unknown>>('details'),
    createdAt: createdAt(),
  },
  (t) => [
    // Covers the widget metrics' scan (every column they read): no row lookups.
    index('widget_events_customer_idx').on(t.customerId, t.createdAt, t.locationId, t.event, t.sessionId, t.inventoryId, t.source, t.ref),
    index('widget_events_session_idx').on(t.sessionId),
  ],
);
