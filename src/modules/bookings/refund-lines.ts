/**
 * Refunds by line: what a cancellation gives back of each line of a rental, what it keeps, and the
 * rule that decides it, read from the rental's ledger in one place. The renter's cancellation quote
 * (`cancellation-eligibility`) shows these lines before the renter confirms, the renter's and the
 * operator's cancellations refund by them, and their answers show them again: nothing is kept
 * without a line saying so.
 *
 *   rental            the rental, its add-ons, discounts and taxes: the cancellation policy's percentage
 *                     (an operator's cancellation with a refund: all of it)
 *   tip               always in full: the trip did not happen
 *   coverage_premium  always in full: the underwriter's policy is cancelled with the booking
 *   protection_plan   the plan's own rule, written on its ledger charge when it was bought
 *                     (`metadata.refund`): a cancellation cover is kept when the renter cancels
 *                     (it was in force until then); plans that cover the rental itself are refunded
 *
 * Money comes back the way it came: each payment intent refunds at most what it took (less what it
 * already gave back), a plan's premium from the plan's own charge.
 */
import type { BookingRow } from './views';
import type { LedgerRow } from './ledger';

export type RefundLineKind = 'rental' | 'tip' | 'coverage_premium' | 'protection_plan';

export interface RefundLine {
  kind: RefundLineKind;
  description: string;
  /** Cents paid for the line. */
  paid: number;
  /** Cents given back. */
  refund: number;
  /** Cents kept by the operator (a cancellation fee for the rental line). */
  kept: number;
  rule: string;
}

export interface RefundPlan {
  lines: RefundLine[];
  paid: number;
  refund: number;
  kept: number;
  /** Where the refund goes back: each payment intent and what it gives back. */
  byIntent: { paymentIntentId: string; amount: number }[];
  /**
   * Cents of the rental line's `kept` that are not a fee: goodwill credit this booking moved to the
   * renter's account and the renter already spent (`RefundTerms.withhold`, at most the line's money).
   */
  creditSpent: number;
}

export interface RefundTerms {
  by: 'renter' | 'operator';
  /** The cancellation policy's percentage for the rental line (an operator's refund: 100). */
  percent: number;
  /** The policy's words for the rental line. */
  rule: string;
  /**
   * Goodwill credit this booking moved to the renter's account that the renter has already spent
   * (cents, account-credit.ts `spentMovedCredit`): it counts as given back, so the card gets the
   * policy's refund less it; when it is more than that refund, the renter keeps it and the fee is
   * smaller by the difference (the account never goes below zero). At most the rental line's card
   * money: spent credit beyond it stays on the booking as balance due.
   */
  withhold?: number;
}

/** A plan's refund rule as written on its charge when it was bought. */
export interface PlanRefundRule {
  /** Percentage of the premium given back when the renter cancels. */
  renterPercent: number;
  rule: string;
}

interface EntryMeta {
  reversalOf?: string;
  purchaseId?: string;
  paymentIntentId?: string;
  refund?: PlanRefundRule;
  cancellationCover?: { refundPercent: number; noticeHours: number };
}
const meta = (e: LedgerRow) => (e.metadata ?? {}) as EntryMeta;

/**
 * The rental's refund percentage as a cancellation cover bought for it raises it: the cover's
 * percentage when the renter cancels at least its notice before the start, else the policy's.
 */
export function coveredPercent(entries: LedgerRow[], policyPercent: number, hoursBefore: number): { percent: number; covered: boolean } {
  let best = { percent: policyPercent, covered: false };
  for (const e of entries) {
    const cover = e.entryType === 'protection_plan' && !e.deletedAt && !meta(e).reversalOf ? meta(e).cancellationCover : undefined;
    if (cover && hoursBefore >= cover.noticeHours && cover.refundPercent > best.percent) best = { percent: cover.refundPercent, covered: true };
  }
  return best;
}
const pct = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/** The refund plan of a cancellation, from the rental's ledger entries (pure: the invariant tests call it too). */
export function refundPlanFrom(entries: LedgerRow[], b: Pick<BookingRow, 'paymentIntentId'>, terms: RefundTerms): RefundPlan {
  const live = entries.filter((e) => !e.deletedAt && !meta(e).reversalOf);
  const pools = cardPools(entries, b.paymentIntentId);
  const planIntents = new Set<string>();
  const lines: RefundLine[] = [];
  const plans: { line: RefundLine; intent: string | null }[] = [];
  for (const charge of live.filter((e) => e.entryType === 'protection_plan')) {
    const payment = live.find((e) => e.entryType === 'payment' && e.source === 'protection_plan' && meta(e).purchaseId === charge.reference);
    const intent = payment?.reference ?? null;
    if (intent) planIntents.add(intent);
    const paid = Math.min(charge.amount, intent ? (pools.get(intent) ?? 0) : 0);
    const own = meta(charge).refund;
    const percent = terms.by === 'operator' ? 100 : (own?.renterPercent ?? 100);
    const rule =
      terms.by === 'operator'
        ? 'Refunded in full: the operator cancelled'
        : (own?.rule ?? 'Refunded in full: the plan covers the rental, which will not take place');
    const line = lineOf('protection_plan', charge.description ?? 'Protection plan', paid, pct(paid, percent), rule);
    plans.push({ line, intent });
  }
  // The rest of the card money paid the booking's own lines: tips and premiums first (refunded in full), then the rental.
  let main = [...pools].filter(([id]) => !planIntents.has(id)).reduce((s, [, v]) => s + v, 0);
  const sum = (type: string) => live.filter((e) => e.entryType === type).reduce((s, e) => s + e.amount, 0);
  for (const [kind, description, rule] of [
    ['tip', 'Tip', 'Refunded in full: the trip did not take place'],
    ['coverage_premium', 'Coverage premium', 'Refunded in full: the coverage is cancelled with the booking'],
  ] as const) {
    const paid = Math.min(Math.max(0, sum(kind)), main);
    main -= paid;
    if (paid > 0) lines.push(lineOf(kind, description, paid, paid, rule));
  }
  const creditSpent = Math.min(terms.withhold ?? 0, main);
  const rule = creditSpent > 0 ? `${terms.rule}, less the account credit it gave that was already spent` : terms.rule;
  lines.unshift(lineOf('rental', 'Rental, add-ons and taxes', main, Math.max(0, pct(main, terms.percent) - creditSpent), rule));
  lines.push(...plans.map((p) => p.line));
  const byIntent = intentsOf(pools, planIntents, b.paymentIntentId, lines, plans);
  const total = (k: 'paid' | 'refund' | 'kept') => lines.reduce((s, l) => s + l[k], 0);
  return { lines, paid: total('paid'), refund: total('refund'), kept: total('kept'), byIntent, creditSpent };
}

function lineOf(kind: RefundLineKind, description: string, paid: number, refund: number, rule: string): RefundLine {
  return { kind, description, paid, refund, kept: paid - refund, rule };
}

/**
 * What each card payment intent still holds for this rental: its payments less its refunds. A
 * refund written before refunds named their intent counts against the booking's own intent.
 */
export function cardPools(entries: LedgerRow[], mainIntent: string | null): Map<string, number> {
  const pools = new Map<string, number>();
  const add = (id: string, v: number) => pools.set(id, (pools.get(id) ?? 0) + v);
  for (const e of entries) {
    if (e.deletedAt) continue;
    if (e.entryType === 'payment' && (e.source === 'card' || e.source === 'protection_plan') && e.reference) add(e.reference, -e.amount);
  }
  for (const e of entries) {
    if (e.deletedAt || e.entryType !== 'refund' || e.source !== 'card') continue;
    const id = meta(e).paymentIntentId ?? mainIntent;
    if (id) add(id, -e.amount);
  }
  for (const [id, v] of pools) if (v <= 0) pools.delete(id);
  return pools;
}

/** The refund spread over the intents that took the money: the booking's own first, then the others in the order they paid. */
function intentsOf(
  pools: Map<string, number>,
  planIntents: Set<string>,
  mainIntent: string | null,
  lines: RefundLine[],
  plans: { line: RefundLine; intent: string | null }[],
): RefundPlan['byIntent'] {
  const out = new Map<string, number>();
  let due = lines.filter((l) => l.kind !== 'protection_plan').reduce((s, l) => s + l.refund, 0);
  const order = [...pools.keys()].filter((id) => !planIntents.has(id)).sort((x, y) => (x === mainIntent ? -1 : y === mainIntent ? 1 : 0));
  for (const id of order) {
    const take = Math.min(due, pools.get(id) ?? 0);
    if (take > 0) out.set(id, take);
    due -= take;
  }
  for (const p of plans) if (p.intent && p.line.refund > 0) out.set(p.intent, (out.get(p.intent) ?? 0) + p.line.refund);
  return [...out].map(([paymentIntentId, amount]) => ({ paymentIntentId, amount }));
}
