// Public vocabulary of bookings: statuses, the booking request as the API takes it (the seed builds
// its demo bookings from it), the sales paths, and what createBooking takes and answers.
import type { DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import type { ItemContext } from '../availability/service';
import type { bookingOut } from './views';

export { BookBody, BookResult } from './schemas';
export { BOOKING_STATUSES, ACTIVE_STATUSES, type BookingStatus } from '../../lib/booking-status';

export type BookingSource = 'operator' | 'widget' | 'channel' | 'marketplace';

export interface ExtraLedgerEntry {
  entryType: string;
  /** Cents, signed as in the ledger. */
  amount: number;
  affectsBalance?: boolean;
  description: string;
  source?: string;
  reference?: string | null;
  metadata?: Record<string, unknown>;
}

export interface CreateBookingOptions {
  /** Who sells: the operator (no notice or advance-window rules), the widget, a reseller channel or a marketplace. */
  source?: BookingSource;
  /** The reseller collected the money: no payment call, status confirmed, amountPaid = total, a `payment` ledger entry with source `channel`. */
  prepaid?: boolean;
  /** The seller's tax-inclusive total in cents (single-item orders); replaces the server's price. */
  priceOverride?: { total: number };
  /** Reseller channel columns stamped on the bookings. */
  channel?: { connectionId: string; reference?: string | null; commissionRate?: number | null; testMode?: boolean; idempotencyKey?: string | null };
  /** Extra ledger entries of the first rental (the channel's platform fee). */
  extraLedger?: ExtraLedgerEntry[];
  /** Order id chosen by the caller (defaults to a new `txn_` id). */
  transactionId?: string;
  /**
   * A hold of the same sale that this booking replaces (an OCTO reservation being confirmed): its
   * allocations do not block the check inside the lock, and are deactivated in the booking's batch
   * before the booking's own allocations are written.
   */
  replacesHold?: { sourceId: string };
  /**
   * A charge added to the order and paid with it in the same card payment (the coverage premium):
   * it raises the first rental's `total` and `feeTotal` and has its own ledger entry. Cents.
   */
  surcharge?: { amount: number; entryType: string; description: string; source?: string; reference?: string | null; metadata?: Record<string, unknown> };
  /** Changes the security deposit the order takes (cents in, cents out): a coverage's deposit effect. */
  adjustDeposit?: (cents: number) => number;
  /** Only public items can be sold (the booking widget): a private item answers 404 like an unknown one. */
  publicOnly?: boolean;
  /** A gift card of the operator that pays what it can of the amount due now (the card pays the rest); spent in the booking's batch. */
  giftCard?: { code: string };
  /** Extra statements and events written in the same batch (an idempotency claim, ...). */
  statements?: Stmt[];
  events?: DomainEvent[];
  /**
   * What the caller already read in its own first round trip (the channel reads the key holder's
   * claim, connection, product and operator settings in one batch): the operator's settings and the
   * items of the order. createBooking then reads nothing before the lock call.
   */
  preloaded?: { settings: Record<string, unknown>; items: ItemContext[] };
}

export interface BookingResult extends ReturnType<typeof bookingOut> {
  rentals: ReturnType<typeof bookingOut>[];
  order: {
    transactionId: string;
    bundleGroupId: string | null;
    currency: string;
    subtotal: number;
    discountTotal: number;
    taxTotal: number;
    tipTotal: number;
    total: number;
    amountPaid: number;
    balanceDue: number;
    loyaltyPoints: number;
  };
  payment: {
    status: 'paid' | 'partially_paid' | 'unpaid' | 'prepaid';
    plan: string;
    paymentIntentId: string | null;
    amountCharged: number;
    installments?: { dueDate: string; amount: number; status: string }[];
  };
  deposit: { depositId: string; paymentIntentId: string; amount: number; status: string } | null;
  customerCreated: boolean;
}
