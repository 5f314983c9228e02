/**
 * Membership invoices on the ledger (through the bookings ledger: signed cents from the member's point
 * of view, `transactionId` = the invoice id, source `membership`, no location: memberships belong to
 * the account). Written in the batch of the invoice or payment row they mirror, so every invoice's
 * money is derived from its entries like any sale's (lib/money-view.ts) and the reports read them:
 *
 *   revenue     + each positive line (the period, a proration charge), id `led_minv_{invoiceId}_{line}`
 *   discount    - each negative line (a proration credit), same ids
 *   payment     - what a charge collected (by card: the reference is the payment intent)
 *   credit      + a credited invoice's net given to the membership credits instead of money
 *   refund      + money given back, with the revenue it takes back (negative `revenue` entries
 *                 reversing the invoice's lines by amount), so a refunded invoice owes nothing
 *   reversals   an open invoice voided (the membership canceled) reverses its lines, ids `led_rev_{id}`
 */
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { shareByWeight } from '../../lib/money';
import { moneyView, type Money } from '../../lib/money-view';
import { insertLedger, type NewLedger } from '../bookings/service';
import type { InvoiceLine } from './periods';
import type { InvoiceRow, MembershipRow } from './views';

export type LedgerMember = Pick<MembershipRow, 'id' | 'customerId' | 'renterId'>;
type Entry = Pick<NewLedger, 'entryType' | 'amount' | 'description' | 'occurredAt'> & Partial<NewLedger>;

const SOURCE = 'membership';

function entry(m: LedgerMember, inv: InvoiceRow, e: Entry): NewLedger {
  return {
    id: newId('led'),
    customerId: m.customerId,
    locationId: null,
    renterId: m.renterId,
    transactionId: inv.id,
    rentalId: null,
    itemId: null,
    assetId: null,
    currency: inv.currency,
    affectsBalance: true,
    source: SOURCE,
    reference: inv.number,
    ...e,
    metadata: { membershipId: m.id, invoiceId: inv.id, ...(e.metadata ?? {}) },
  };
}

const linesOf = (inv: InvoiceRow) => (inv.lines ?? []) as unknown as InvoiceLine[];
const lineEntryId = (inv: InvoiceRow, i: number) => `led_minv_${inv.id}_${i}`;

/** The charge entries of an invoice's lines (none for a line of 0), dated when the invoice is written. */
function chargeEntries(m: LedgerMember, inv: InvoiceRow): NewLedger[] {
  return linesOf(inv).flatMap((l, i) =>
    l.amount
      ? [
          entry(m, inv, {
            id: lineEntryId(inv, i),
            entryType: l.amount > 0 ? 'revenue' : 'discount',
            amount: l.amount,
            description: l.description,
            occurredAt: inv.createdAt,
            metadata: { kind: l.kind },
          }),
        ]
      : [],
  );
}

/**
 * The entries of an invoice paid (or credited) when written: its lines, what it collected
 * (`amountPaid`, dated when paid), and a credited invoice's net given to the membership credits.
 * They are also what its receipt shows (`moneyView` of them) before they are read back.
 */
export function invoiceEntries(m: LedgerMember, inv: InvoiceRow, paymentReference?: string | null): NewLedger[] {
  const rows = chargeEntries(m, inv);
  if (inv.amountPaid > 0) rows.push(paymentEntry(m, inv, inv.amountPaid, paymentReference ?? null, inv.paidAt ?? inv.createdAt));
  if (inv.status === 'credited' && inv.total < 0)
    rows.push(entry(m, inv, { entryType: 'credit', amount: -inv.total, description: 'Given as membership credits', occurredAt: inv.createdAt }));
  return rows;
}

export const invoiceLedgerStmts = (ctx: Ctx, m: LedgerMember, inv: InvoiceRow, paymentReference?: string | null): Stmt[] =>
  insertLedger(ctx, invoiceEntries(m, inv, paymentReference));

/** The money of an invoice written or settled in this batch (its receipt's figures), from the entries it has once the batch is written. */
export const writtenInvoiceMoney = (m: LedgerMember, inv: InvoiceRow): Money => moneyView(invoiceEntries(m, inv));

function paymentEntry(m: LedgerMember, inv: InvoiceRow, amount: number, reference: string | null, at: string): NewLedger {
  return entry(m, inv, { entryType: 'payment', amount: -amount, description: `Payment of invoice ${inv.number}`, reference, occurredAt: at });
}

/** A charge collected on an invoice already written (an open renewal invoice paid). */
export function invoicePaymentStmts(ctx: Ctx, m: LedgerMember, inv: InvoiceRow, amount: number, reference: string | null): Stmt[] {
  return amount > 0 ? insertLedger(ctx, [paymentEntry(m, inv, amount, reference, nowIso(ctx))]) : [];
}

/**
 * Money given back on an invoice: the `refund`, and the revenue it takes back, shared over the
 * invoice's charge lines by amount (each a reversal of its line), so the invoice's total falls by the
 * refund and its balance stays at zero.
 */
export function invoiceRefundStmts(ctx: Ctx, m: LedgerMember, inv: InvoiceRow, amount: number, refundId: string): Stmt[] {
  const charged = linesOf(inv)
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.amount > 0);
  const shares = shareByWeight(
    Math.min(
      amount,
      charged.reduce((s, c) => s + c.l.amount, 0),
    ),
    charged.map((c) => c.l.amount),
  );
  const at = nowIso(ctx);
  const rows = charged.flatMap(({ l, i }, k) =>
    shares[k]
      ? [
          entry(m, inv, {
            entryType: 'revenue',
            amount: -shares[k],
            description: `Refunded: ${l.description}`,
            occurredAt: at,
            reference: refundId,
            metadata: { reversalOf: lineEntryId(inv, i) },
          }),
        ]
      : [],
  );
  rows.push(entry(m, inv, { entryType: 'refund', amount, description: `Refund of invoice ${inv.number}`, reference: refundId, occurredAt: at }));
  return insertLedger(ctx, rows);
}

/** An open invoice voided: each of its lines reversed (once ever: the reversal's id is the line entry's). */
export function invoiceVoidStmts(ctx: Ctx, m: LedgerMember, inv: InvoiceRow): Stmt[] {
  return insertLedger(
    ctx,
    chargeEntries(m, inv).map((e) => ({
      ...e,
      id: `led_rev_${e.id}`,
      amount: -e.amount,
      description: `Voided: ${e.description}`,
      occurredAt: nowIso(ctx),
      metadata: { ...(e.metadata ?? {}), reversalOf: e.id },
    })),
  );
}
