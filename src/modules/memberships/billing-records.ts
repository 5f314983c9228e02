/** The rows every billing step writes: invoices, payment attempts, history entries, receipts and period grants. */
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { localDate } from '../../lib/time';
import { emailStmt } from '../../adapters/messages';
import { membershipEvents, membershipInvoices, membershipPayments } from '../../db/schema/memberships';
import { linesTotal, localDay, money as formatMoneyOf, type InvoiceLine } from './periods';
import { creditEntryStmt } from './credits';
import { invoiceLedgerStmts, type LedgerMember } from './ledger';
import type { Money } from '../../lib/money-view';
import { benefitsOf, type InvoiceRow, type MembershipRow, type PaymentRow, type TierRow } from './views';

/** A history row; with `version` it is also the compare-and-swap guard of the change that produced that version. */
export function historyStmt(
  ctx: Ctx,
  m: Pick<MembershipRow, 'id' | 'customerId'>,
  type: string,
  details: Record<string, unknown> = {},
  actor?: string,
  version?: number,
): Stmt {
  return ctx.db.insert(membershipEvents).values({
    id: newId('mev'),
    customerId: m.customerId,
    membershipId: m.id,
    type,
    details,
    actor: actor ?? ctx.principal.userId ?? ctx.principal.credentialId,
    version: version ?? null,
  });
}

/**
 * A new invoice row (not yet written), dated now. Its number is readable and unique:
 * M-{yyyymmdd}-{id tail}, the date the operator's local day (`tz`).
 */
export function newInvoice(
  ctx: Ctx,
  tz: string,
  m: Pick<MembershipRow, 'id' | 'customerId' | 'currency'>,
  o: {
    kind: InvoiceRow['kind'];
    status: InvoiceRow['status'];
    periodStart: string;
    periodEnd: string;
    lines: InvoiceLine[];
    amountPaid?: number;
    renewalKey?: string | null;
    attempts?: number;
    nextAttemptAt?: string | null;
    paidAt?: string | null;
    reason?: string | null;
    id?: string;
  },
): InvoiceRow {
  const id = o.id ?? newId('minv');
  const now = nowIso(ctx);
  return {
    id,
    customerId: m.customerId,
    membershipId: m.id,
    number: `M-${localDate(Date.parse(now), tz).replace(/-/g, '')}-${id.slice(-6)}`,
    kind: o.kind,
    status: o.status,
    periodStart: o.periodStart,
    periodEnd: o.periodEnd,
    currency: m.currency,
    lines: o.lines as unknown as Record<string, unknown>[],
    total: linesTotal(o.lines),
    amountPaid: o.amountPaid ?? 0,
    amountRefunded: 0,
    renewalKey: o.renewalKey ?? null,
    attempts: o.attempts ?? 0,
    nextAttemptAt: o.nextAttemptAt ?? null,
    paidAt: o.paidAt ?? null,
    reason: o.reason ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A new invoice and its ledger entries (ledger.ts: its lines, what it collected at once, a credited net); `paymentReference` names the charge. */
export const invoiceStmts = (ctx: Ctx, m: LedgerMember, inv: InvoiceRow, paymentReference?: string | null): Stmt[] => [
  ctx.db.insert(membershipInvoices).values(inv),
  ...invoiceLedgerStmts(ctx, m, inv, paymentReference),
];

export function paymentRow(
  ctx: Ctx,
  m: Pick<MembershipRow, 'id' | 'customerId' | 'currency'>,
  o: Pick<PaymentRow, 'invoiceId' | 'kind' | 'status' | 'amount'> &
    Partial<Pick<PaymentRow, 'paymentIntentId' | 'refundId' | 'failureCode' | 'failureMessage' | 'attempt' | 'reason'>>,
): PaymentRow {
  return {
    id: newId('mpay'),
    customerId: m.customerId,
    membershipId: m.id,
    invoiceId: o.invoiceId,
    kind: o.kind,
    status: o.status,
    amount: o.amount,
    currency: m.currency,
    paymentIntentId: o.paymentIntentId ?? null,
    refundId: o.refundId ?? null,
    failureCode: o.failureCode ?? null,
    failureMessage: o.failureMessage ?? null,
    attempt: o.attempt ?? null,
    reason: o.reason ?? null,
    createdAt: nowIso(ctx),
  };
}

export const paymentStmt = (ctx: Ctx, p: PaymentRow): Stmt => ctx.db.insert(membershipPayments).values(p);

/** The tier's credits for a paid period (none when the tier grants none). */
export function periodGrantStmts(ctx: Ctx, m: Pick<MembershipRow, 'id' | 'customerId'>, tier: TierRow | undefined, invoiceId: string): Stmt[] {
  const credits = tier ? benefitsOf(tier).creditsPerPeriod : 0;
  if (!credits) return [];
  return [
    creditEntryStmt(ctx, {
      customerId: m.customerId,
      membershipId: m.id,
      kind: 'grant',
      amount: credits,
      description: `Credits of the period (${tier!.name})`,
      reference: invoiceId,
    }).stmt,
  ];
}

/**
 * The receipt e-mail of an invoice (also what POST .../invoices/{invoiceId}/resend sends again); its
 * dates are the operator's local days (`tz`), its paid, refunded, credited and balance figures the
 * invoice's money view (`money`, from its ledger entries).
 */
export function receiptStmt(
  ctx: Ctx,
  tz: string,
  m: Pick<MembershipRow, 'id' | 'customerId' | 'memberName' | 'currency'>,
  inv: InvoiceRow,
  money: Money,
  to: string,
  tierName?: string,
) {
  const figures = money;
  const amount = (cents: number) => formatMoneyOf(cents, inv.currency);
  const lines = ((inv.lines ?? []) as unknown as InvoiceLine[])
    .map((l) => `- ${l.description}: ${amount(l.amount)}${l.proration ? ` (${l.proration.formula} cents)` : ''}`)
    .join('\n');
  return emailStmt(ctx, {
    customerId: m.customerId,
    to,
    subject: `Receipt ${inv.number}${tierName ? ` - ${tierName}` : ''}`,
    body: `Hello ${m.memberName ?? ''},\n\nInvoice ${inv.number} for the period ${localDay(inv.periodStart, tz)} to ${localDay(inv.periodEnd, tz)}:\n${lines}\n\nTotal: ${amount(inv.total)}; paid: ${amount(figures.paid)}${figures.refunded ? `; refunded: ${amount(figures.refunded)}` : ''}${figures.credited ? `; credited: ${amount(figures.credited)}` : ''}${figures.balance > 0 ? `; balance due: ${amount(figures.balance)}` : ''}.`,
    template: 'membership.receipt',
    metadata: { membershipId: m.id, invoiceId: inv.id },
  });
}
