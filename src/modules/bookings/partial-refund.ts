/**
 * POST /coreBooking/{rentalId}/refunds: an operator's partial refund that does not cancel the booking.
 *
 * What it writes adds up in the one money view (lib/money-view.ts):
 *   - money given back is a `refund` entry per payment intent refunded (`refunded` grows);
 *   - a refund first gives back money the renter holds on file (paid beyond the total: a negative balance);
 *     the rest lowers the price by the same amount, a `refund_adjustment` line (`total` drops), so the balance
 *     does not grow by what was refunded and nothing is charged again by charge-balance;
 *   - a refund by line (`lines`) lowers those lines' price: one `refund_adjustment` per line, `metadata.refundOf`
 *     naming the charge, never more than is left of it.
 *
 * Never more than the booking's card payments have left to refund: the amount is claimed first with one
 * conditional INSERT of a `refund_hold` memo (paid by card − refunded − holds in flight ≥ amount), so racing
 * refunds can never together give back more than was paid; the provider is called after the claim, each
 * intent's refund committed with its ledger entries, the booking's money from its ledger and
 * `payment.refunded` (the payments service) in one batch, and the hold removed whatever happens.
 */
import { sql } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import { requirePermission, type Ctx } from '../../lib/context';
import { commit, type AuditEntry } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { MONEY_TYPES, moneyView, onFileOf } from '../../lib/money-view';
import type { Stmt } from '../../db/client';
import { ledgerEntries } from '../../db/schema/bookings';
import { PaymentError } from '../../adapters/payments';
import { refundPayment } from '../payments/service';
import { bookingErrors } from './errors';
import { insertLedger, memoEntry, moneyFromLedgerStmt, refundEntry, type LedgerDraft, type LedgerRow } from './ledger';
import { cardPools } from './refund-lines';
import { rentalLedger } from './refunds';
import { scopeOf } from './changes';
import { getBookingRow } from './queries';
import type { BookingRow } from './views';

export interface PartialRefundInput {
  /** Dollars. */
  amount?: number;
  lines?: { entryId: string; amount?: number }[];
  reason: string;
}

/** A price reduction a refund writes (cents, positive), split over the intents refunded. */
interface Adjustment {
  amount: number;
  description: string;
  refundOf?: string;
}

interface RefundPlanned {
  amount: number;
  /** Money held on file that the refund gives back without lowering the price. */
  onFile: number;
  /**
   * The plan leans on what the booking's ledger said when it was read beyond its card money (money
   * on file, a line's remainder, a credit that lowered the price): it runs alone, with no other
   * refund of the booking in flight. A plain refund of card money (nothing on file, no credit) only
   * needs the card money the claim checks, so several may run at once.
   */
  exclusive: boolean;
  adjustments: Adjustment[];
  byIntent: { paymentIntentId: string; amount: number }[];
}

export interface PartialRefundOut {
  status: 'succeeded' | 'partial';
  /** Dollars in the answer (cents while the refund runs). */
  amount: number;
  reason: string;
  refunds: { refundId: string | null; paymentIntentId: string; amount: number }[];
}

/** Entry types a refund by line can give back: charges of the booking (not money, not adjustments). */
const NOT_LINES = new Set([...MONEY_TYPES, 'refund_adjustment', 'goodwill', 'refund_hold', 'discount']);
const HOLD = 'refund_hold';
/** A hold older than this (real time) belongs to a request that died: it no longer counts. */
const STALE_HOLD_MS = 10 * 60_000;

const metaOf = (e: LedgerRow) => (e.metadata ?? {}) as { reversalOf?: string; refundOf?: string; heldAt?: number };

/** The charges of the booking a refund by line may name, each with what is left of it (cents). */
export function refundableLines(entries: LedgerRow[]): Map<string, { entry: LedgerRow; left: number }> {
  const live = entries.filter((e) => !e.deletedAt);
  const reversed = new Set(live.map((e) => metaOf(e).reversalOf).filter(Boolean));
  const out = new Map<string, { entry: LedgerRow; left: number }>();
  for (const e of live)
    if (e.affectsBalance && e.amount > 0 && !NOT_LINES.has(e.entryType) && !metaOf(e).reversalOf && !reversed.has(e.id))
      out.set(e.id, { entry: e, left: e.amount });
  for (const e of live) {
    const line = e.entryType === 'refund_adjustment' ? out.get(metaOf(e).refundOf ?? '') : undefined;
    if (line) line.left += e.amount;
  }
  return out;
}

/** What the card payments of the booking have left to refund (cents), holds of refunds in flight taken off. */
function refundableOf(entries: LedgerRow[], b: BookingRow, now: number): number {
  const pools = [...cardPools(entries, b.paymentIntentId).values()].reduce((s, v) => s + v, 0);
  const held = entries.filter((e) => e.entryType === HOLD && !e.deletedAt && (metaOf(e).heldAt ?? 0) > now - STALE_HOLD_MS).reduce((s, e) => s + e.amount, 0);
  return Math.max(0, pools - held);
}

/** The refund asked for, checked against the booking's ledger (pure). */
export function planPartialRefund(entries: LedgerRow[], b: BookingRow, input: PartialRefundInput, now: number): RefundPlanned {
  const view = moneyView(entries);
  const held = onFileOf(view);
  let amount: number;
  let onFile = 0;
  const adjustments: Adjustment[] = [];
  if (input.lines) {
    const lines = refundableLines(entries);
    const seen = new Set<string>();
    input.lines.forEach((l, i) => {
      const line = lines.get(l.entryId);
      const field = `lines.${i}`;
      if (!line || seen.has(l.entryId))
        throw bookingErrors.fail('line_not_refundable', `${l.entryId} is not a charge of this booking that can be refunded (or it is named twice)`, {
          details: [{ field: `${field}.entryId`, message: 'not a refundable charge of this booking' }],
        });
      seen.add(l.entryId);
      const cents = l.amount != null ? toCents(l.amount) : line.left;
      if (cents <= 0 || cents > line.left)
        throw bookingErrors.fail('line_not_refundable', `At most ${toDollars(line.left)} is left to refund of "${line.entry.description}"`, {
          details: [{ field: `${field}.amount`, message: `at most ${toDollars(line.left)}` }],
          extra: { entryId: l.entryId, left: toDollars(line.left) },
        });
      adjustments.push({ amount: cents, description: `Refunded: ${line.entry.description ?? line.entry.entryType}`, refundOf: l.entryId });
    });
    amount = adjustments.reduce((s, a) => s + a.amount, 0);
  } else {
    amount = toCents(input.amount ?? 0);
    onFile = Math.min(amount, held);
    if (amount > onFile) adjustments.push({ amount: amount - onFile, description: `Partial refund: ${input.reason}` });
  }
  // Never below a price of zero: what a goodwill credit already gave (to the account) is not refunded again.
  const refundable = Math.min(refundableOf(entries, b, now), held + Math.max(0, view.total));
  if (amount > refundable) throw exceeds(refundable);
  const exclusive = !!input.lines || held > 0 || view.credited !== 0;
  return { amount, onFile, exclusive, adjustments, byIntent: spreadOverIntents(cardPools(entries, b.paymentIntentId), b.paymentIntentId, amount) };
}

const exceeds = (refundable: number) =>
  bookingErrors.fail(
    'exceeds_refundable',
    refundable > 0
      ? `At most ${toDollars(refundable)} paid by card is left to refund on this booking`
      : 'Nothing paid by card is left to refund on this booking',
    { extra: { refundable: toDollars(refundable) } },
  );

/** The amount taken from the intents that paid: the booking's own first, then the others in the order they paid. */
function spreadOverIntents(pools: Map<string, number>, main: string | null, amount: number) {
  const order = [...pools.keys()].sort((x, y) => (x === main ? -1 : y === main ? 1 : 0));
  const out: { paymentIntentId: string; amount: number }[] = [];
  let due = amount;
  for (const id of order) {
    const take = Math.min(due, pools.get(id) ?? 0);
    if (take > 0) out.push({ paymentIntentId: id, amount: take });
    due -= take;
  }
  return out;
}

/** Each intent's share of the price reductions: the money held on file first (no reduction), then the adjustments in order. */
function adjustmentsPerPart(plan: RefundPlanned): Adjustment[][] {
  const queue = plan.adjustments.map((a) => ({ ...a }));
  let free = plan.onFile;
  return plan.byIntent.map((part) => {
    const fromFile = Math.min(free, part.amount);
    free -= fromFile;
    let left = part.amount - fromFile;
    const out: Adjustment[] = [];
    while (left > 0 && queue.length) {
      const a = queue[0];
      const take = Math.min(a.amount, left);
      out.push({ ...a, amount: take });
      a.amount -= take;
      left -= take;
      if (!a.amount) queue.shift();
    }
    return out;
  });
}

/**
 * The claim: one conditional INSERT of the hold, which lands only while the booking's card payments
 * (less refunds and the holds in flight) still cover the amount, and no refund in flight excludes it
 * (an exclusive plan lands only with no other hold in flight; any plan waits out an exclusive one).
 * D1 runs statements one at a time, so two racing refunds cannot both pass. The hold has no
 * location, so the analytics triggers (ledger totals by location) never count it.
 */
async function claimRefund(ctx: Ctx, b: BookingRow, plan: RefundPlanned): Promise<string> {
  const id = newId('led');
  const now = nowIso(ctx);
  const real = wallClock.now();
  const scope = sql`rental_id = ${b.id} AND customer_id = ${b.customerId} AND deleted_at IS NULL`;
  const fresh = sql`entry_type = ${HOLD} AND coalesce(json_extract(metadata, '$.heldAt'), 0) > ${real - STALE_HOLD_MS}`;
  const left = sql`(SELECT coalesce(sum(CASE
      WHEN entry_type = 'payment' AND source IN ('card', 'protection_plan') AND reference IS NOT NULL THEN -amount
      WHEN entry_type = 'refund' AND source = 'card' THEN -amount
      WHEN ${fresh} THEN -amount
      ELSE 0 END), 0)
    FROM ledger_entries WHERE ${scope})`;
  const blocking = sql`EXISTS (SELECT 1 FROM ledger_entries WHERE ${scope} AND ${fresh}
    AND (${plan.exclusive ? 1 : 0} = 1 OR json_extract(metadata, '$.exclusive') = 1))`;
  const res = await ctx.db.run(sql`INSERT INTO ledger_entries
      (id, customer_id, location_id, renter_id, transaction_id, rental_id, item_id, asset_id, entry_type, amount, currency, affects_balance,
       occurred_at, description, source, reference, metadata, created_at)
    SELECT ${id}, ${b.customerId}, NULL, ${b.renterId}, ${b.transactionId}, ${b.id}, ${b.itemId}, ${b.assetIds?.[0] ?? null}, ${HOLD},
       ${plan.amount}, ${b.currency}, 0, ${now}, 'Refund in progress', 'card', NULL, ${JSON.stringify({ heldAt: real, exclusive: plan.exclusive ? 1 : 0 })}, ${now}
    WHERE ${left} >= ${plan.amount} AND NOT ${blocking}`);
  // `changes` counts the analytics triggers' writes too: 0 means the claim did not land.
  if (!(res.meta.changes ?? 0)) {
    const refundable = refundableOf(await rentalLedger(ctx, b), b, real);
    if (refundable < plan.amount) throw exceeds(refundable);
    throw bookingErrors.fail(
      'refund_in_progress',
      'Another refund of this booking is in progress and this one depends on its outcome; retry when it completes',
    );
  }
  return id;
}

const shrinkHold = (ctx: Ctx, b: BookingRow, holdId: string, by: number): Stmt =>
  ctx.db
    .update(ledgerEntries)
    .set({ amount: sql`${ledgerEntries.amount} - ${by}` })
    .where(sql`${ledgerEntries.id} = ${holdId} AND ${ledgerEntries.customerId} = ${b.customerId}`);

const dropHold = (ctx: Ctx, b: BookingRow, holdId: string) =>
  ctx.db
    .delete(ledgerEntries)
    .where(sql`${ledgerEntries.id} = ${holdId} AND ${ledgerEntries.customerId} = ${b.customerId} AND ${ledgerEntries.entryType} = ${HOLD}`);

/** Refunds part of a booking's card payments without cancelling it (see the file comment); the booking keeps its status. */
export async function refundBookingPart(ctx: Ctx, rentalId: string, input: PartialRefundInput): Promise<PartialRefundOut> {
  requirePermission(ctx, 'bookings');
  const b = await getBookingRow(ctx, rentalId);
  const plan = planPartialRefund(await rentalLedger(ctx, b), b, input, wallClock.now());
  const holdId = await claimRefund(ctx, b, plan);
  const out: PartialRefundOut = { status: 'succeeded', amount: 0, reason: input.reason, refunds: [] };
  try {
    const shares = adjustmentsPerPart(plan);
    for (const [i, part] of plan.byIntent.entries()) {
      try {
        const refundId = await refundPart(ctx, b, part, shares[i], { holdId, reason: input.reason });
        out.amount += part.amount;
        out.refunds.push({ refundId, paymentIntentId: part.paymentIntentId, amount: part.amount });
      } catch (err) {
        if (!(err instanceof PaymentError)) throw err;
        await commit(ctx, [], {
          audit: auditOf(b, 'booking.refund_failed', { amount: toDollars(part.amount), paymentIntentId: part.paymentIntentId, error: err.message }),
        });
        // Nothing given back yet: the provider refused the refund, nothing was written.
        if (!out.refunds.length) throw new ApiError('payment_provider_error', `The payment provider refused the refund: ${err.message}`);
        out.status = 'partial';
        break;
      }
    }
  } finally {
    await dropHold(ctx, b, holdId).run();
  }
  return { ...out, amount: toDollars(out.amount), refunds: out.refunds.map((r) => ({ ...r, amount: toDollars(r.amount) })) };
}

/** One intent's refund: the provider's refund, then its ledger entries and the booking's money with `payment.refunded`, in one batch. */
async function refundPart(
  ctx: Ctx,
  b: BookingRow,
  part: { paymentIntentId: string; amount: number },
  adjustments: Adjustment[],
  o: { holdId: string; reason: string },
): Promise<string | null> {
  return refundPayment(
    ctx,
    {
      mode: 'provider',
      customerId: b.customerId,
      kind: 'booking_refund',
      paymentIntentId: part.paymentIntentId,
      amount: part.amount,
      currency: b.currency,
      reason: 'requested_by_customer',
      data: { rentalId: b.id, transactionId: b.transactionId, renterId: b.renterId, reason: o.reason, partial: true },
    },
    async (refund, commitMoney) => {
      const scope = scopeOf(b);
      const rows: LedgerDraft[] = [
        { ...refundEntry(scope, refund.amount, refund.refundId, part.paymentIntentId), description: `Refund: ${o.reason}` },
        ...adjustments.map((a) =>
          memoEntry(scope, {
            entryType: 'refund_adjustment',
            amount: -a.amount,
            affectsBalance: true,
            description: a.description,
            source: 'operator',
            reference: refund.refundId,
            metadata: { reason: o.reason, ...(a.refundOf ? { refundOf: a.refundOf } : {}) },
          }),
        ),
      ];
      const details = { amount: toDollars(refund.amount), refundId: refund.refundId, paymentIntentId: part.paymentIntentId, reason: o.reason };
      await commitMoney([...insertLedger(ctx, rows), shrinkHold(ctx, b, o.holdId, part.amount), moneyFromLedgerStmt(ctx, b)], {
        audit: auditOf(b, 'booking.partial_refund', details),
      });
      return refund.refundId;
    },
  );
}

const auditOf = (b: BookingRow, action: string, details: Record<string, unknown>): AuditEntry => ({
  action,
  targetType: 'booking',
  targetId: b.id,
  customerId: b.customerId,
  details,
});
