/**
 * Domain hooks: things that happened in one module that another module reacts to, without the
 * first importing the second. A module names the hooks it listens to in its `module.ts`; the app
 * collects them from the module list (`src/modules/index.ts`) and hands them to every `Ctx`.
 * The payloads are plain data and live here, in the lowest layer, so both sides can name them.
 */

/** A booking gave its capacity back (cancelled, no-show, or moved away by a reschedule), after the release was committed. */
export interface CapacityReleased {
  customerId: string;
  itemId: string;
  rentalId: string;
  locationId: string;
  start: number;
  end: number;
  /** Tour seats given back (0 for rentals). */
  seats: number;
  assetIds: string[];
  reason: 'cancelled' | 'no_show' | 'rescheduled';
}

/** A booking was cancelled (after the commit), through any path. */
export interface BookingCancelled {
  customerId: string;
  rentalId: string;
  locationId: string;
  /** ISO instant of the cancellation. */
  cancelledAt: string;
}

/** A booking moved to a new window (after the commit). Instants in epoch ms. */
export interface BookingRescheduled {
  customerId: string;
  rentalId: string;
  locationId: string;
  start: number;
  end: number;
}

/** A cancelled slip reservation was permanently deleted; modules holding its data (contracts) delete theirs. */
export interface SlipReservationDeleted {
  customerId: string;
  reservationId: string;
  locationId: string;
}

/**
 * A slip reservation stopped holding its unit for good: cancelled, checked out, or a bill hold that
 * expired (after the commit, through any path). Guest passes of the reservation stop working.
 */
export interface SlipReservationEnded {
  customerId: string;
  reservationId: string;
  locationId: string;
  status: 'cancelled' | 'checked_out' | 'expired';
}

/** A document of a slip reservation as the reservation's detail view lists it. */
export interface SlipReservationDocumentSummary {
  id: string;
  type: string;
  status: string;
  fileName: string | null;
  contentType: string | null;
  sizeBytes: number | null;
  expiresOn: string | null;
  uploadedVia: string;
  createdAt: string;
}

/** A guest pass of a slip reservation as the reservation's detail view lists it. */
export interface SlipReservationGuestPassSummary {
  id: string;
  guestName: string;
  accessCode: string;
  status: string;
  validFrom: string;
  validUntil: string;
  checkInCount: number;
}

/**
 * The detail view of a slip reservation is being built (GET /slip-reservations/{id}): the modules
 * that own its sub-resources (documents, guest passes) append theirs to the lists. This keeps the
 * reservations module below them (it never imports them) while the view shows everything.
 */
export interface SlipReservationDetail {
  customerId: string;
  reservationId: string;
  locationId: string;
  documents: SlipReservationDocumentSummary[];
  guestPasses: SlipReservationGuestPassSummary[];
}

/** An order was written through any sales path (after the commit): what referral programmes need. */
export interface BookingPlaced {
  customerId: string;
  transactionId: string;
  source: string;
  /** The promo code of the order, as the renter typed it. */
  promoCode: string | null;
  /** `extendedData.refAffiliate` of the request (a referral link of the public widget). */
  refAffiliate: string | null;
  /** Per rental, the pre-tax price after discounts (cents, without tip). */
  rentals: { rentalId: string; basis: number }[];
  placedAt: string;
}

/** A partner changed or deleted an app (its manifest, status or secrets): installations follow. */
export interface AppChanged {
  appId: string;
  deleted: boolean;
}

/** Every hook: its name and payload. */
/** A test key wiped its sandbox bookings (`POST /channel/v1/sandbox/reset`): other sales of that key holder (OCTO holds) go too. */
export interface ChannelSandboxReset {
  /** The key holder (`{connectionId or channelId}:test`). */
  scope: string;
  customerId: string;
}

export interface HookEvents {
  'capacity.released': CapacityReleased;
  'booking.cancelled': BookingCancelled;
  'booking.rescheduled': BookingRescheduled;
  'slip_reservation.deleted': SlipReservationDeleted;
  'slip_reservation.ended': SlipReservationEnded;
  'slip_reservation.detail': SlipReservationDetail;
  'booking.placed': BookingPlaced;
  'app.changed': AppChanged;
  'channel.sandbox_reset': ChannelSandboxReset;
}

export type HookName = keyof HookEvents;
