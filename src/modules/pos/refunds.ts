import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { posRefunds, posStock, posTransactions } from '../../db/schema/pos';
import { PaymentError } from '../../adapters/payments';
import { collectPayment, refundPayment, type CommitMoney, type Refunded } from '../payments/service';
import { insertLedger, type NewLedger } from '../bookings/service';
import { posFail } from './errors';
import { transactionInTenant } from './queries';
import { transactionOut, type StoredLine, type TransactionRow } from './views';

type RefundInput = {
  transactionId: string;
  refundType: 'full' | 'partial';
  amount?: number;
  items?: { variantId: string; quantity: number }[];
  reason?: string;
};

/** Units of a sale line going back to stock, with the stock row they return to. */
type RestockLine = { variantId: string; quantity: number; stockId: string };

/** A refund under way: the sale, the amount reserved on it, what goes back to stock, and the refund's id and time. */
interface PosRefund {
  customerId: string;
  t: TransactionRow;
  input: RefundInput;
  amount: number;
  restock: RestockLine[];
  refundId: string;
  nowIso: string;
  method: TransactionRow['paymentType'];
}

/** What the payments service answered: the provider's refund id, and whether the money already went back at the provider. */
interface RefundOutcome {
  providerRefundId: string | null;
  providerRefunded: boolean;
}

/**
 * POST /pos/transaction/refund. The amount is first reserved on the sale with one conditional
 * UPDATE (`refunded_amount + x <= total`, unsettled sales only), so two racing partial refunds can
 * never together pass what is left; the money then goes back through the payments service (card
 * and terminal sales at the provider, cash from the drawer) and the refund is written as its own row
 * and ledger entry linked to the sale, restocking what it returns. A provider failure gives the
 * reservation back.
 */
export async function refundTransaction(ctx: Ctx, input: RefundInput) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const t = await transactionInTenant(ctx, customerId, input.transactionId);
  const amount = refundableAmount(t, input);
  const restock = restockLines(t, input, await restockedSoFar(ctx, t.id));
  await reserveRefund(ctx, { customerId, t, amount });
  const refund: PosRefund = {
    customerId,
    t,
    input,
    amount,
    restock,
    refundId: newId('pref'),
    nowIso: new Date(ctx.clock.now()).toISOString(),
    method: t.paymentType,
  };
  const outcome = await sendRefund(ctx, refund);
  const after = await transactionInTenant(ctx, customerId, t.id);
  return {
    refundId: refund.refundId,
    transactionId: t.id,
    refundType: input.refundType,
    method: refund.method,
    amount: amount / 100,
    providerRefundId: outcome.providerRefundId,
    restocked: restock.map(({ variantId, quantity }) => ({ variantId, quantity })),
    createdAt: refund.nowIso,
    transaction: transactionOut(after),
  };
}

/** Checks the sale can be refunded and answers the amount in cents: what is left (full) or the amount asked (partial). */
function refundableAmount(t: TransactionRow, input: RefundInput): number {
  if (t.kind !== 'sale') throw new ApiError('bad_request', `A ${t.kind} drawer movement cannot be refunded`);
  if (t.settled) throw posFail('already_settled', `Transaction ${t.id} is settled; a settled sale cannot be refunded`);
  if (t.settleBooking) throw new ApiError('bad_request', "This sale paid a booking's balance: refund it through the booking");
  if (input.refundType === 'partial' && input.amount === undefined)
    throw new ApiError('validation_failed', 'amount is required for a partial refund', {
      details: [{ field: 'amount', code: 'required', message: 'amount is required for a partial refund' }],
    });
  const remaining = t.total - t.refundedAmount;
  const amount = input.refundType === 'full' ? remaining : toCents(input.amount!);
  if (amount <= 0) throw posFail('refund_exceeds_remaining', remaining <= 0 ? 'The sale is fully refunded already' : 'The refund amount must be above zero');
  return amount;
}

/** Units returned to stock: all that are not back yet (full), or the ones named (partial), checked against what was sold. */
function restockLines(t: TransactionRow, input: RefundInput, back: Map<string, number>): RestockLine[] {
  const lines = (t.lines ?? []) as unknown as StoredLine[];
  const restock: RestockLine[] = [];
  if (input.refundType === 'full') {
    for (const l of lines) {
      const q = l.quantity - (back.get(l.variantId) ?? 0);
      if (q > 0) restock.push({ variantId: l.variantId, quantity: q, stockId: l.stockId });
    }
    return restock;
  }
  for (const [i, r] of (input.items ?? []).entries()) {
    const l = lines.find((x) => x.variantId === r.variantId);
    if (!l)
      throw new ApiError('bad_request', `Variant ${r.variantId} is not on this sale`, { details: [{ field: `items.${i}.variantId`, message: 'not sold' }] });
    if (r.quantity > l.quantity - (back.get(l.variantId) ?? 0))
      throw new ApiError('bad_request', `Only ${l.quantity - (back.get(l.variantId) ?? 0)} of ${l.name} can still be returned`, {
        details: [{ field: `items.${i}.quantity`, message: 'more than sold' }],
      });
    restock.push({ variantId: l.variantId, quantity: r.quantity, stockId: l.stockId });
  }
  return restock;
}

/** The sale and amount a refund reserves (and gives back when the money could not be returned). */
interface Reservation {
  customerId: string;
  t: TransactionRow;
  amount: number;
}

/** Reserves the amount on the unsettled sale with one conditional UPDATE; a lost race answers settled or what is left. */
async function reserveRefund(ctx: Ctx, { customerId, t, amount }: Reservation): Promise<void> {
  const reserved = await ctx.db
    .update(posTransactions)
    .set({ refundedAmount: sql`${posTransactions.refundedAmount} + ${amount}` })
    .where(
      and(
        eq(posTransactions.id, t.id),
        eq(posTransactions.customerId, customerId),
        eq(posTransactions.settled, false),
        sql`${posTransactions.refundedAmount} + ${amount} <= ${posTransactions.total}`,
      ),
    )
    .run();
  if ((reserved.meta.changes ?? 0) === 1) return;
  const now = await transactionInTenant(ctx, customerId, t.id);
  if (now.settled) throw posFail('already_settled', `Transaction ${t.id} is settled; a settled sale cannot be refunded`);
  throw posFail('refund_exceeds_remaining', `Only ${((now.total - now.refundedAmount) / 100).toFixed(2)} is left to refund on this sale`, {
    extra: { refundableAmount: (now.total - now.refundedAmount) / 100 },
  });
}

/** Gives a reserved amount back to the sale. */
function releaseRefund(ctx: Ctx, { customerId, t, amount }: Reservation) {
  return ctx.db
    .update(posTransactions)
    .set({ refundedAmount: sql`${posTransactions.refundedAmount} - ${amount}` })
    .where(and(eq(posTransactions.id, t.id), eq(posTransactions.customerId, customerId)))
    .run();
}

/**
 * Returns the money through the payments service (card and terminal sales at the provider, an account
 * sale as a credit, cash from the drawer) and records the refund; on failure gives the reservation
 * back unless the provider already returned the money.
 */
async function sendRefund(ctx: Ctx, refund: PosRefund): Promise<RefundOutcome> {
  const { customerId, t, amount, method, input } = refund;
  const outcome: RefundOutcome = { providerRefundId: null, providerRefunded: false };
  const record = async (r: Refunded | null, commitMoney: CommitMoney) => {
    outcome.providerRefundId = r?.refundId ?? null;
    outcome.providerRefunded = r?.method === 'card';
    await recordRefund(ctx, refund, r, commitMoney);
  };
  const data = { posTransactionId: t.id, posRefundId: refund.refundId, locationId: t.locationId };
  try {
    if (method === 'card' || method === 'terminal') {
      if (!t.paymentIntentId) throw new ApiError('bad_request', 'This card sale has no payment intent to refund');
      await refundPayment(
        ctx,
        {
          mode: 'provider',
          customerId,
          kind: 'pos_refund',
          paymentIntentId: t.paymentIntentId,
          amount,
          currency: t.currency,
          reason: input.reason ?? 'requested_by_customer',
          data,
        },
        record,
      );
    } else if (method === 'account') {
      await collectPayment(ctx, null, (_p, commitMoney) => record(null, commitMoney));
    } else {
      await refundPayment(ctx, { mode: 'offline', method: 'cash', customerId, kind: 'pos_refund', amount, currency: t.currency, data }, record);
    }
  } catch (err) {
    // Give the reservation back unless the provider already returned the money (then it stays counted).
    if (!outcome.providerRefunded) await releaseRefund(ctx, { customerId, t, amount }).catch(() => undefined);
    if (err instanceof PaymentError) throw new ApiError('payment_provider_error', `The payment provider refused the refund: ${err.message}`);
    throw err;
  }
  return outcome;
}

/** Writes the refund row, the restocked units and the refund's ledger entry in the money's batch. */
async function recordRefund(ctx: Ctx, refund: PosRefund, r: Refunded | null, commitMoney: CommitMoney): Promise<void> {
  const { customerId, t, input, amount, restock, refundId, nowIso, method } = refund;
  const stmts: Stmt[] = [
    ctx.db.insert(posRefunds).values({
      id: refundId,
      customerId,
      transactionId: t.id,
      locationId: t.locationId,
      tillId: t.tillId,
      refundType: input.refundType,
      method,
      amount,
      providerRefundId: r?.refundId ?? null,
      restocked: restock.map(({ variantId, quantity }) => ({ variantId, quantity })),
      reason: input.reason ?? null,
      createdAt: nowIso,
    }),
    ...restock.map((x) =>
      ctx.db
        .update(posStock)
        .set({ quantity: sql`${posStock.quantity} + ${x.quantity}`, updatedAt: nowIso })
        .where(and(eq(posStock.id, x.stockId), eq(posStock.customerId, customerId))),
    ),
  ];
  stmts.push(...insertLedger(ctx, [refundLedgerEntry(refund, r)]));
  await commitMoney(stmts, {
    audit: { action: 'pos.refund', targetType: 'pos_transaction', targetId: t.id, details: { refundId, amount, refundType: input.refundType, method } },
  });
}

/** The refund's ledger entry: money given back is a `refund` (+); an account sale's refund is a `credit` (-) on what the renter owes. */
function refundLedgerEntry({ customerId, t, input, amount, refundId, nowIso, method }: PosRefund, r: Refunded | null): NewLedger {
  return {
    id: newId('led'),
    customerId,
    locationId: t.locationId,
    renterId: method === 'account' ? t.accountId : null,
    transactionId: t.id,
    rentalId: null,
    itemId: null,
    assetId: null,
    currency: t.currency,
    affectsBalance: true,
    occurredAt: nowIso,
    entryType: method === 'account' ? 'credit' : 'refund',
    amount: method === 'account' ? -amount : amount,
    description: `POS ${input.refundType} refund of ${t.id}`,
    source: 'pos',
    reference: refundId,
    metadata: { posTransactionId: t.id, posRefundId: refundId, providerRefundId: r?.refundId ?? null },
  };
}

/** Units of each variant already returned to stock by earlier refunds of the sale. */
async function restockedSoFar(ctx: Ctx, transactionId: string): Promise<Map<string, number>> {
  const rows = await ctx.db.select({ restocked: posRefunds.restocked }).from(posRefunds).where(eq(posRefunds.transactionId, transactionId)).all();
  const out = new Map<string, number>();
  for (const r of rows) for (const x of r.restocked ?? []) out.set(x.variantId, (out.get(x.variantId) ?? 0) + x.quantity);
  return out;
}

export type { TransactionRow };
