import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { shareByWeight, toCents } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { posRefunds, posStock, posTransactions } from '../../db/schema/pos';
import { PaymentError } from '../../adapters/payments';
import { collectPayment, refundPayment, type CommitMoney, type Refunded } from '../payments/service';
import { insertLedger, ledgerOfSales, type LedgerRow, type NewLedger } from '../bookings/service';
import { posFail } from './errors';
import { transactionInTenant, transactionView } from './queries';
import type { StoredLine, TransactionRow } from './views';

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
  /** The sale's ledger entries before this refund (its charges and the reversals of earlier refunds). */
  sale: LedgerRow[];
  /** This refund takes what was left: its reversals bring every charge of the sale to zero. */
  completes: boolean;
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
  const reservedNow = await reserveRefund(ctx, { customerId, t, amount });
  const refund: PosRefund = {
    customerId,
    t,
    input,
    amount,
    restock,
    refundId: newId('pref'),
    nowIso: new Date(ctx.clock.now()).toISOString(),
    method: t.paymentType,
    sale: (await ledgerOfSales(ctx, customerId, 'transaction', [t.id])).get(t.id) ?? [],
    completes: reservedNow === t.total,
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
    transaction: await transactionView(ctx, customerId, after),
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

/**
 * Reserves the amount on the unsettled sale with one conditional UPDATE and answers what is reserved
 * on the sale with it; a lost race answers settled or what is left.
 */
async function reserveRefund(ctx: Ctx, { customerId, t, amount }: Reservation): Promise<number> {
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
    .returning({ refundedAmount: posTransactions.refundedAmount })
    .get();
  if (reserved) return reserved.refundedAmount;
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
  stmts.push(...insertLedger(ctx, refundLedgerEntries(refund, r)));
  await commitMoney(stmts, {
    audit: { action: 'pos.refund', targetType: 'pos_transaction', targetId: t.id, details: { refundId, amount, refundType: input.refundType, method } },
  });
}

const metaOf = (e: LedgerRow) => (e.metadata ?? {}) as { reversalOf?: string; posItemId?: string; variantId?: string; quantity?: number };

/**
 * The reversals of a refund: goods given back take their share of the sale's charges off the ledger,
 * so the sale's money (lib/money-view.ts) and every revenue report net them out. A refund of `a` cents
 * of a sale with subtotal S, discount D and total T takes round(a·S/T) off revenue (shared over the
 * sale's lines by subtotal, each line naming its product and the units restocked), round(a·D/T) off
 * the discount and the rest off tax (into revenue when the sale has no tax), so the reversals add up
 * to −a exactly; the refund that takes what is left reverses what each charge still holds.
 */
function reversalEntries(refund: PosRefund): NewLedger[] {
  const { t, amount, restock } = refund;
  const reversals = new Map<string, number>();
  for (const e of refund.sale) {
    const of = metaOf(e).reversalOf;
    if (of) reversals.set(of, (reversals.get(of) ?? 0) + e.amount);
  }
  const charges = refund.sale.filter((e) => e.affectsBalance && !metaOf(e).reversalOf && ['revenue', 'discount', 'tax'].includes(e.entryType));
  const ofType = (type: string) => charges.filter((e) => e.entryType === type);
  const back = new Map<LedgerRow, number>();
  if (refund.completes) {
    for (const e of charges) back.set(e, e.amount + (reversals.get(e.id) ?? 0));
  } else {
    const total = t.subtotal - t.discountTotal + t.taxTotal;
    let rs = Math.round((amount * t.subtotal) / total);
    const ds = Math.round((amount * t.discountTotal) / total);
    let xs = amount - rs + ds;
    if (!ofType('tax').length) [rs, xs] = [rs + xs, 0];
    const spread = (type: string, cents: number, sign: 1 | -1) => {
      const es = ofType(type);
      shareByWeight(
        cents,
        es.map((e) => Math.abs(e.amount)),
      ).forEach((share, i) => back.set(es[i], sign * share));
    };
    spread('revenue', rs, 1);
    spread('discount', ds, -1);
    spread('tax', xs, 1);
  }
  const units = new Map(restock.map((x) => [x.variantId, 0]));
  for (const x of restock) units.set(x.variantId, (units.get(x.variantId) ?? 0) + x.quantity);
  const out: NewLedger[] = [];
  for (const [e, cents] of back) {
    if (!cents) continue;
    const m = metaOf(e);
    const returned = e.entryType === 'revenue' && m.variantId ? (units.get(m.variantId) ?? 0) : 0;
    if (returned) units.delete(m.variantId!);
    out.push(
      refundEntry(refund, e.renterId, {
        entryType: e.entryType,
        amount: -cents,
        description: `Returned: ${e.description ?? e.entryType}`,
        metadata: { reversalOf: e.id, ...(m.posItemId ? { posItemId: m.posItemId, variantId: m.variantId ?? null, quantity: -returned } : {}) },
      }),
    );
  }
  return out;
}

/**
 * The refund's ledger entries: the reversals of what it gives back, and the money returned (`refund`,
 * +); an account sale's refund returns no money: its reversals lower what the renter owes.
 */
function refundLedgerEntries(refund: PosRefund, r: Refunded | null): NewLedger[] {
  const { t, input, amount, refundId, method } = refund;
  const renterId = refund.sale.find((e) => e.renterId)?.renterId ?? (method === 'account' ? t.accountId : null);
  const entries = reversalEntries(refund);
  if (method !== 'account')
    entries.push(
      refundEntry(refund, renterId, {
        entryType: 'refund',
        amount,
        description: `POS ${input.refundType} refund of ${t.id}`,
        metadata: { posTransactionId: t.id, posRefundId: refundId, providerRefundId: r?.refundId ?? null },
      }),
    );
  return entries;
}

function refundEntry(
  { customerId, t, refundId, nowIso }: PosRefund,
  renterId: string | null,
  e: Pick<NewLedger, 'entryType' | 'amount' | 'description' | 'metadata'>,
): NewLedger {
  return {
    id: newId('led'),
    customerId,
    locationId: t.locationId,
    renterId,
    transactionId: t.id,
    rentalId: null,
    itemId: null,
    assetId: null,
    currency: t.currency,
    affectsBalance: true,
    occurredAt: nowIso,
    source: 'pos',
    reference: refundId,
    ...e,
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
