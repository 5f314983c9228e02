/**
 * SQL pieces shared by the analytics reads. Figures come from the ledger (`ledger_entries`, signed
 * cents from the renter's point of view) and from the bookings, point-of-sale and membership
 * records, never from figures a client sends.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * The kind of an entry: `booking` (it has a rental), `pos` (source `pos`), `slip` (source `slip`) or
 * `other`. The triggers of migration `analytics_triggers` use the same expression; keep them identical.
 */
export const kindOf = (alias: string): SQL =>
  sql.raw(
    `CASE WHEN ${alias}.rental_id IS NOT NULL THEN 'booking' WHEN ${alias}.source = 'pos' THEN 'pos' WHEN ${alias}.source = 'slip' THEN 'slip' ELSE 'other' END`,
  );

/**
 * Entries counted by analytics: not soft-deleted, not of a test-mode (sandbox channel) booking. The
 * probe goes through the partial index of test-mode bookings (a handful of rows), not the bookings'
 * primary key: it runs once per ledger entry of the range, and the primary-key probe was a third of
 * a 30-day report's time.
 */
export const countedEntry = (alias: string): SQL =>
  sql.raw(
    `${alias}.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM bookings tb INDEXED BY bookings_test_mode_idx WHERE tb.id = ${alias}.rental_id AND tb.test_mode = 1)`,
  );

/**
 * Revenue, defined once for every report (issue 31, "reports equal the ledger"): the money the operator
 * keeps. Sales (`revenue` entries: rentals and add-ons, point of sale, slips, recognised terms) less
 * `discount`s, plus what is kept beside a sale: cancellation fees, protection and coverage premiums,
 * security deposits captured. Cancellations reverse a sale's entries (same type, opposite sign), and so
 * do point-of-sale refunds (their share of the sale's lines, discount and tax: pos/refunds.ts), so the
 * sums are already net.
 */
export const KEPT_TYPES = {
  cancellationFees: ['cancellation_fee'],
  premiums: ['protection_plan', 'coverage_premium'],
  depositCaptures: ['deposit_capture'],
} as const;
export type KeptPart = keyof typeof KEPT_TYPES;
const KEPT: readonly string[] = Object.values(KEPT_TYPES).flat();

/**
 * What lowers a sale's price after it was made, like a discount: an operator's partial refund
 * (`refund_adjustment`: the money goes back as a `refund`, the price drops by as much) and a
 * goodwill credit (`goodwill`). Both are negative.
 */
export const ADJUSTMENT_TYPES: readonly string[] = ['refund_adjustment', 'goodwill'];

/** Entry types summed into revenue. */
export const REVENUE_TYPES: readonly string[] = ['revenue', 'discount', ...ADJUSTMENT_TYPES, ...KEPT];

/** Entry types the reports read. */
export const REPORTED_TYPES: readonly string[] = [...REVENUE_TYPES, 'tax', 'tip', 'refund', 'payment', 'revenue_realized'];

export const typeList = (types: readonly string[]): SQL => sql.raw(types.map((t) => `'${t}'`).join(', '));

/** True for a rental revenue row whose rental has no realization entry yet (id `led_rlz_{rentalId}`). */
export const unrealized = (alias: string): SQL =>
  sql.raw(
    `${alias}.rental_id IS NOT NULL AND ${alias}.entry_type IN ('revenue', 'discount') AND NOT EXISTS (SELECT 1 FROM ledger_entries rz WHERE rz.id = 'led_rlz_' || ${alias}.rental_id)`,
  );

export type Kind = 'booking' | 'pos' | 'slip' | 'other';

/** Sums of one group of ledger rows (a day, a month, a location), by kind and entry type. */
export class LedgerSums {
  private readonly byType = new Map<string, number>();
  unrealizedCents = 0;

  add(kind: string, type: string, amount: number, unrealizedCents = 0) {
    const key = `${kind}|${type}`;
    this.byType.set(key, (this.byType.get(key) ?? 0) + Number(amount));
    this.unrealizedCents += Number(unrealizedCents);
  }

  merge(o: LedgerSums) {
    for (const [k, v] of o.byType) this.byType.set(k, (this.byType.get(k) ?? 0) + v);
    this.unrealizedCents += o.unrealizedCents;
  }

  /** Signed sum of an entry type, of one kind or of all. */
  sum(type: string, kind?: Kind): number {
    let s = 0;
    for (const [k, v] of this.byType) {
      const [kk, t] = k.split('|');
      if (t === type && (!kind || kk === kind)) s += v;
    }
    return s;
  }

  /** What is kept beside sales, of one part (fees, premiums or deposit captures), of one kind or of all. */
  kept(part: KeptPart, kind?: Kind): number {
    return (KEPT_TYPES[part] as readonly string[]).reduce((s, t) => s + this.sum(t, kind), 0);
  }

  /** Gross revenue (before discounts): sales and everything kept, of one kind or of all. */
  gross(kind?: Kind): number {
    return this.sum('revenue', kind) + KEPT.reduce((s, t) => s + this.sum(t, kind), 0);
  }

  /** Partial refunds and goodwill credits that lowered prices after the sale (negative), of one kind or of all. */
  adjustments(kind?: Kind): number {
    return ADJUSTMENT_TYPES.reduce((s, t) => s + this.sum(t, kind), 0);
  }

  /** Revenue, the one figure every report shows: gross revenue less discounts and later price adjustments, net of cancellations and refunds. */
  revenue(kind?: Kind): number {
    return this.gross(kind) + this.sum('discount', kind) + this.adjustments(kind);
  }
}
