import { nowIso } from '../../lib/clock';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { commit } from '../../lib/commit';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { posItems, posStock, posTransactions, posVariants } from '../../db/schema/pos';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { collectPayment, requireSameCurrency, type Collected, type CollectRequest } from '../payments/service';
import { bookingPaymentStmts, getBookingRow, insertLedger, planFollowsBalanceStmts, type NewLedger } from '../bookings/service';
import { getRenterInTenant, renterCreditsByCurrency } from '../renters/service';
import { counterGiftCardStmts, isGiftCardCodeTaken, planCounterGiftCards, type CounterGiftCardInput, type CounterGiftCardPlan } from '../promo-codes/service';
import { posFail } from './errors';
import { insufficientStock } from './catalog';
import { priceLines } from './pricing';
import { locationOf, transactionInTenant, transactionsOut, transactionView } from './queries';
import { transactionOut, type SaleLine, type StoredGiftCardLine, type StoredLine, type TransactionRow } from './views';
import type { PAYMENT_TYPES } from './schemas';

type PaymentType = (typeof PAYMENT_TYPES)[number];
const DRAWER = new Set<PaymentType>(['opening_float', 'paid_in', 'paid_out']);
const isStockCheck = (err: unknown) => /CHECK constraint failed/i.test(String(err)) && String(err).includes('pos_stock_nonnegative');

export interface CreateTransactionInput {
  items: { itemId: string; variantId?: string; quantity: number }[];
  giftCards?: CounterGiftCardInput[];
  locationId: string;
  userId: string;
  paymentType: PaymentType;
  accountId?: string;
  discountPercentage?: number;
  discountAmount?: number;
  settleBooking?: boolean;
  rentalId?: string;
  tillId?: string;
  paymentMethodId?: string;
  stripeCustomerId?: string;
  paymentIntentId?: string;
  amount?: number;
  note?: string;
}

/** 400 `currency_mismatch`: money in `held` offered for an amount in `wanted`. */
const currencyMismatch = (what: string, held: string, wanted: string, field: string) => {
  const message = `${what} is in ${held.toUpperCase()} and cannot pay an amount in ${wanted.toUpperCase()}`;
  return new ApiError('currency_mismatch', message, {
    details: [{ field, message }],
    extra: { currency: held.toLowerCase(), requestedCurrency: wanted.toLowerCase() },
  });
};

const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});

function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required')
      throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, paymentIntentId: err.intent?.id ?? null } });
    throw new ApiError('payment_provider_error', err.message);
  }
  throw err;
}

type Resolved = { line: CreateTransactionInput['items'][number]; item: typeof posItems.$inferSelect; variant: typeof posVariants.$inferSelect };
type StockRow = typeof posStock.$inferSelect;
type BookingRow = Awaited<ReturnType<typeof getBookingRow>>;

/** Who pays: the booking settled or charged, and the renter the sale belongs to. */
interface Payer {
  renterId: string | null;
  booking: BookingRow | null;
}

/** What a sale commits: its row, the stock taken per stock row, its ledger lines and, settling a booking, its installment plan fitted to the balance left. */
interface Sale {
  id: string;
  customerId: string;
  input: CreateTransactionInput;
  type: PaymentType;
  currency: string;
  nowIso: string;
  row: TransactionRow;
  lines: StoredLine[];
  giftCards: CounterGiftCardPlan | null;
  giftCardLines: StoredGiftCardLine[];
  total: number;
  wanted: Map<string, number>;
  payer: Payer;
  planStmts: Stmt[];
}

/** A drawer movement (`opening_float`, `paid_in`, `paid_out`): an amount and no items. */
async function recordDrawerMovement(ctx: Ctx, customerId: string, input: CreateTransactionInput, currency: string, id: string, nowIso: string) {
  const type = input.paymentType;
  if (input.items.length) throw bad(`A ${type} drawer movement takes amount and no items`, 'items');
  if (!input.amount || input.amount <= 0) throw bad(`A ${type} drawer movement needs a positive amount`, 'amount');
  const row: TransactionRow = blankRow({ id, customerId, input, currency, nowIso, kind: type as TransactionRow['kind'], total: toCents(input.amount) });
  await collectPayment(ctx, null, (_p, commitMoney) =>
    commitMoney([ctx.db.insert(posTransactions).values(row)], {
      audit: { action: `pos.drawer.${type}`, targetType: 'pos_transaction', targetId: id, details: { amount: row.total, tillId: row.tillId } },
    }),
  );
  return transactionOut(row, null);
}

function checkSaleInput(input: CreateTransactionInput) {
  const gifts = input.giftCards?.length ?? 0;
  if (!input.items.length && !gifts) throw bad('A sale needs at least one item or gift card', 'items');
  if (gifts && input.settleBooking) throw bad("A sale that settles a booking's balance cannot also sell gift cards", 'giftCards');
  if (gifts && input.paymentType === 'account') throw bad('A gift card is paid at the counter (cash, card or terminal), not put on account', 'giftCards');
  if (input.amount !== undefined) throw bad('amount is for drawer movements; a sale is priced from its items', 'amount');
  if (input.discountPercentage !== undefined && input.discountAmount !== undefined)
    throw bad('Give discountPercentage or discountAmount, not both', 'discountAmount');
}

/** Catalog lines (tenant and location scoped). */
async function resolveSaleLines(ctx: Ctx, customerId: string, input: CreateTransactionInput): Promise<Resolved[]> {
  if (!input.items.length) return [];
  const itemIds = [...new Set(input.items.map((l) => l.itemId))];
  const [items, variants] = await Promise.all([
    ctx.db
      .select()
      .from(posItems)
      .where(and(eq(posItems.customerId, customerId), eq(posItems.locationId, input.locationId), inArray(posItems.id, itemIds), isNull(posItems.deletedAt)))
      .all(),
    ctx.db
      .select()
      .from(posVariants)
      .where(and(eq(posVariants.customerId, customerId), inArray(posVariants.itemId, itemIds), isNull(posVariants.deletedAt)))
      .all(),
  ]);
  return input.items.map((l, i) => {
    const item = items.find((it) => it.id === l.itemId);
    if (!item) throw bad(`Unknown item ${l.itemId} at this location`, `items.${i}.itemId`);
    const own = variants.filter((v) => v.itemId === item.id);
    const v = l.variantId ? own.find((x) => x.id === l.variantId) : own.length === 1 ? own[0] : undefined;
    if (!v)
      throw bad(l.variantId ? `Unknown variant ${l.variantId} of ${item.name}` : `${item.name} has several variants: give variantId`, `items.${i}.variantId`);
    return { line: l, item, variant: v };
  });
}

/** Stock rows: the till's own when the sale names a till that stocks the variant, else the location's. Checks there is enough. */
async function checkSaleStock(ctx: Ctx, input: CreateTransactionInput, resolved: Resolved[]) {
  const variantIds = [...new Set(resolved.map((r) => r.variant.id))];
  const stockRows = !variantIds.length ? [] : await ctx.db.select().from(posStock).where(inArray(posStock.variantId, variantIds)).all();
  const stockOf = (variantId: string): StockRow | undefined =>
    (input.tillId ? stockRows.find((s) => s.variantId === variantId && s.tillId === input.tillId) : undefined) ??
    stockRows.find((s) => s.variantId === variantId && s.tillId === '');
  const wanted = new Map<string, number>();
  for (const r of resolved) {
    const st = stockOf(r.variant.id);
    if (!st) throw bad(`No stock record for ${r.item.name} / ${r.variant.name}`);
    wanted.set(st.id, (wanted.get(st.id) ?? 0) + r.line.quantity);
  }
  for (const [stockId, qty] of wanted) {
    const st = stockRows.find((s) => s.id === stockId)!;
    if (!st.allowNegative && st.quantity < qty) {
      const r = resolved.find((x) => x.variant.id === st.variantId)!;
      throw insufficientStock(`"${r.item.name} / ${r.variant.name}" (${st.quantity} left, ${qty} wanted)`);
    }
  }
  return { stockOf, wanted };
}

function priceSaleLines(input: CreateTransactionInput, resolved: Resolved[], stockOf: (variantId: string) => StockRow | undefined): StoredLine[] {
  const priced = priceLines(
    resolved.map((r) => ({ unitPrice: r.variant.price, quantity: r.line.quantity, taxRate: r.item.taxRate })),
    { percent: input.discountPercentage, amount: input.discountAmount !== undefined ? toCents(input.discountAmount) : undefined },
  );
  return resolved.map((r, i) => ({
    itemId: r.item.id,
    variantId: r.variant.id,
    name: r.variant.name === 'Default' ? r.item.name : `${r.item.name} / ${r.variant.name}`,
    quantity: r.line.quantity,
    unitPrice: r.variant.price,
    subtotal: priced[i].subtotal,
    discount: priced[i].discount,
    taxRate: r.item.taxRate,
    tax: priced[i].tax,
    total: priced[i].total,
    stockId: stockOf(r.variant.id)!.id,
  }));
}

const sumLines = (lines: SaleLine[], f: (l: SaleLine) => number) => lines.reduce((s, l) => s + f(l), 0);

/** The stored lines of the planned gift cards: the value as the line's price and total, no discount, no tax. */
function giftCardSaleLines(plan: CounterGiftCardPlan | null): StoredGiftCardLine[] {
  return (plan?.lines ?? []).map((g) => ({
    kind: 'gift_card',
    action: g.action,
    promoCodeId: g.card.id,
    code: g.card.code,
    name: `Gift card ${g.card.code} (${g.action === 'issue' ? 'new' : 'reload'})`,
    quantity: 1,
    unitPrice: g.amount,
    subtotal: g.amount,
    discount: 0,
    taxRate: 0,
    tax: 0,
    total: g.amount,
  }));
}

/** Who pays: the booking (settled, or the sale charged to its renter) and the renter of an account sale. */
async function resolvePayer(ctx: Ctx, input: CreateTransactionInput, currency: string, total: number): Promise<Payer> {
  const type = input.paymentType;
  let renterId: string | null = null;
  let booking: BookingRow | null = null;
  if (input.settleBooking) {
    if (!input.rentalId) throw bad('settleBooking needs rentalId', 'rentalId');
    if (type === 'account') throw bad('An account sale cannot settle a booking (nothing is paid)', 'paymentType');
  }
  if (input.rentalId) {
    booking = await getBookingRow(ctx, input.rentalId);
    renterId = booking.renterId;
    // Money keeps its currency: a sale at this till pays a booking in the till's currency only.
    if (input.settleBooking && booking.currency.toLowerCase() !== currency.toLowerCase())
      throw currencyMismatch(`A sale at this location (${currency.toUpperCase()})`, currency, booking.currency, 'settleBooking');
    if (input.settleBooking && total > booking.total - booking.amountPaid)
      throw bad(
        `The sale (${toDollars(total).toFixed(2)}) is more than the booking's balance due (${toDollars(Math.max(0, booking.total - booking.amountPaid)).toFixed(2)})`,
        'settleBooking',
      );
  }
  if (type === 'account') {
    if (!input.accountId) throw bad('An account sale needs accountId (the renter charged)', 'accountId');
    renterId = (await getRenterInTenant(ctx, input.accountId)).id;
    // A renter's credit pays in its own currency only: an account holding credit in another currency cannot buy here.
    const credits = await renterCreditsByCurrency(ctx, renterId);
    const other = credits.find((c) => c.currency !== currency.toLowerCase());
    if (other)
      throw currencyMismatch(
        `The renter's account credit (${toDollars(-other.balanceCents).toFixed(2)} ${other.currency.toUpperCase()})`,
        other.currency,
        currency,
        'accountId',
      );
  }
  return { renterId, booking };
}

/** Card and terminal checks; a terminal sale's intent must be completed, unused and for the sale's total. */
async function checkCardPayment(ctx: Ctx, input: CreateTransactionInput, currency: string, total: number): Promise<PaymentIntent | null> {
  const type = input.paymentType;
  let terminalIntent: PaymentIntent | null = null;
  if (type === 'card' && !input.paymentMethodId) throw bad('A card sale needs paymentMethodId', 'paymentMethodId');
  if (type === 'terminal') {
    if (!input.paymentIntentId) throw bad('A terminal sale needs the paymentIntentId the reader completed', 'paymentIntentId');
    terminalIntent = await payments(ctx).getPaymentIntent(input.paymentIntentId);
    if (!terminalIntent) throw notFound('Payment intent');
    requireSameCurrency(terminalIntent, currency);
    if (terminalIntent.status !== 'succeeded') throw bad(`The terminal payment is ${terminalIntent.status}, not completed`, 'paymentIntentId');
    const used = await ctx.db.select({ id: posTransactions.id }).from(posTransactions).where(eq(posTransactions.paymentIntentId, terminalIntent.id)).get();
    if (used) throw bad(`This terminal payment is already recorded on transaction ${used.id}`, 'paymentIntentId');
    if (terminalIntent.amountReceived !== total)
      throw bad(
        `The terminal collected ${toDollars(terminalIntent.amountReceived).toFixed(2)} but the sale is ${toDollars(total).toFixed(2)}`,
        'paymentIntentId',
      );
  }
  if ((type === 'card' || type === 'terminal') && total <= 0) throw bad('A card payment needs a total above zero', 'items');
  return terminalIntent;
}

/** How the sale is paid: charged, a captured terminal intent, cash, or nothing now (account). */
function collectRequestOf(s: Sale, terminalIntent: PaymentIntent | null): CollectRequest | null {
  const { type, customerId, id, input, currency, total } = s;
  const data = () => ({ posTransactionId: id, locationId: input.locationId, rentalId: input.rentalId ?? null });
  if (type === 'account') return null;
  if (type === 'card')
    return {
      mode: 'charge',
      customerId,
      kind: 'pos_sale',
      data: data(),
      intent: {
        amount: total,
        currency,
        customerId: input.stripeCustomerId ?? null,
        paymentMethodId: input.paymentMethodId,
        description: `POS sale ${id}`,
        metadata: { kind: 'pos_sale', berthCustomerId: customerId, customerId, posTransactionId: id },
        idempotencyKey: `${id}_pos`,
      },
    };
  if (type === 'terminal') return { mode: 'captured', method: 'terminal', intent: terminalIntent!, currency, customerId, kind: 'pos_sale', data: data() };
  return { mode: 'offline', method: 'cash', amount: total, currency, reference: id, customerId, kind: 'pos_sale', data: data() };
}

/** The revenue, discount, tax and payment ledger lines of a sale that does not settle a booking. */
function saleLedgerEntries(s: Sale, final: TransactionRow, paid: Collected | null): NewLedger[] {
  const { id, customerId, input, currency, nowIso, type, total } = s;
  const ledger = (e: Pick<NewLedger, 'entryType' | 'amount' | 'description'> & Partial<NewLedger>): NewLedger => ({
    id: newId('led'),
    customerId,
    locationId: input.locationId,
    renterId: s.payer.renterId,
    transactionId: id,
    rentalId: null,
    itemId: null,
    assetId: null,
    currency,
    affectsBalance: true,
    occurredAt: nowIso,
    source: 'pos',
    reference: id,
    metadata: null,
    ...e,
  });
  const entries: NewLedger[] = [];
  for (const l of s.lines)
    entries.push(
      ledger({
        entryType: 'revenue',
        amount: l.subtotal,
        description: `POS: ${l.name} x${l.quantity}`,
        metadata: { posItemId: l.itemId, variantId: l.variantId, quantity: l.quantity },
      }),
    );
  for (const g of s.giftCardLines)
    entries.push(
      ledger({
        entryType: 'gift_card_sale',
        amount: g.total,
        description: `POS: gift card ${g.code} ${g.action === 'issue' ? 'sold' : 'reloaded'}`,
        metadata: { promoCodeId: g.promoCodeId, giftCardCode: g.code, action: g.action },
      }),
    );
  if (final.discountTotal) entries.push(ledger({ entryType: 'discount', amount: -final.discountTotal, description: 'POS discount' }));
  if (final.taxTotal) entries.push(ledger({ entryType: 'tax', amount: final.taxTotal, description: 'POS tax' }));
  if (type !== 'account' && total > 0)
    entries.push(ledger({ entryType: 'payment', amount: -total, description: `POS payment (${type})`, source: type, reference: paid?.reference ?? id }));
  return entries;
}

/** The sale's batch: the transaction, the stock taken, and the booking payment or the ledger lines. */
function saleStatements(ctx: Ctx, s: Sale, final: TransactionRow, paid: Collected | null): Stmt[] {
  const { id, type, total, nowIso } = s;
  const stmts: Stmt[] = [ctx.db.insert(posTransactions).values(final)];
  for (const [stockId, qty] of s.wanted)
    stmts.push(
      ctx.db
        .update(posStock)
        .set({ quantity: sql`${posStock.quantity} - ${qty}`, updatedAt: nowIso })
        .where(eq(posStock.id, stockId)),
    );
  let entries: NewLedger[] = [];
  const booking = s.payer.booking;
  if (s.input.settleBooking && booking) {
    stmts.push(
      ...bookingPaymentStmts(ctx, booking, {
        amount: total,
        source: `pos_${type}`,
        reference: paid?.reference ?? id,
        description: `Paid at the point of sale (${type})`,
        metadata: { posTransactionId: id },
      }),
      ...s.planStmts,
    );
  } else {
    entries = saleLedgerEntries(s, final, paid);
  }
  stmts.push(...insertLedger(ctx, entries));
  if (s.giftCards) stmts.push(...counterGiftCardStmts(ctx, s.giftCards, id));
  return stmts;
}

function saleFailure(err: unknown): never {
  if (isGiftCardCodeTaken(err))
    throw new ApiError('already_exists', 'A gift-card code of this sale was taken by another card at the same moment; choose another');
  if (isStockCheck(err)) throw insufficientStock('an item of this sale (sold by another sale at the same moment)');
  if (isUniqueViolation(err) && String(err).includes('pos_transactions.payment_intent_id'))
    throw bad('This terminal payment is already recorded on another transaction', 'paymentIntentId');
  paymentFailure(err);
}

/**
 * POST /pos/transaction. A sale is priced on the server from the catalog (see pricing.ts), its
 * stock is taken in the same D1 batch as the sale (the stock CHECK aborts the batch rather than
 * oversell), and it is paid through the payments service: a card is charged, a terminal intent the
 * reader completed is verified against the total, cash is recorded, and an account sale is owed by
 * the renter. `settleBooking` applies the payment to a booking's balance instead of booking new
 * revenue (and, on a booking paid in installments, fits the installments still scheduled to the
 * balance left). Drawer movements (`opening_float`, `paid_in`, `paid_out`) take `amount` and no items.
 */
export async function createTransaction(ctx: Ctx, input: CreateTransactionInput) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const loc = await locationOf(ctx, input.locationId);
  const currency = loc.currency;
  const id = newId('ptx');
  const nowIso = new Date(ctx.clock.now()).toISOString();
  const type = input.paymentType;

  if (DRAWER.has(type)) return recordDrawerMovement(ctx, customerId, input, currency, id, nowIso);

  checkSaleInput(input);
  const resolved = await resolveSaleLines(ctx, customerId, input);
  const { stockOf, wanted } = await checkSaleStock(ctx, input, resolved);
  const lines = priceSaleLines(input, resolved, stockOf);
  // Gift cards: every refusal (a taken code, a card that cannot be reloaded) before any money moves.
  const giftCards = input.giftCards?.length ? await planCounterGiftCards(ctx, customerId, { currency, locationId: input.locationId }, input.giftCards) : null;
  const giftLines = giftCardSaleLines(giftCards);
  const allLines: SaleLine[] = [...lines, ...giftLines];
  const sum = (f: (l: SaleLine) => number) => sumLines(allLines, f);
  const total = sum((l) => l.total);

  const payer = await resolvePayer(ctx, input, currency, total);
  const terminalIntent = await checkCardPayment(ctx, input, currency, total);

  const row: TransactionRow = {
    ...blankRow({ id, customerId, input, currency, nowIso, kind: 'sale', total }),
    lines: allLines as unknown as Record<string, unknown>[],
    subtotal: sum((l) => l.subtotal),
    discountTotal: sum((l) => l.discount),
    taxTotal: sum((l) => l.tax),
    discountPercentage: input.discountPercentage ?? null,
    discountAmount: input.discountAmount !== undefined ? toCents(input.discountAmount) : null,
    rentalId: input.rentalId ?? null,
  };
  // A counter payment on a booking paid in installments lowers what the plan still charges (from the last installment backwards).
  const planStmts = input.settleBooking && payer.booking ? await planFollowsBalanceStmts(ctx, payer.booking, { paid: total }) : [];
  const sale: Sale = { id, customerId, input, type, currency, nowIso, row, lines, giftCards, giftCardLines: giftLines, total, wanted, payer, planStmts };
  const req = collectRequestOf(sale, terminalIntent);
  try {
    await collectPayment(ctx, total > 0 ? req : null, async (paid, commitMoney) => {
      const final: TransactionRow = { ...row, paymentIntentId: paid?.intent?.id ?? null };
      await commitMoney(saleStatements(ctx, sale, final, paid), {
        audit: {
          action: 'pos.sale',
          targetType: 'pos_transaction',
          targetId: id,
          details: { total, paymentType: type, lines: allLines.length, giftCards: giftLines.length, rentalId: input.rentalId ?? null },
        },
      });
      Object.assign(row, final);
    });
  } catch (err) {
    saleFailure(err);
  }
  return transactionView(ctx, customerId, row);
}

function blankRow(o: {
  id: string;
  customerId: string;
  input: CreateTransactionInput;
  currency: string;
  nowIso: string;
  kind: TransactionRow['kind'];
  total: number;
}): TransactionRow {
  return {
    id: o.id,
    customerId: o.customerId,
    locationId: o.input.locationId,
    tillId: o.input.tillId ?? null,
    userId: o.input.userId,
    kind: o.kind,
    paymentType: o.kind === 'sale' ? o.input.paymentType : 'cash',
    accountId: o.input.accountId ?? null,
    rentalId: o.input.rentalId ?? null,
    settleBooking: o.input.settleBooking ?? false,
    currency: o.currency,
    lines: [],
    subtotal: o.total,
    discountTotal: 0,
    taxTotal: 0,
    total: o.total,
    refundedAmount: 0,
    giftCardRefunded: 0,
    discountPercentage: null,
    discountAmount: null,
    paymentIntentId: null,
    note: o.input.note ?? null,
    settled: false,
    settledAt: null,
    settlementId: null,
    createdAt: o.nowIso,
  };
}

export async function listTransactions(ctx: Ctx, q: { locationId: string; tillId?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  await locationOf(ctx, q.locationId);
  const where = and(
    eq(posTransactions.customerId, customerId),
    eq(posTransactions.locationId, q.locationId),
    q.tillId ? eq(posTransactions.tillId, q.tillId) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(posTransactions).where(where).orderBy(desc(posTransactions.createdAt), desc(posTransactions.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(posTransactions).where(where).get(),
  ]);
  return { data: await transactionsOut(ctx, customerId, rows), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export async function getTransaction(ctx: Ctx, transactionId: string) {
  const customerId = tenantOf(ctx);
  return transactionView(ctx, customerId, await transactionInTenant(ctx, customerId, transactionId));
}

/** GET /pos/transactions/rental/{rentalId}: the POS transactions of a booking (an unknown or foreign rental answers 404). */
export async function transactionsOfRental(ctx: Ctx, rentalId: string) {
  const customerId = tenantOf(ctx);
  await getBookingRow(ctx, rentalId);
  const rows = await ctx.db
    .select()
    .from(posTransactions)
    .where(and(eq(posTransactions.customerId, customerId), eq(posTransactions.rentalId, rentalId)))
    .orderBy(desc(posTransactions.createdAt))
    .all();
  return { data: await transactionsOut(ctx, customerId, rows) };
}

/** PUT /pos/transaction/settle: closes one transaction (no refunds after); 400 when it is settled already. */
export async function settleTransaction(ctx: Ctx, transactionId: string) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const t = await transactionInTenant(ctx, customerId, transactionId);
  const now = nowIso(ctx);
  const res = await ctx.db
    .update(posTransactions)
    .set({ settled: true, settledAt: now })
    .where(and(eq(posTransactions.id, t.id), eq(posTransactions.customerId, customerId), eq(posTransactions.settled, false)))
    .run();
  if ((res.meta.changes ?? 0) !== 1) throw posFail('already_settled', `Transaction ${t.id} is settled already`);
  await commit(ctx, [], { audit: { action: 'pos.settle', targetType: 'pos_transaction', targetId: t.id } });
  return transactionView(ctx, customerId, { ...t, settled: true, settledAt: now });
}
