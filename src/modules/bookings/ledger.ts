/**
 * Journal entries of bookings in `ledger_entries` (signed cents from the renter's point of view:
 * positive = owed by the renter, negative = paid or taken off). Renter balances, analytics and
 * settlement read these rows.
 *
 *   revenue          + rental price and each add-on (metadata.addonId), dated at the rental start
 *   discount         - each discount (bundle, promo code, manual)
 *   tax              + each tax line
 *   tip              + the tip (never taxed)
 *   payment          - money received (source `card`; `channel` when a reseller collected it; `membership_credits`
 *                      when membership credits paid it; `gift_card` when a gift card paid it; `account_credit` when
 *                      the renter's account credit paid it: account-credit.ts)
 *   refund           + money given back through the payment provider
 *   refund_adjustment - the price lowered by an operator's partial refund (partial-refund.ts; `metadata.refundOf`
 *                      names the charge a refund by line gave back)
 *   goodwill         - an operator's goodwill credit lowering what the renter owes (credits.ts)
 *   credit           + the part of a goodwill credit beyond what the booking owed, moved to the renter's account credit
 *                      (the account credit is these entries less the `account_credit` payments, reversals included)
 *   refund_hold        memo, transient: a partial refund in flight (claimed before the provider call, removed after)
 *   deposit_hold       memo (affects no balance): a security deposit pre-authorized
 *   deposit_release    memo: that hold released
 *   platform_fee       memo, or whatever the caller passes (the channel's 5 dollar fee to the operator)
 *   revenue_realized   memo: the net revenue of a completed rental, realized once (analytics' realize-completed-bookings)
 *
 * A cancellation writes a reversal of each charge with the same type and the opposite sign, with
 * the id `led_rev_{original id}`: a second reversal of the same entry is impossible.
 */
import { sql, type SQL } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { insertRows, type Stmt } from '../../db/client';
import { bookings, ledgerEntries } from '../../db/schema/bookings';
import { newId } from '../../lib/ids';
import type { LineQuote } from './pricing';

export type LedgerRow = typeof ledgerEntries.$inferSelect;
export type NewLedger = typeof ledgerEntries.$inferInsert;
/** An entry before it is written: without `occurredAt` it is dated at the writer's "now" (`insertLedger`, the context's clock). */
export type LedgerDraft = Omit<NewLedger, 'occurredAt'> & { occurredAt?: string };

/** Entry types that are charges or credits of the sale (reversed on cancellation). */
export const CHARGE_TYPES = ['revenue', 'discount', 'tax', 'tip'] as const;

export interface LedgerScope {
  customerId: string;
  locationId: string;
  renterId: string | null;
  transactionId: string;
  rentalId: string;
  itemId: string;
  assetId: string | null;
  currency: string;
}

const entry = (
  s: LedgerScope,
  e: Omit<LedgerDraft, 'id' | 'customerId' | 'locationId' | 'renterId' | 'transactionId' | 'rentalId' | 'itemId' | 'assetId' | 'currency'> & { id?: string },
): LedgerDraft => ({
  id: e.id ?? newId('led'),
  customerId: s.customerId,
  locationId: s.locationId,
  renterId: s.renterId,
  transactionId: s.transactionId,
  rentalId: s.rentalId,
  itemId: s.itemId,
  assetId: s.assetId,
  currency: s.currency,
  ...e,
});

/** The charge entries of one priced rental, dated at its start. */
export function saleEntries(s: LedgerScope, q: LineQuote, occurredAt: string, source: string): LedgerDraft[] {
  const out: LedgerDraft[] = [];
  if (q.rental)
    out.push(
      entry(s, { entryType: 'revenue', amount: q.rental, occurredAt, description: 'Rental', source, metadata: { unit: q.unit, hours: q.hours, days: q.days } }),
    );
  for (const a of q.addons)
    if (a.amount)
      out.push(
        entry(s, {
          entryType: 'revenue',
          amount: a.amount,
          occurredAt,
          description: `Add-on: ${a.name}`,
          source,
          metadata: { addonId: a.addonId, quantity: a.quantity },
        }),
      );
  for (const d of q.discounts)
    if (d.amount)
      out.push(
        entry(s, {
          entryType: 'discount',
          amount: -d.amount,
          occurredAt,
          description: d.code ? `Discount ${d.code}` : `Discount (${d.type})`,
          source,
          reference: d.code ?? null,
          metadata: { type: d.type, percent: d.percent ?? null },
        }),
      );
  for (const t of q.taxes)
    if (t.amount)
      out.push(
        entry(s, {
          entryType: 'tax',
          amount: t.amount,
          occurredAt,
          description: `${t.name} (${t.rate}%)`,
          source,
          metadata: { rate: t.rate, appliesTo: t.appliesTo },
        }),
      );
  if (q.tip) out.push(entry(s, { entryType: 'tip', amount: q.tip, occurredAt, description: 'Tip', source }));
  return out;
}

/** A payment, dated `occurredAt` or when it is written. */
export function paymentEntry(
  s: LedgerScope,
  amount: number,
  opts: {
    source: 'card' | 'channel' | 'cash' | 'membership_credits' | 'gift_card' | 'account_credit';
    reference?: string | null;
    description?: string;
    occurredAt?: string;
  },
): LedgerDraft {
  return entry(s, {
    entryType: 'payment',
    amount: -amount,
    occurredAt: opts.occurredAt,
    description: opts.description ?? 'Payment',
    source: opts.source,
    reference: opts.reference ?? null,
  });
}

/** A refund, dated when it is written, naming the payment intent it gave back from (refunds by line count per intent). */
export function refundEntry(s: LedgerScope, amount: number, reference: string | null, paymentIntentId?: string | null): LedgerDraft {
  return entry(s, {
    entryType: 'refund',
    amount,
    description: 'Refund',
    source: 'card',
    reference,
    ...(paymentIntentId ? { metadata: { paymentIntentId } } : {}),
  });
}

export function memoEntry(
  s: LedgerScope,
  e: {
    entryType: string;
    amount: number;
    description: string;
    source?: string;
    reference?: string | null;
    metadata?: Record<string, unknown>;
    affectsBalance?: boolean;
  },
): LedgerDraft {
  // Dated when it is written (insertLedger, on the context's clock).
  return entry(s, {
    entryType: e.entryType,
    amount: e.amount,
    affectsBalance: e.affectsBalance ?? false,
    description: e.description,
    source: e.source ?? null,
    reference: e.reference ?? null,
    metadata: e.metadata ?? null,
  });
}

/** The entry an entry reverses (its `metadata.reversalOf`), if it is a reversal. */
const reversalOfId = (e: LedgerRow) => (e.metadata as { reversalOf?: string } | null)?.reversalOf;

/** The entries that are not reversed and are not reversals themselves. */
export function openEntries(entries: LedgerRow[]): LedgerRow[] {
  const reversed = new Set(entries.map(reversalOfId).filter(Boolean));
  return entries.filter((e) => !reversed.has(e.id) && !reversalOfId(e));
}

/** The reversal of an entry: same type, opposite sign, deterministic id (one reversal per entry, ever). */
export function reversalOf(e: LedgerRow, description: string): NewLedger {
  return {
    id: `led_rev_${e.id}`,
    customerId: e.customerId,
    locationId: e.locationId,
    renterId: e.renterId,
    transactionId: e.transactionId,
    rentalId: e.rentalId,
    itemId: e.itemId,
    assetId: e.assetId,
    entryType: e.entryType,
    amount: -e.amount,
    currency: e.currency,
    affectsBalance: e.affectsBalance,
    occurredAt: e.occurredAt,
    description,
    source: e.source,
    reference: e.reference,
    metadata: { reversalOf: e.id },
  };
}

/** One INSERT per entry (D1 caps bound parameters per statement). */
/** Ledger rows per INSERT: every statement binds each of the table's 20 columns per row, and D1 binds at most 100 parameters. */
const LEDGER_ROWS_PER_INSERT = 5;

/**
 * The INSERTs of some ledger rows: several rows per statement (a sale's entries are one or two statements, not one each).
 * Rows without `occurredAt` are dated at the context's "now".
 */
export function insertLedger(ctx: Ctx, rows: LedgerDraft[]): Stmt[] {
  const out: Stmt[] = [];
  const at = nowIso(ctx);
  const dated: NewLedger[] = rows.map((r) => ({ ...r, occurredAt: r.occurredAt ?? at }));
  for (let i = 0; i < dated.length; i += LEDGER_ROWS_PER_INSERT) out.push(insertRows(ctx.db, ledgerEntries, dated.slice(i, i + LEDGER_ROWS_PER_INSERT)));
  return out;
}

/**
 * A booking's money, derived from its ledger in ONE place: `total` is what the booking costs (its
 * charges, discounts, taxes, tips, fees and premiums that affect the balance, reversals included:
 * 0 for a cancelled booking that keeps nothing, the fee for one that keeps a fee) and `amountPaid`
 * what was paid less what was refunded. Every change of a booking's money ends its batch with this
 * statement instead of adjusting the columns by hand, so the booking's read, the lists and
 * schedules, the renter's pages, the e-mails and the reports (which read these columns) all show the
 * ledger's figures: balance due = total - amountPaid = the sum of the entries that affect the balance.
 * `credit` entries (value moved to the renter's account credit, credits.ts) count as money given back, as the
 * money view counts them: `amountPaid` is paid less refunded less credited, so `total` is the money view's total.
 */
export function moneyFromLedgerStmt(
  ctx: Ctx,
  b: { id: string; customerId: string },
  set: { [K in keyof typeof bookings.$inferInsert]?: (typeof bookings.$inferInsert)[K] | SQL } = {},
): Stmt {
  const sumOf = (money: boolean) =>
    sql`coalesce((SELECT sum(l.amount) FROM ledger_entries l WHERE l.rental_id = ${b.id} AND l.customer_id = ${b.customerId}
      AND l.affects_balance = 1 AND l.deleted_at IS NULL AND l.entry_type ${money ? sql`IN` : sql`NOT IN`} ('payment', 'refund', 'credit')), 0)`;
  return ctx.db
    .update(bookings)
    .set({ ...set, total: sumOf(false), amountPaid: sql`-${sumOf(true)}`, updatedAt: nowIso(ctx) })
    .where(sql`${bookings.id} = ${b.id} AND ${bookings.customerId} = ${b.customerId}`);
}

/** Entry type of realized revenue: a memo (affects no balance), one per completed rental, id `led_rlz_{rentalId}`. */
export const REALIZED_REVENUE = 'revenue_realized';

/**
 * The one INSERT that realizes the revenue of completed rentals (analytics' realize-completed-bookings):
 * for each rental of `rentals` (a subquery of rental ids) that is `completed` and not a test booking,
 * a `revenue_realized` memo entry with the rental's net revenue (its `revenue` and `discount` entries,
 * reversals included), dated when it was checked out (its end otherwise). The id is
 * `led_rlz_{rentalId}`, so a rental is realized once, ever, however many runs race; the statement's
 * `changes` is the number realized by this run.
 */
export function realizationStmt(ctx: Ctx, o: { customerId: string; rentals: SQL; reference: string; nowIso: string }): Stmt {
  const b = bookings;
  return ctx.db
    .insert(ledgerEntries)
    .select(
      ctx.db
        .select({
          id: sql<string>`'led_rlz_' || ${b.id}`.as('id'),
          customerId: b.customerId,
          locationId: b.locationId,
          renterId: b.renterId,
          transactionId: b.transactionId,
          rentalId: b.id,
          itemId: b.itemId,
          assetId: sql<string | null>`json_extract(${b.assetIds}, '$[0]')`.as('asset_id'),
          entryType: sql<string>`${REALIZED_REVENUE}`.as('entry_type'),
          amount: sql<number>`coalesce((SELECT sum(l.amount) FROM ledger_entries l
            WHERE l.rental_id = bookings.id AND l.customer_id = bookings.customer_id AND l.entry_type IN ('revenue', 'discount') AND l.deleted_at IS NULL), 0)`.as(
            'amount',
          ),
          currency: b.currency,
          affectsBalance: sql<boolean>`0`.as('affects_balance'),
          occurredAt: sql<string>`coalesce(${b.checkedOutAt}, strftime('%Y-%m-%dT%H:%M:%fZ', ${b.end} / 1000.0, 'unixepoch'))`.as('occurred_at'),
          description: sql<string>`${'Revenue realized (booking completed)'}`.as('description'),
          source: sql<string>`${'analytics'}`.as('source'),
          reference: sql<string>`${o.reference}`.as('reference'),
          metadata: sql<null>`NULL`.as('metadata'),
          deletedAt: sql<null>`NULL`.as('deleted_at'),
          createdAt: sql<string>`${o.nowIso}`.as('created_at'),
        })
        .from(b)
        .where(
          // Unary + keeps the planner on the primary key (the few queued ids), not on the (customer, status) index of every completed rental.
          sql`${b.id} IN (${o.rentals}) AND +${b.customerId} = ${o.customerId} AND +${b.status} = 'completed' AND ${b.testMode} = 0`,
        ),
    )
    .onConflictDoNothing({ target: ledgerEntries.id });
}
