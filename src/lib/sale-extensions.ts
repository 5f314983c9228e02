/**
 * Sale extensions: discounts and payment sources that plug into the booking sale without the
 * bookings module importing them (promo codes, gift cards, membership benefits and credits; the
 * renter's account credit is bookings' own). A module declares its extension in its `module.ts`
 * (`sale`); the app collects them from the module list and hands them to every context with the
 * hooks (`ctx.hooks.sale`), in module-list order.
 *
 * The sale calls each extension at fixed points of its phases (src/modules/bookings/sale.ts):
 *   read     a statement for the sale's first D1 batch (the renter's membership), parsed with it;
 *   resolve  what it needs once the items are known (a promo code's rules; may read);
 *   discount an order discount it gives (a promo code, the member's tier);
 *   pay      the part of what is due now it pays (membership credits, a gift card, account credit), never more than asked;
 *   writes   the statements of the booking's one write batch (a code's use, the credit spend);
 *   failure  the API error for a failed write it caused (a code used up meanwhile).
 *
 * Everything here is plain data, so this lowest layer can name it and every module can implement it.
 */
import type { DB, Stmt } from '../db/client';
import type { Ctx } from './context';

/** What the order asks of the extensions (each reads its own). */
export interface SaleAsks {
  promoCode?: string;
  giftCard?: string;
  membershipCredits?: { amount?: number };
  accountCredit?: { amount?: number };
}

/** What is known of a sale before its first read. */
export interface SaleFacts {
  customerId: string;
  /** The sales path: operator, widget, channel, marketplace, ... */
  source: string;
  now: number;
  /** The renter's e-mail. */
  email: string;
  asks: SaleAsks;
  /** A seller-set price or a sale paid to a reseller: no member pricing and no credits. */
  sellerPriced: boolean;
}

/** What is known once the items are read. */
export interface SaleScope extends SaleFacts {
  locationId: string;
  itemIds: string[];
  currency: string;
  /** The operator's settings (`customers.settings`). */
  settings: Record<string, unknown>;
}

/** An order discount: a percentage of the pre-tax price or an amount in cents. */
export interface SaleDiscount {
  /** The kinds of discount line the booking's price and ledger know from extensions. */
  type: 'promo' | 'membership';
  code?: string;
  percent?: number;
  amount?: number;
}

/** A payment source's part of what is due now (cents), as the ledger records it. */
export interface SalePayment {
  /** The ledger's payment source. */
  source: 'membership_credits' | 'gift_card' | 'account_credit';
  amount: number;
  /** Ledger reference (null: the transaction id). */
  reference: string | null;
  description: string;
  /** The most this source could pay (a gift card's balance), when it has a limit of its own. */
  available?: number;
}

/** The sale as written: what `writes` needs to record its part. */
export interface SaleWritten {
  customerId: string;
  transactionId: string;
  rentalIds: string[];
  /** Per rental, what it costs (cents, tax and surcharge included). */
  totals: number[];
  /** The order's pre-discount subtotal (cents). */
  subtotal: number;
  /** Discount amounts applied, by discount type (cents). */
  discounted: Record<string, number>;
  /** Per rental, the part of this extension's payment it took (cents; empty when it paid nothing). */
  paidPerRental: number[];
}

/** A step of an extension that reads nothing of its own state answers `undefined`. */
export interface SaleExtension<F = unknown> {
  /** The module it belongs to (for logs). */
  name: string;
  /** The order asks something of this extension (false: it sits the sale out). */
  wanted(facts: SaleFacts): boolean;
  read?(db: DB, facts: SaleFacts): { stmt: Stmt; parse(rows: unknown[]): F | null } | null;
  resolve?(ctx: Ctx, scope: SaleScope, found: F | null): Promise<F | null>;
  discount?(scope: SaleScope, found: F | null): SaleDiscount | null;
  /**
   * Discounts stack in this order, each on what the earlier ones left: `code` (a promo code), then the
   * seller's manual discount, then `benefit` (a member's tier). Default `code`.
   */
  discountStage?: 'code' | 'benefit';
  pay?(scope: SaleScope, found: F | null, due: number): SalePayment | null;
  /** Payment sources pay in ascending order (membership credits 1, a gift card 2, account credit 3), the card the rest. */
  payOrder?: number;
  writes?(ctx: Ctx, found: F | null, sale: SaleWritten, payment: SalePayment | null): Stmt[];
  failure?(err: unknown, facts: SaleFacts): unknown;
}

/** Erases an extension's own state type so extensions of several modules sit in one list. */
export const saleExtension = <F>(x: SaleExtension<F>): SaleExtension => x as unknown as SaleExtension;
