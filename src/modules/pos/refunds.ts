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
import { giftCardBalance, giveGiftCardValueBack, takeGiftCardValue } from '../promo-codes/service';
import { posFail } from './errors';
import { transactionInTenant, transactionView } from './queries';
import { giftCardLines, isGiftCardLine, productLines, type StoredGiftCardLine, type TransactionRow } from './views';

type RefundInput = {
  transactionId: string;
  refundType: 'full' | 'partial';
  amount?: number;
  items?: { variantId: string; quantity: number }[];
  giftCards?: { code: string; amount?: number }[];
  reason?: string;
};

/** A gift-card line refunded: the value taken back off its card (cents). */
type GiftCardPart = { line: StoredGiftCardLine; amount: number };

/** How a refund splits: the products' part and each gift-card line's (cents). */
interface RefundParts {
  products: number;
  giftCards: GiftCardPart[];
  /** The products' and the gift cards' totals on the sale. */
  productTotal: number;
  giftCardTotal: number;
}

/** Units of a sale line going back to stock, with the stock row they return to. */
type RestockLine = { variantId: string; quantity: number; stockId: string };

/** A refund under way: the sale, the amount reserved on it, what goes back to stock, and the refund's id and time. */
interface PosRefund {
  customerId: string;
  t: TransactionRow;
  input: RefundInput;
  amount: number;
  parts: RefundParts;
  restock: RestockLine[];
  refundId: string;
  nowIso: string;
  method: TransactionRow['paymentType'];
  /** The sale's ledger entries (its charges; reversals of earlier refunds may be among them). */
  sale: LedgerRow[];
  /** The products' part refunded on the sale before this refund, as reserved (cents): where its share of the charges starts. */
  productsBefore: number;
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
  checkRefundable(t, input);
  const sale = (await ledgerOfSales(ctx, customerId, 'transaction', [t.id])).get(t.id) ?? [];
  const parts = refundParts(t, input, sale);
  const amount = parts.products + parts.giftCards.reduce((n, g) => n + g.amount, 0);
  const restock = parts.products || input.refundType === 'full' ? restockLines(t, input, await restockedSoFar(ctx, t.id)) : [];
  const reserved = await reserveRefund(ctx, { customerId, t, amount, parts });
  const refund: PosRefund = {
    customerId,
    t,
    input,
    amount,
    parts,
    restock,
    refundId: newId('pref'),
    nowIso: new Date(ctx.clock.now()).toISOString(),
    method: t.paymentType,
    sale,
    productsBefore: reserved.refundedAmount - reserved.giftCardRefunded - parts.products,
  };
  await takeGiftCardValues(ctx, refund);
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
    giftCards: parts.giftCards.map((g) => ({ code: g.line.code, amount: g.amount / 100 })),
    createdAt: refund.nowIso,
    transaction: await transactionView(ctx, customerId, after),
  };
}

/** Checks the sale can be refunded at all. */
function checkRefundable(t: TransactionRow, input: RefundInput) {
  if (t.kind !== 'sale') throw new ApiError('bad_request', `A ${t.kind} drawer movement cannot be refunded`);
  if (t.settled) throw posFail('already_settled', `Transaction ${t.id} is settled; a settled sale cannot be refunded`);
  if (t.settleBooking) throw new ApiError('bad_request', "This sale paid a booking's balance: refund it through the booking");
  if (input.refundType === 'partial' && input.amount === undefined && !input.giftCards?.length)
    throw new ApiError('validation_failed', 'amount is required for a partial refund', {
      details: [{ field: 'amount', code: 'required', message: 'amount is required for a partial refund' }],
    });
  if (input.refundType === 'full' && input.giftCards?.length)
    throw new ApiError('bad_request', 'giftCards names lines of a partial refund', { details: [{ field: 'giftCards', message: 'partial refunds only' }] });
}

const exceeds = (message: string) => posFail('refund_exceeds_remaining', message);

/** What is left of a gift-card line: its total less the reversals of its entry by earlier refunds. */
function giftLineLeft(line: StoredGiftCardLine, sale: LedgerRow[]): number {
  const entry = sale.find(
    (e) => e.entryType === 'gift_card_sale' && !metaOf(e).reversalOf && (e.metadata as { promoCodeId?: string } | null)?.promoCodeId === line.promoCodeId,
  );
  const reversed = entry ? sale.filter((e) => metaOf(e).reversalOf === entry.id).reduce((n, e) => n + e.amount, 0) : 0;
  return line.total + reversed;
}

/**
 * The refund's parts in cents. Full: what is left of the products and of every gift-card line. Partial:
 * `amount` for the products and each named gift-card line (by default what is left of it). Each part is
 * checked against what is left of it (400 `refund_exceeds_remaining`); the reservation checks again, atomically.
 */
function refundParts(t: TransactionRow, input: RefundInput, sale: LedgerRow[]): RefundParts {
  const gifts = giftCardLines(t);
  const giftCardTotal = gifts.reduce((n, l) => n + l.total, 0);
  const productTotal = t.total - giftCardTotal;
  const productsLeft = productTotal - (t.refundedAmount - t.giftCardRefunded);
  const base = { productTotal, giftCardTotal };
  if (input.refundType === 'full') {
    const parts = { ...base, products: productsLeft, giftCards: gifts.map((line) => ({ line, amount: giftLineLeft(line, sale) })).filter((g) => g.amount > 0) };
    if (parts.products + parts.giftCards.reduce((n, g) => n + g.amount, 0) <= 0) throw exceeds('The sale is fully refunded already');
    return parts;
  }
  const products = input.amount !== undefined ? toCents(input.amount) : 0;
  if (products > productsLeft) throw exceeds(`Only ${(Math.max(0, productsLeft) / 100).toFixed(2)} of the products is left to refund on this sale`);
  const giftCards = (input.giftCards ?? []).map((g, i): GiftCardPart => {
    const line = gifts.find((l) => l.code.toLowerCase() === g.code.trim().toLowerCase());
    if (!line)
      throw new ApiError('bad_request', `No gift-card line ${g.code} on this sale`, {
        details: [{ field: `giftCards.${i}.code`, message: 'not on this sale' }],
      });
    const left = giftLineLeft(line, sale);
    const amount = g.amount !== undefined ? toCents(g.amount) : left;
    if (amount > left) throw exceeds(`Only ${(left / 100).toFixed(2)} of the gift card ${line.code} is left to refund on this sale`);
    return { line, amount };
  });
  if (new Set(giftCards.map((g) => g.line.promoCodeId)).size < giftCards.length)
    throw new ApiError('bad_request', 'A gift-card line is named twice', { details: [{ field: 'giftCards', message: 'one entry per card' }] });
  if (products + giftCards.reduce((n, g) => n + g.amount, 0) <= 0) throw exceeds('The refund amount must be above zero');
  return { ...base, products, giftCards: giftCards.filter((g) => g.amount > 0) };
}

/** Units returned to stock: all that are not back yet (full), or the ones named (partial), checked against what was sold. */
function restockLines(t: TransactionRow, input: RefundInput, back: Map<string, number>): RestockLine[] {
  const lines = productLines(t);
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
  parts: RefundParts;
}

const giftPart = (parts: RefundParts) => parts.giftCards.reduce((n, g) => n + g.amount, 0);

/**
 * Each refunded gift-card line's running refunded total, kept on the line itself in the sale's
 * `lines` (`refunded`, cents; never answered: the views name the fields they show). The
 * reservation adds to it and checks it against the line's total in the same UPDATE, so racing
 * refunds of one line can never together give back more than the line sold, even when its card
 * holds more value (the sale-wide gift-card cap alone let two refunds of one line pass).
 */
function lineRefunds(t: TransactionRow, parts: RefundParts, sign: 1 | -1) {
  const lines = (t.lines ?? []) as unknown[];
  const slots = parts.giftCards.map((g) => {
    const i = lines.findIndex((l) => isGiftCardLine(l) && l.promoCodeId === g.line.promoCodeId);
    const path = `$[${i}].refunded`;
    return { path, sum: sql`coalesce(json_extract(${posTransactions.lines}, ${path}), 0) + ${sign * g.amount}`, g, i };
  });
  if (!slots.length || slots.some((x) => x.i < 0)) return null;
  return {
    set: sql`json_set(${posTransactions.lines}, ${sql.join(
      slots.map((x) => sql`${x.path}, ${x.sum}`),
      sql`, `,
    )})`,
    within: slots.map((x) => sql`${x.sum} <= ${x.g.line.total}`),
  };
}

/**
 * Reserves the amount on the unsettled sale with one conditional UPDATE and answers what is reserved
 * on the sale with it (in all, and of it on gift-card lines); a lost race answers settled or what is left.
 */
async function reserveRefund(ctx: Ctx, { customerId, t, amount, parts }: Reservation): Promise<{ refundedAmount: number; giftCardRefunded: number }> {
  const gift = giftPart(parts);
  const perLine = lineRefunds(t, parts, 1);
  const reserved = await ctx.db
    .update(posTransactions)
    .set({
      refundedAmount: sql`${posTransactions.refundedAmount} + ${amount}`,
      giftCardRefunded: sql`${posTransactions.giftCardRefunded} + ${gift}`,
      ...(perLine ? { lines: perLine.set } : {}),
    })
    .where(
      and(
        eq(posTransactions.id, t.id),
        eq(posTransactions.customerId, customerId),
        eq(posTransactions.settled, false),
        sql`${posTransactions.refundedAmount} + ${amount} <= ${posTransactions.total}`,
        // Each part within its own lines: products never refunded out of the gift cards' value, nor the other way round.
        sql`${posTransactions.refundedAmount} - ${posTransactions.giftCardRefunded} + ${parts.products} <= ${parts.productTotal}`,
        sql`${posTransactions.giftCardRefunded} + ${gift} <= ${parts.giftCardTotal}`,
        // And each gift-card line within its own total.
        ...(perLine?.within ?? []),
      ),
    )
    .returning({ refundedAmount: posTransactions.refundedAmount, giftCardRefunded: posTransactions.giftCardRefunded })
    .get();
  if (reserved) return reserved;
  const now = await transactionInTenant(ctx, customerId, t.id);
  if (now.settled) throw posFail('already_settled', `Transaction ${t.id} is settled; a settled sale cannot be refunded`);
  throw posFail('refund_exceeds_remaining', `Only ${((now.total - now.refundedAmount) / 100).toFixed(2)} is left to refund on this sale`, {
    extra: { refundableAmount: (now.total - now.refundedAmount) / 100 },
  });
}

/** Gives a reserved amount back to the sale. */
function releaseRefund(ctx: Ctx, { customerId, t, amount, parts }: Reservation) {
  const perLine = lineRefunds(t, parts, -1);
  return ctx.db
    .update(posTransactions)
    .set({
      refundedAmount: sql`${posTransactions.refundedAmount} - ${amount}`,
      giftCardRefunded: sql`${posTransactions.giftCardRefunded} - ${giftPart(parts)}`,
      ...(perLine ? { lines: perLine.set } : {}),
    })
    .where(and(eq(posTransactions.id, t.id), eq(posTransactions.customerId, customerId)))
    .run();
}

/** A card issued by this sale and refunded in full is voided (deactivated) once it holds nothing. */
const voids = (g: GiftCardPart) => g.line.action === 'issue' && g.amount === g.line.total;

/**
 * Takes each refunded gift-card line's value back off its card before any money moves; a card that no
 * longer holds it (spent) gives back what was taken, the reservation too, and answers 409 `gift_card_spent`.
 */
async function takeGiftCardValues(ctx: Ctx, refund: PosRefund) {
  const taken: GiftCardPart[] = [];
  for (const g of refund.parts.giftCards) {
    const ok = await takeGiftCardValue(ctx, {
      customerId: refund.customerId,
      promoCodeId: g.line.promoCodeId,
      amount: g.amount,
      reference: refund.refundId,
      voidWhenEmpty: voids(g),
    });
    if (ok) {
      taken.push(g);
      continue;
    }
    await giveGiftCardValuesBack(ctx, refund, taken);
    await releaseRefund(ctx, refund).catch(() => undefined);
    const left = await giftCardBalance(ctx, refund.customerId, g.line.promoCodeId);
    throw posFail(
      'gift_card_spent',
      `The gift card ${g.line.code} holds ${(left / 100).toFixed(2)}: the rest was spent, so at most ${(left / 100).toFixed(2)} of this line can be refunded`,
      { extra: { giftCardCode: g.line.code, refundableAmount: left / 100 }, details: [{ field: 'giftCards', message: 'spent' }] },
    );
  }
}

async function giveGiftCardValuesBack(ctx: Ctx, refund: PosRefund, parts: GiftCardPart[]) {
  for (const g of parts)
    await giveGiftCardValueBack(ctx, {
      customerId: refund.customerId,
      promoCodeId: g.line.promoCodeId,
      amount: g.amount,
      reference: refund.refundId,
      voidWhenEmpty: voids(g),
    }).catch(() => undefined);
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
    if (!outcome.providerRefunded) {
      await releaseRefund(ctx, { customerId, t, amount, parts: refund.parts }).catch(() => undefined);
      await giveGiftCardValuesBack(ctx, refund, refund.parts.giftCards);
    }
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

/** What the first `p` cents of the products' part take off revenue, the discount and tax (cents, each ≥ 0). */
function productShares({ t, parts }: PosRefund, taxed: boolean) {
  const subtotal = t.subtotal - parts.giftCardTotal;
  const total = subtotal - t.discountTotal + t.taxTotal;
  return (type: 'revenue' | 'discount' | 'tax', p: number): number => {
    const r = total > 0 ? Math.round((p * subtotal) / total) : 0;
    const d = total > 0 ? Math.round((p * t.discountTotal) / total) : 0;
    if (type === 'discount') return d;
    if (type === 'tax') return taxed ? p - r + d : 0;
    return taxed ? r : p + d;
  };
}

/**
 * The reversals of a refund: goods given back take their share of the sale's charges off the ledger,
 * so the sale's money (lib/money-view.ts) and every revenue report net them out. Each gift-card part
 * reverses its own line. The products' part is shared over the products' charges cumulatively: with
 * the sale's product total T, subtotal S and discount D, the first P cents refunded have taken
 * R(P) = round(P·S/T) off revenue, D(P) = round(P·D/T) off the discount and P − R(P) + D(P) off tax
 * (into revenue when the sale has no tax), each spread over its lines by weight. A refund reserved
 * from P₀ to P₁ (the reservation is one conditional UPDATE, so racing refunds get disjoint ranges)
 * reverses F(P₁) − F(P₀): its reversals add up to −a exactly, and whatever the order the refunds run
 * in, they bring every charge to zero when the sale is refunded in full, without reading each other.
 */
function reversalEntries(refund: PosRefund): NewLedger[] {
  const { restock } = refund;
  const charges = refund.sale.filter(
    (e) => e.affectsBalance && !metaOf(e).reversalOf && ['revenue', 'discount', 'tax', 'gift_card_sale'].includes(e.entryType),
  );
  const ofType = (type: string) => charges.filter((e) => e.entryType === type);
  const back = new Map<LedgerRow, number>();
  const upTo = productShares(refund, ofType('tax').length > 0);
  for (const [type, sign] of [
    ['revenue', 1],
    ['discount', -1],
    ['tax', 1],
  ] as const) {
    const es = ofType(type);
    const weights = es.map((e) => Math.abs(e.amount));
    const from = shareByWeight(upTo(type, refund.productsBefore), weights);
    const to = shareByWeight(upTo(type, refund.productsBefore + refund.parts.products), weights);
    es.forEach((e, i) => back.set(e, sign * (to[i] - from[i])));
  }
  for (const g of refund.parts.giftCards) {
    const e = ofType('gift_card_sale').find((x) => (x.metadata as { promoCodeId?: string } | null)?.promoCodeId === g.line.promoCodeId);
    if (e) back.set(e, g.amount);
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
