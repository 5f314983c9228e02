/** The rows every billing step writes: invoices, payment attempts, history entries, receipts and period grants. */
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { localDate } from '../../lib/time';
import { emailStmt } from '../../adapters/messages';
import { membershipEvents, membershipInvoices, membershipPayments } from '../../db/schema/memberships';
import { linesTotal, localDay, money, type InvoiceLine } from './periods';
import { creditEntryStmt } from './credits';
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

export const invoiceStmt = (ctx: Ctx, inv: InvoiceRow): Stmt => ctx.db.insert(membershipInvoices).values(inv);

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
 * dates are the operator's local days (`tz`).
 */
export function receiptStmt(
  ctx: Ctx,
  tz: string,
  m: Pick<MembershipRow, 'id' | 'customerId' | 'memberName' | 'currency'>,
  inv: InvoiceRow,
  to: string,
  tierName?: string,
) {
  const lines = ((inv.lines ?? []) as unknown as InvoiceLine[])
    .map((l) => `- ${l.description}: ${money(l.amount, inv.currency)}${l.proration ? ` (${l.proration.formula} cents)` : ''}`)
    .join('\n');
  return emailStmt(ctx, {
    customerId: m.customerId,
    to,
    subject: `Receipt ${inv.number}${tierName ? ` - ${tierName}` : ''}`,
    body: `Hello ${m.memberName ?? ''},\n\nInvoice ${inv.number} for the period ${localDay(inv.periodStart, tz)} to ${localDay(inv.periodEnd, tz)}:\n${lines}\n\nTotal: ${money(inv.total, inv.currency)}; paid: ${money(inv.amountPaid, inv.currency)}${inv.amountRefunded ? `; refunded: ${money(inv.amountRefunded, inv.currency)}` : ''}.`,
    template: 'membership.receipt',
    metadata: { membershipId: m.id, invoiceId: inv.id },
  });
}
