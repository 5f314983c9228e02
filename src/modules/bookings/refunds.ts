/**
 * Refunds by line, carried out: the rental's refund plan read from its ledger (refund-lines.ts),
 * what the cancellation keeps written as ledger lines of their own (the rental's cancellation fee,
 * a plan's premium kept), and the refund paid back intent by intent through the payments service
 * (`payment.refunded` in the batch of each refund's ledger entry). Used by the operator's and the
 * renter's cancellations alike.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit, type AuditEntry } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { toDollars } from '../../lib/money';
import { ledgerEntries } from '../../db/schema/bookings';
import { PaymentError } from '../../adapters/payments';
import { refundPayment } from '../payments/service';
import { insertLedger, memoEntry, moneyFromLedgerStmt, type LedgerDraft } from './ledger';
import type { RefundPlan } from './refund-lines';
import { scopeOf } from './changes';
import type { BookingRow } from './views';

export type { RefundLine, RefundPlan, RefundTerms } from './refund-lines';

/** The rental's ledger entries (all of them: reversals and refunds included). */
export function rentalLedger(ctx: Ctx, b: Pick<BookingRow, 'id' | 'customerId'>) {
  return ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), isNull(ledgerEntries.deletedAt)))
    .all();
}

/**
 * What a cancellation keeps, as ledger lines: the rental's cancellation fee and each plan premium kept.
 * The rental line's part that is account credit already spent (`plan.creditSpent`) is no fee: the
 * credit entry it left on the booking stands for it.
 */
export function keptEntries(b: BookingRow, plan: RefundPlan): LedgerDraft[] {
  const scope = scopeOf(b);
  return plan.lines
    .map((l) => ({ l, amount: l.kind === 'rental' ? l.kept - plan.creditSpent : l.kept }))
    .filter(({ amount }) => amount > 0)
    .map(({ l, amount }) =>
      l.kind === 'rental'
        ? memoEntry(scope, { entryType: 'cancellation_fee', amount, affectsBalance: true, description: 'Cancellation fee (policy)', source: 'policy' })
        : memoEntry(scope, { entryType: l.kind, amount, affectsBalance: true, description: `${l.description}: kept (${l.rule})`, source: 'policy' }),
    );
}

export interface PaidBack {
  status: 'succeeded' | 'failed' | 'none';
  /** Cents given back. */
  amount: number;
  refundIds: string[];
}

/**
 * Pays the plan's refund back, intent by intent, each refund committed with its ledger entry and
 * the rental's money. A refund the provider refuses stops there and is audited
 * (`booking.refund_failed`) so the operator hears of it; what was refunded before it stands.
 */
export async function payBack(ctx: Ctx, b: BookingRow, plan: RefundPlan, o: { kind: string; description: string; audit: string }): Promise<PaidBack> {
  const out: PaidBack = { status: plan.refund > 0 ? 'succeeded' : 'none', amount: 0, refundIds: [] };
  for (const part of plan.byIntent) {
    try {
      const id = await refundOne(ctx, b, part, o);
      out.amount += part.amount;
      if (id) out.refundIds.push(id);
    } catch (err) {
      if (!(err instanceof PaymentError)) throw err;
      ctx.log.error('refund failed', { rentalId: b.id, paymentIntentId: part.paymentIntentId, error: err.message });
      await commit(ctx, [], { audit: failedAudit(b, part, err.message) });
      return { ...out, status: 'failed' };
    }
  }
  return out;
}

async function refundOne(ctx: Ctx, b: BookingRow, part: { paymentIntentId: string; amount: number }, o: { kind: string; description: string; audit: string }) {
  return refundPayment(
    ctx,
    {
      mode: 'provider',
      customerId: b.customerId,
      kind: o.kind,
      paymentIntentId: part.paymentIntentId,
      amount: part.amount,
      currency: b.currency,
      reason: 'requested_by_customer',
      data: { rentalId: b.id, transactionId: b.transactionId, renterId: b.renterId },
    },
    async (refund, commitMoney) => {
      const entry = memoEntry(scopeOf(b), {
        entryType: 'refund',
        amount: refund.amount,
        affectsBalance: true,
        description: o.description,
        source: 'card',
        reference: refund.refundId,
        metadata: { paymentIntentId: part.paymentIntentId },
      });
      const audit: AuditEntry = {
        action: o.audit,
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { amount: toDollars(refund.amount), refundId: refund.refundId, paymentIntentId: part.paymentIntentId },
      };
      await commitMoney([...insertLedger(ctx, [entry]), moneyFromLedgerStmt(ctx, b)], { audit });
      return refund.refundId;
    },
  );
}

const failedAudit = (b: BookingRow, part: { paymentIntentId: string; amount: number }, error: string): AuditEntry => ({
  action: 'booking.refund_failed',
  targetType: 'booking',
  targetId: b.id,
  customerId: b.customerId,
  details: { amount: toDollars(part.amount), paymentIntentId: part.paymentIntentId, error },
});

/** The statements that write what a cancellation keeps, with the rental's money following its ledger. */
export function keptStmts(ctx: Ctx, b: BookingRow, plan: RefundPlan): Stmt[] {
  const kept = keptEntries(b, plan);
  return kept.length ? [...insertLedger(ctx, kept), moneyFromLedgerStmt(ctx, b)] : [];
}
