/**
 * The daily journal of a location, built from Berth's ledger (`ledger_entries`, signed cents from
 * the renter's point of view) by double entry: each entry becomes a debit and a credit of two GL
 * accounts, then the lines are netted per account. Accrual basis: revenue, discounts, tax and tips
 * count on the rental's date, money on the day it moved; accounts receivable carries the
 * difference. Mapping (debit / credit for a positive amount; the opposite for reversals):
 *
 *   revenue            accounts_receivable / sales
 *   discount (-)       discounts / accounts_receivable
 *   tax                accounts_receivable / sales_tax
 *   tip                accounts_receivable / tips
 *   payment (-)        bank (card, cash), channel_receivable (a reseller or marketplace collected it),
 *                      gift_card_liability (paid with a gift card), customer_credit (paid with the renter's
 *                      account credit) / accounts_receivable
 *   goodwill (-)       discounts / accounts_receivable (an operator's goodwill credit lowers the price)
 *   credit             accounts_receivable / customer_credit (the part of a goodwill credit moved to the
 *                      renter's account: owed to the renter until a booking spends it; other credits, such
 *                      as membership credits given, are skipped)
 *   refund             accounts_receivable / bank
 *   deposit_capture    bank / deposits (a security deposit kept)
 *   gift_card_sale     accounts_receivable / gift_card_liability (a gift card sold or reloaded at the counter: charged
 *                      like a sale, paid by its own payment entry, owed to the holder rather than earned)
 *
 * Memo entries (deposit holds and releases, platform fees) move no money of the operator and are
 * skipped (reported in `skipped`).
 */
import type { JournalLine } from '../../db/schema/accounting';

export const GL_ACCOUNTS = {
  bank: 'Money received and refunded by card or cash (defaults to the chosen bank account)',
  accounts_receivable: 'What renters owe (charged, not yet paid)',
  sales: 'Rental and tour revenue, add-ons included',
  discounts: 'Discounts given (contra revenue)',
  sales_tax: 'Sales tax collected (payable)',
  tips: 'Tips collected for staff (payable)',
  channel_receivable: 'Money collected by resellers and marketplaces, owed to the operator',
  gift_card_liability: 'Gift cards sold and not yet redeemed',
  customer_credit: "Account credit owed to renters (goodwill credits moved to a renter's account, not yet spent on a booking)",
  deposits: 'Security deposits kept (captured)',
} as const;

export type GlKey = keyof typeof GL_ACCOUNTS;
export const GL_KEYS = Object.keys(GL_ACCOUNTS) as GlKey[];

export interface LedgerLike {
  entryType: string;
  amount: number;
  source: string | null;
  description: string | null;
}

const SKIPPED = new Set(['deposit_hold', 'deposit_release', 'platform_fee']);

function postingOf(e: LedgerLike): [GlKey, GlKey, number] | null {
  const a = e.amount;
  const moneyIn: GlKey =
    e.source === 'channel' || e.source === 'marketplace'
      ? 'channel_receivable'
      : e.source === 'gift_card'
        ? 'gift_card_liability'
        : e.source === 'account_credit'
          ? 'customer_credit'
          : 'bank';
  switch (e.entryType) {
    case 'revenue':
      return ['accounts_receivable', 'sales', a];
    case 'discount':
    case 'goodwill':
      return ['discounts', 'accounts_receivable', -a];
    case 'credit':
      return e.source === 'goodwill' ? ['accounts_receivable', 'customer_credit', a] : null;
    case 'tax':
      return ['accounts_receivable', 'sales_tax', a];
    case 'tip':
      return ['accounts_receivable', 'tips', a];
    case 'payment':
      return [moneyIn, 'accounts_receivable', -a];
    case 'refund':
      return ['accounts_receivable', 'bank', a];
    case 'deposit_capture':
      return ['bank', 'deposits', a];
    default:
      if (e.entryType.startsWith('gift_card')) return ['accounts_receivable', 'gift_card_liability', a];
      return null;
  }
}

export interface Journal {
  lines: JournalLine[];
  totalDebit: number;
  totalCredit: number;
  entryCount: number;
  skipped: { entryType: string; count: number }[];
  /** GL keys the journal uses. */
  keys: GlKey[];
}

/** Balanced by construction (each entry debits and credits the same amount); callers still check before sending. */
export function buildJournal(entries: LedgerLike[], accountOf: (key: GlKey) => string | null): Journal {
  const net = new Map<GlKey, number>();
  const skipped = new Map<string, number>();
  let used = 0;
  for (const e of entries) {
    const p = postingOf(e);
    if (!p || SKIPPED.has(e.entryType)) {
      skipped.set(e.entryType, (skipped.get(e.entryType) ?? 0) + 1);
      continue;
    }
    const [debit, credit, amount] = p;
    if (!amount) continue;
    used++;
    // amount > 0: debit `debit`, credit `credit`; a negative amount swaps the sides.
    net.set(debit, (net.get(debit) ?? 0) + amount);
    net.set(credit, (net.get(credit) ?? 0) - amount);
  }
  const lines: JournalLine[] = [];
  for (const key of GL_KEYS) {
    const n = net.get(key) ?? 0;
    if (!n) continue;
    lines.push({ account: key, accountId: accountOf(key), debit: n > 0 ? n : 0, credit: n < 0 ? -n : 0, description: GL_ACCOUNTS[key] });
  }
  return {
    lines,
    totalDebit: lines.reduce((s, l) => s + l.debit, 0),
    totalCredit: lines.reduce((s, l) => s + l.credit, 0),
    entryCount: used,
    skipped: [...skipped].map(([entryType, count]) => ({ entryType, count })),
    keys: lines.map((l) => l.account as GlKey),
  };
}

/** GL keys without an account (the bank key falls back to the bank account). */
export function missingMappings(l: { glMappings: Record<string, string> | null; bankAccountId: string | null }, keys: readonly string[] = GL_KEYS) {
  return keys.filter((k) => !(l.glMappings?.[k] ?? (k === 'bank' ? l.bankAccountId : null)));
}
