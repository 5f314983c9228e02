/**
 * One money view of every sale (issue 31): a booking, a slip stay, a point-of-sale transaction or a
 * membership invoice. `moneyView` turns the sale's ledger entries (signed cents from the renter's
 * point of view, `ledger_entries`) and its deposit records into what a person sees: the lines and
 * total, what was paid, refunded and credited, the balance, and the deposit's state. It is the one
 * place these figures are derived; every read, list, renter view, e-mail and PDF of those sales shows
 * them through it (the reports sum the same entries, src/modules/analytics/ledger-sql.ts).
 *
 * Only entries that affect the balance count for money; memo entries (deposit holds and captures,
 * revenue recognition, platform fees owed by the operator) do not, deposit memos aside:
 *
 *   paid      what was received: −Σ `payment`
 *   refunded  money given back: Σ `refund`
 *   credited  value given back as credit instead of money (membership credits): Σ `credit`
 *   total     every other entry: the charges (rental, add-ons, goods, fees, premiums, tax, tips) less
 *             discounts, reversals included (0 for a sale cancelled in full; what is kept for one that
 *             keeps a fee; net of goods returned)
 *   balance   total − paid + refunded + credited = Σ of the entries: what is owed, negative when the
 *             buyer holds money on file (paid and not refunded beyond the total)
 *
 * Charges that are not on the sale's own ledger are passed as `unposted` lines: the quote of a slip
 * stay before confirmation (nothing is posted until then), the booking balance a counter payment
 * settles. They count as charges: the balance owes them.
 */
import { z } from '@hono/zod-openapi';
import { sql, type SQL } from 'drizzle-orm';
import { toDollars } from './money';

/** Entry types that move money rather than charge it (bookings' `total` and `amountPaid` split on the same rule). */
export const PAID_TYPE = 'payment';
export const REFUND_TYPE = 'refund';
export const CREDIT_TYPE = 'credit';
export const MONEY_TYPES: readonly string[] = [PAID_TYPE, REFUND_TYPE, CREDIT_TYPE];

/** The ledger's source of a payment made with the renter's account credit (bookings' account-credit.ts). */
export const ACCOUNT_CREDIT_SOURCE = 'account_credit';
/** Source of an operator's goodwill credit's entries (its `credit` entry is value moved to the renter's account). */
export const GOODWILL_SOURCE = 'goodwill';

/**
 * The ledger entries whose sum is a renter's account credit, as a condition on the ledger row `alias`:
 * the goodwill credits moved to the account (`credit` entries of source `goodwill`) and what bookings
 * paid with it (`payment` entries of source `account_credit`; a cancellation's reversal gives it back).
 * The renter's `accountCreditCents`, the booking sale's read and a cancellation's take-back sum these
 * (the view `renter_account_credit_entries` of migration 0040, which both database guards read, repeats
 * it in SQL).
 */
export const accountCreditEntrySql = (alias: string): SQL =>
  sql.raw(
    `((${alias}.entry_type = '${CREDIT_TYPE}' AND ${alias}.source = '${GOODWILL_SOURCE}') OR (${alias}.entry_type = '${PAID_TYPE}' AND ${alias}.source = '${ACCOUNT_CREDIT_SOURCE}'))`,
  );

/** A ledger entry as the view reads it (a `ledger_entries` row fits). */
export interface MoneyEntry {
  id: string;
  entryType: string;
  amount: number;
  /** As the ledger's column: true unless the entry is a memo. */
  affectsBalance?: boolean;
  description?: string | null;
  metadata?: Record<string, unknown> | null;
  deletedAt?: string | null;
}

/** A security-deposit record of the sale (a `deposits` row fits): only its status is read, for the states the ledger has no entry for. */
export interface DepositRecord {
  status: string;
}

/** A charge not on the sale's own ledger: a quote not posted yet, or the booking balance a counter payment settles. */
export interface UnpostedLine {
  description: string;
  type: string;
  amount: number;
}

export type DepositState = 'none' | 'pending' | 'held' | 'captured' | 'partially_captured' | 'released' | 'failed';

export interface MoneyLine {
  description: string;
  type: string;
  amount: number;
}

/** A sale's money in integer cents. */
export interface Money {
  lines: MoneyLine[];
  total: number;
  paid: number;
  refunded: number;
  credited: number;
  balance: number;
  deposit: { state: DepositState; held: number; captured: number; released: number };
}

/**
 * The key that gathers entries into one line: a reversal joins the entry it reverses
 * (`metadata.reversalOf`), entries naming the same `metadata.line` are one line (a charge re-posted
 * as differences), anything else is its own line.
 */
function lineKey(e: MoneyEntry): string {
  const m = e.metadata ?? {};
  if (typeof m.reversalOf === 'string') return `id:${m.reversalOf}`;
  if (typeof m.line === 'string') return `line:${m.line}`;
  return `id:${e.id}`;
}

function depositOf(entries: MoneyEntry[], records: DepositRecord[]): Money['deposit'] {
  const sum = (type: string) => entries.filter((e) => e.entryType === type).reduce((s, e) => s + e.amount, 0);
  const authorized = sum('deposit_hold');
  const captured = sum('deposit_capture');
  const released = 0 - sum('deposit_release');
  const held = Math.max(0, authorized - captured - released);
  let state: DepositState = 'none';
  if (held > 0) state = 'held';
  else if (captured > 0) state = released > 0 ? 'partially_captured' : 'captured';
  else if (released > 0) state = 'released';
  else if (records.some((r) => r.status === 'pending')) state = 'pending';
  else if (records.some((r) => r.status === 'failed')) state = 'failed';
  return { state, held, captured, released };
}

/**
 * The money of one sale from its ledger entries (in the order they were written), its deposit
 * records and its charges not posted on its ledger. Lines that net to zero (a
 * charge and its reversal) are left out; the lines always add up to `total`.
 */
export function moneyView(entries: MoneyEntry[], opts: { deposits?: DepositRecord[]; unposted?: UnpostedLine[] } = {}): Money {
  const live = entries.filter((e) => !e.deletedAt);
  const lines = new Map<string, MoneyLine>();
  let paid = 0;
  let refunded = 0;
  let credited = 0;
  for (const e of live) {
    if (e.affectsBalance === false) continue;
    if (e.entryType === PAID_TYPE) paid -= e.amount;
    else if (e.entryType === REFUND_TYPE) refunded += e.amount;
    else if (e.entryType === CREDIT_TYPE) credited += e.amount;
    else {
      const key = lineKey(e);
      const line = lines.get(key);
      if (line) line.amount += e.amount;
      else lines.set(key, { description: e.description ?? e.entryType, type: e.entryType, amount: e.amount });
    }
  }
  for (const [i, q] of (opts.unposted ?? []).entries()) lines.set(`unposted:${i}`, { description: q.description, type: q.type, amount: q.amount });
  const shown = [...lines.values()].filter((l) => l.amount !== 0);
  const total = shown.reduce((s, l) => s + l.amount, 0);
  return {
    lines: shown,
    total,
    paid,
    refunded,
    credited,
    balance: total - paid + refunded + credited,
    deposit: depositOf(live, opts.deposits ?? []),
  };
}

/** What is owed now (never below zero), and what the buyer holds on file (a negative balance). */
export const dueOf = (m: Pick<Money, 'balance'>) => Math.max(0, m.balance);
export const onFileOf = (m: Pick<Money, 'balance'>) => Math.max(0, -m.balance);

const Dollars = z.number().openapi({ description: 'Dollars (two decimals)' });

export const MoneyLineSchema = z
  .object({
    description: z.string(),
    type: z.string().openapi({ description: 'The ledger entry type of the line: revenue, discount, tax, tip, cancellation_fee, protection_plan, ...' }),
    amount: Dollars,
  })
  .openapi('MoneyLine');

export const MoneyViewSchema = z
  .object({
    currency: z.string(),
    lines: z.array(MoneyLineSchema).openapi({ description: 'The charges and discounts left after reversals; they add up to `total`' }),
    total: Dollars.openapi({ description: 'Charges less discounts, net of cancellations and goods returned' }),
    paid: Dollars.openapi({ description: 'Money received' }),
    refunded: Dollars.openapi({ description: 'Money given back' }),
    credited: Dollars.openapi({ description: 'Value given back as credit instead of money' }),
    balance: Dollars.openapi({ description: 'total − paid + refunded + credited: owed when positive, held on file for the buyer when negative' }),
    balanceDue: Dollars.openapi({ description: 'The balance when positive, else 0' }),
    deposit: z.object({
      state: z.enum(['none', 'pending', 'held', 'captured', 'partially_captured', 'released', 'failed']),
      held: Dollars,
      captured: Dollars,
      released: Dollars,
    }),
  })
  .openapi('MoneyView', { description: 'The money of a sale, derived from its ledger entries in one place (src/lib/money-view.ts)' });

export type MoneyViewOut = z.output<typeof MoneyViewSchema>;

/** The view as the API answers it: dollars, with the currency. */
export function moneyOut(m: Money, currency: string): MoneyViewOut {
  return {
    currency,
    lines: m.lines.map((l) => ({ description: l.description, type: l.type, amount: toDollars(l.amount) })),
    total: toDollars(m.total),
    paid: toDollars(m.paid),
    refunded: toDollars(m.refunded),
    credited: toDollars(m.credited),
    balance: toDollars(m.balance),
    balanceDue: toDollars(dueOf(m)),
    deposit: {
      state: m.deposit.state,
      held: toDollars(m.deposit.held),
      captured: toDollars(m.deposit.captured),
      released: toDollars(m.deposit.released),
    },
  };
}
