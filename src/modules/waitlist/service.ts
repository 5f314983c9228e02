/**
 * Waitlist: people waiting for a tour departure or a rental window of one item on one local date.
 *
 * Statuses: `waiting` -> `offered` -> `booked` | `expired` | `cancelled`; `waiting` -> `cancelled` |
 * `closed`. When capacity comes back (a booking cancelled or marked no-show, an offer expired or
 * cancelled) the oldest matching `waiting` entries are offered the spot in order: for each, a hold
 * for exactly that departure/window is reserved through the item's InventoryLock (the lock decides
 * what is really free; a refusal stops the cascade), then one commit() batch writes the offer row,
 * the `holds` row, its allocations, the entry's `offered` state and the offer e-mail. The offer row's
 * entry id is a sub-select of the entry while it is `waiting` (NOT NULL, unique), so an entry that
 * is no longer waiting or was offered before makes the whole batch abort: an entry is never offered
 * twice, and the lock plus the allocation triggers never let one seat be held twice.
 *
 * The hold is an ordinary `holds` row (its id is the offer id): a booking by the same e-mail uses the
 * held seat and marks the hold `consumed` (src/modules/bookings/create.ts); the entry then becomes
 * `booked` (on the next read of it or the cron sweep). Offers expire after 24 hours (or at the
 * departure/window start if sooner): the sweep marks them `expired`, ends the hold and offers the
 * spot to the next waiting entry. Entries whose date (or departure time) has passed become `closed`.
 */
//
// This file is the waitlist's face; the logic lives in the files next to it: types.ts (row type,
// statuses), views.ts (responses and the offer link), join.ts (public join), queries.ts (operator
// reads), booked.ts (offers a booking used), offers.ts (the cascade and manual offers), offer-sale.ts
// (one offer, through the sale pipeline), cancel.ts (cancel), sweep.ts (cron sweep), errors.ts and
// d1-results.ts (helpers). Others use it for:
// - offering a freed spot down the queue (tests drive the cascade directly): cascadeSpot
export { cascadeSpot } from './offers';
