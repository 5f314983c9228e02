/**
 * The price of a rescheduled booking (issue 31, "Changes reprice"). A reschedule prices its new window
 * the way a new booking is priced (lines.ts `prepareLine`, pricing.ts `quoteOrder`) with what the
 * booking already had: the same assets or tickets, participants, add-ons (re-priced for the new
 * length), tip, and its discounts — a percentage discount (promo code, manual, membership, bundle)
 * applies at its percentage to the new price, a fixed-amount discount keeps the amount the booking got
 * (at most the new subtotal).
 *
 * The booking's price is kept (and `priceKept: true` is written on the booking: its `extendedData` and
 * its pricing JSON) when the request says `keepPrice: true`, or when a reseller set and collected the
 * price (a channel, OCTO or marketplace sale: `prepaid`, priced `override`): the reseller's price is
 * not Berth's to change.
 *
 * The ledger follows the new price: the booking's open charge entries (revenue, discount, tax, tip)
 * are reversed where they were dated and the new ones written at the new start, then the booking's
 * money is derived from its ledger (`moneyFromLedgerStmt`). When the new entries are the old ones (a
 * tour, the same rate), they are only re-dated. The difference is settled as `settlementOf` says.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError, type ErrorDetail } from '../../lib/errors';
import { ledgerEntries, renters } from '../../db/schema/bookings';
import { bookingMailStmt, lineOf as mailLineOf, loadMailSetting, mailData } from './emails';
import { formatLocalRange } from '../../lib/local-time';
import { payments } from '../../adapters/payments';
import type { ItemContext } from '../availability/service';
import { refundPayment, type CollectRequest } from '../payments/service';
import {
  CHARGE_TYPES,
  insertLedger,
  moneyFromLedgerStmt,
  openEntries,
  paymentEntry,
  refundEntry,
  reversalOf,
  saleEntries,
  type LedgerDraft,
  type LedgerRow,
} from './ledger';
import { prepareLine } from './lines';
import { dollars, loyaltyPointsFor, quoteOrder, quoteOut, type AddonSelection, type LineQuote, type OrderDiscount } from './pricing';
import { scopeOf } from './changes';
import { paidByCard } from './queries';
import type { BookingRow } from './views';

/** What the request asks of the price (POST /coreBooking/{rentalId}/reschedule). */
export interface RepriceAsk {
  keepPrice?: boolean;
  chargeDifference?: boolean;
  refundDifference?: boolean;
}

export type Settlement = 'none' | 'balance_due' | 'charged' | 'refunded' | 'credit' | 'refund_failed';

/** The new price of a reschedule and how its difference is settled (cents). */
export interface Repricing {
  kept: boolean;
  keptReason: 'requested' | 'seller_priced' | null;
  /** The new breakdown (null when the price is kept). */
  quote: LineQuote | null;
  /** The open charge entries of the booking (reversed when `rewrite`, else re-dated). */
  open: LedgerRow[];
  /** The new charge entries (written when `rewrite`). */
  entries: LedgerDraft[];
  rewrite: boolean;
  previousTotal: number;
  difference: number;
  settlement: Settlement;
  amount: number;
  reason?: string;
  paymentIntentId: string | null;
  refundId: string | null;
}

type PricingJson = { quote?: LineQuote; loyaltyPoints?: number; priceKept?: boolean } & Record<string, unknown>;
const pricingOf = (b: BookingRow) => (b.pricing ?? {}) as PricingJson;
const iso = (ms: number) => new Date(ms).toISOString();

/** A price a reseller set and collected: kept on every move. */
export const sellerPriced = (b: BookingRow) => pricingOf(b).quote?.unit === 'override' || (b.paymentPlan as { type?: string } | null)?.type === 'prepaid';

/** The booking's charge entries still standing: neither reversed nor reversals themselves. */
export async function openCharges(ctx: Ctx, b: BookingRow): Promise<LedgerRow[]> {
  const rows = await ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), isNull(ledgerEntries.deletedAt)))
    .all();
  return openEntries(rows).filter((e) => (CHARGE_TYPES as readonly string[]).includes(e.entryType));
}

/** The booking's discounts, as the order discounts of a new quote (the bundle's percentage goes on the line). */
function keptDiscounts(q: LineQuote | undefined): OrderDiscount[] {
  return (q?.discounts ?? [])
    .filter((d) => d.type !== 'bundle')
    .map((d) => (d.percent != null ? { type: d.type, code: d.code, percent: d.percent } : { type: d.type, code: d.code, amount: d.amount }));
}

/**
 * What a change asks of the booking's line (modify.ts, party.ts): its party and add-ons after the change.
 * A key present replaces the booking's own (`tickets: undefined` drops the tickets); absent keys stay.
 */
export interface LineChange {
  quantity?: number;
  tickets?: Record<string, number>;
  participants?: number;
  addons?: AddonSelection[];
  globalAddons?: AddonSelection[];
}

/** An add-on the booking has: as its price breakdown lists it, or as a change with a kept price recorded it (`rentalDetails.addons`). */
export type ChosenAddon = { addonId: string; quantity: number; global: boolean };

/** The booking's add-ons: the ones a change recorded (a kept price keeps the old breakdown), else its breakdown's. */
export function chosenAddons(b: BookingRow): ChosenAddon[] {
  const recorded = (b.rentalDetails as { addons?: ChosenAddon[] } | null)?.addons;
  const listed = recorded ?? pricingOf(b).quote?.addons ?? [];
  return listed.map((a) => ({ addonId: a.addonId, quantity: a.quantity, global: !!a.global }));
}

/** The booking as a line request for its new window (and, for a change, its new party and add-ons). */
export function lineOf(b: BookingRow, item: ItemContext, start: number, end: number, change: LineChange = {}): Parameters<typeof prepareLine>[2] {
  const q = pricingOf(b).quote;
  const rd = (b.rentalDetails ?? {}) as { quantity?: number; tickets?: Record<string, number> };
  const tour = item.item.kind === 'tour';
  const sel = (global: boolean) =>
    chosenAddons(b)
      .filter((a) => a.global === global)
      .map((a) => ({ addonId: a.addonId, quantity: a.quantity }));
  return {
    inventoryId: b.itemId,
    startTime: iso(start),
    endTime: iso(end),
    quantity: tour ? (rd.tickets ? undefined : (rd.quantity ?? b.quantity)) : b.quantity,
    tickets: tour ? rd.tickets : undefined,
    participants: b.participants ?? undefined,
    addons: sel(false),
    globalAddons: sel(true),
    linePercent: q?.discounts.find((d) => d.type === 'bundle')?.percent,
    ...change,
  };
}

/** A booking rule's refusal (written for a new booking's `rentalDetails`) said of the reschedule's own fields. */
export function asRequestFields(err: unknown, message?: string): unknown {
  if (!(err instanceof ApiError) || err.code !== 'bad_request') return err;
  const details = err.details?.map((d): ErrorDetail => ({ ...d, field: d.field?.replace(/^rentalDetails\./, '') }));
  return new ApiError('bad_request', message ?? err.message, { details, extra: err.extra });
}

/** A pricing refusal, said of the change: its fields are the request's, and keepPrice is the way to change anyway. */
const unpriceable = (err: ApiError) =>
  asRequestFields(err, `The changed booking cannot be priced: ${err.message.replace(/\.$/, '')}. Send keepPrice: true to change it at its current price`);

/** The new window's price, the way a new booking of the same units, party, add-ons, tip and discounts (or the ones a change asks) is priced. */
async function quoteNewWindow(ctx: Ctx, b: BookingRow, item: ItemContext, w: { start: number; end: number; change?: LineChange }): Promise<LineQuote> {
  const old = pricingOf(b).quote;
  try {
    const line = await prepareLine(ctx, item, lineOf(b, item, w.start, w.end, w.change), true);
    return quoteOrder([line.input], { discounts: keptDiscounts(old), tip: old?.tip ?? b.tipTotal })[0];
  } catch (err) {
    if (err instanceof ApiError && err.code === 'bad_request') throw unpriceable(err);
    throw err;
  }
}

const signature = (es: { entryType: string; amount: number; description?: string | null }[]) =>
  es
    .map((e) => `${e.entryType}|${e.amount}|${e.description ?? ''}`)
    .sort()
    .join('\n');

/**
 * How the difference is settled. Higher: what the booking now owes is a balance due, or, with
 * `chargeDifference`, the difference (at most the balance) is charged to the card on file. Lower: what
 * was paid beyond the new total (at most the difference) is refunded to the card, or kept as the
 * renter's credit with `refundDifference: false`.
 */
export function settlementOf(b: BookingRow, difference: number, ask: RepriceAsk): Pick<Repricing, 'settlement' | 'amount'> {
  const balance = b.total + difference - b.amountPaid;
  if (difference > 0) {
    const due = Math.max(0, balance);
    if (!due) return { settlement: 'none', amount: 0 };
    return ask.chargeDifference ? { settlement: 'charged', amount: Math.min(difference, due) } : { settlement: 'balance_due', amount: due };
  }
  if (difference < 0) {
    const over = Math.min(-difference, Math.max(0, -balance));
    if (over > 0) return { settlement: ask.refundDifference === false ? 'credit' : 'refunded', amount: over };
    if (balance > 0) return { settlement: 'balance_due', amount: balance };
  }
  return { settlement: 'none', amount: 0 };
}

/** The price of a move to the booking's own window (nothing to sell): unchanged. */
export function unchangedPrice(b: BookingRow, ask: RepriceAsk, open: LedgerRow[] = []): Repricing {
  return {
    ...{ kept: !!ask.keepPrice, keptReason: ask.keepPrice ? 'requested' : null, quote: null, open, entries: [], rewrite: false },
    ...{ previousTotal: b.total, difference: 0, settlement: 'none', amount: 0, paymentIntentId: null, refundId: null },
  };
}

/** The price phase of a change (a reschedule, a modification): the new price (or the old one kept) and its settlement. */
export async function planRepricing(
  ctx: Ctx,
  m: { b: BookingRow; item: ItemContext; start: number; end: number; open: LedgerRow[]; ask: RepriceAsk; change?: LineChange },
): Promise<Repricing> {
  const { b, open, ask } = m;
  const base = { open, previousTotal: b.total, paymentIntentId: null, refundId: null };
  const keptReason = ask.keepPrice ? 'requested' : sellerPriced(b) ? 'seller_priced' : null;
  if (keptReason) return { ...base, kept: true, keptReason, quote: null, entries: [], rewrite: false, difference: 0, settlement: 'none', amount: 0 };
  const quote = await quoteNewWindow(ctx, b, m.item, m);
  const entries = saleEntries(scopeOf(b), quote, iso(m.start), b.source);
  const rewrite = signature(entries) !== signature(open);
  const sum = (es: { amount: number }[]) => es.reduce((s, e) => s + e.amount, 0);
  const difference = rewrite ? sum(entries) - sum(open) : 0;
  return { ...base, kept: false, keptReason: null, quote, entries, rewrite, difference, ...settlementOf(b, difference, ask) };
}

/** The card of the booking's first payment (as installments charge it), or null. */
export async function cardOnFile(ctx: Ctx, b: BookingRow): Promise<{ paymentMethodId: string; customerId: string | null } | null> {
  if (!b.paymentIntentId) return null;
  const first = await payments(ctx).getPaymentIntent(b.paymentIntentId);
  return first?.paymentMethodId ? { paymentMethodId: first.paymentMethodId, customerId: first.customerId } : null;
}

/** The charge of a higher price's difference to the card on file (payment.completed, kind `reschedule` or `booking_change`). */
export function differenceCharge(
  b: BookingRow,
  amount: number,
  card: { paymentMethodId: string; customerId: string | null },
  kind: 'reschedule' | 'booking_change' = 'reschedule',
): CollectRequest {
  return storedCardCharge(b, amount, card, kind, `price difference of a ${kind === 'reschedule' ? 'reschedule' : 'change'}`);
}

/** A charge of a booking to a stored card (payment.completed of `kind`): a change's difference, the balance due (charge-balance.ts). */
export function storedCardCharge(
  b: BookingRow,
  amount: number,
  card: { paymentMethodId: string; customerId: string | null },
  kind: string,
  what: string,
): CollectRequest {
  const metadata = { rentalId: b.id, transactionId: b.transactionId, customerId: b.customerId, kind };
  return {
    mode: 'charge',
    customerId: b.customerId,
    kind,
    data: { rentalId: b.id, rentalIds: [b.id], transactionId: b.transactionId, renterId: b.renterId },
    intent: {
      amount,
      currency: b.currency,
      paymentMethodId: card.paymentMethodId,
      customerId: card.customerId,
      description: `Booking ${b.transactionId}: ${what}`,
      metadata,
    },
  };
}

/** The booking's columns after the move: the new breakdown (or the kept price marked as kept). */
export function repricedSet(b: BookingRow, r: Repricing): Partial<BookingRow> {
  const { priceKept: _, ...data } = (b.extendedData ?? {}) as Record<string, unknown>;
  if (r.kept) return { pricing: { ...pricingOf(b), priceKept: true }, extendedData: { ...data, priceKept: true } };
  const q = r.quote!;
  return {
    subtotal: q.subtotal,
    discountTotal: q.discountTotal,
    taxTotal: q.taxTotal,
    tipTotal: q.tip,
    addons: quoteOut(q).addons,
    pricing: { ...pricingOf(b), quote: q, loyaltyPoints: loyaltyPointsFor(q), priceKept: false },
    extendedData: b.extendedData ? data : b.extendedData,
  };
}

/**
 * The ledger of the move: the open charges reversed and the new ones written (or, unchanged, re-dated
 * to the new start), the charged difference's payment, and the renter's loyalty points moved by the
 * new price. The caller ends the batch with `moneyFromLedgerStmt`.
 */
export function repriceStmts(ctx: Ctx, b: BookingRow, r: Repricing, w: { start: number; assetId: string | null; why?: string }): Stmt[] {
  const out: Stmt[] = [];
  const why = w.why ?? 'Rescheduled';
  if (r.rewrite) {
    const reversals = r.open.map((e) => reversalOf(e, `${why}: ${e.description ?? e.entryType}`));
    out.push(...insertLedger(ctx, [...reversals, ...r.entries.map((e) => ({ ...e, assetId: w.assetId }))]));
  } else if (r.open.length) {
    const ids = r.open.map((e) => e.id);
    out.push(
      ctx.db
        .update(ledgerEntries)
        .set({ occurredAt: iso(w.start) })
        .where(and(eq(ledgerEntries.customerId, b.customerId), inArray(ledgerEntries.id, ids))),
    );
  }
  if (r.settlement === 'charged' && r.paymentIntentId) {
    const scope = { ...scopeOf(b), assetId: w.assetId };
    out.push(...insertLedger(ctx, [paymentEntry(scope, r.amount, { source: 'card', reference: r.paymentIntentId, description: `${why}: price difference` })]));
  }
  const points = r.quote ? loyaltyPointsFor(r.quote) - Number(pricingOf(b).loyaltyPoints ?? 0) : 0;
  if (points && b.renterId)
    out.push(
      ctx.db
        .update(renters)
        .set({ loyaltyPoints: sql`max(0, ${renters.loyaltyPoints} + ${points})` })
        .where(and(eq(renters.id, b.renterId), eq(renters.customerId, b.customerId))),
    );
  return out;
}

/** The price change as the reschedule answers it (dollars). */
export function priceChangeOut(r: Repricing) {
  return {
    priceKept: r.kept,
    keptReason: r.keptReason,
    previousTotal: dollars(r.previousTotal),
    newTotal: dollars(r.previousTotal + r.difference),
    difference: dollars(r.difference),
    settlement: r.settlement,
    amount: dollars(r.amount),
    paymentIntentId: r.paymentIntentId,
    refundId: r.refundId,
    ...(r.reason ? { reason: r.reason } : {}),
  };
}

/** What the e-mail says of the price. */
function priceLines(r: Repricing, currency: string): string {
  const money = (c: number) => `${dollars(c).toFixed(2)} ${currency.toUpperCase()}`;
  const total = r.previousTotal + r.difference;
  if (r.kept || !r.difference) return `Your price stays ${money(total)}.`;
  const head = `New price: ${money(total)} (was ${money(r.previousTotal)}): ${money(Math.abs(r.difference))} ${r.difference > 0 ? 'more' : 'less'}.`;
  const tail: Record<Settlement, string> = {
    none: '',
    charged: `We charged ${money(r.amount)} to the card on file.`,
    balance_due: `Balance due: ${money(r.amount)}.`,
    refunded: `We are refunding ${money(r.amount)} to the card you paid with.`,
    credit: `${money(r.amount)} stays on your booking as credit.`,
    refund_failed: `${money(r.amount)} stays on your booking as credit.`,
  };
  return [head, tail[r.settlement]].filter(Boolean).join('\n');
}

/** A line of the "booking changed" e-mail: what changed, as it was and as it is now. */
export interface ChangedLine {
  what: string;
  was: string;
  now: string;
}

/**
 * The renter's e-mail of a change (in the change's batch): `booking.rescheduled` (a move: the old and new
 * times in the location's zone) or `booking.changed` (a modification: each thing changed, as it was and
 * as it is now), with the price. An array (empty without an address): a statement is thenable, and an
 * async function would run it.
 */
export async function changeEmailStmts(
  ctx: Ctx,
  b: BookingRow,
  m: { template: 'booking.rescheduled' | 'booking.changed'; timezone: string; after: BookingRow; r: Repricing; changed?: ChangedLine[] },
): Promise<Stmt[]> {
  const info = (b.customerInfo as { email?: string; firstName?: string } | null) ?? {};
  if (!info.email) return [];
  const { setting, itemName, whatToBring } = await loadMailSetting(ctx, b);
  const line = mailLineOf(m.after, itemName, whatToBring);
  const data = {
    ...mailData(setting, [line], { firstName: info.firstName, policyAmount: m.r.previousTotal + m.r.difference }),
    was: formatLocalRange(b.start, b.end, m.timezone),
    changed: m.changed ?? [],
    price: priceLines(m.r, b.currency),
  };
  return [
    bookingMailStmt(ctx, setting, {
      id: m.template,
      to: info.email,
      data,
      metadata: { rentalId: b.id, transactionId: b.transactionId, reference: b.id },
    }),
  ];
}

/** Cents that can go back to the booking's card: paid by card on it (net of refunds), and still refundable on its payment. */
async function refundableByCard(ctx: Ctx, b: BookingRow): Promise<number> {
  if (!b.paymentIntentId) return 0;
  const [byCard, intent] = await Promise.all([paidByCard(ctx, b), payments(ctx).getPaymentIntent(b.paymentIntentId)]);
  return Math.max(0, Math.min(byCard, intent ? intent.amountReceived - intent.amountRefunded : 0));
}

/**
 * After the move is written: a lower price's overpayment refunded to the card through the payments
 * service (the refund's ledger entry and payment.refunded in one batch, the booking's money following
 * its ledger). What the card cannot take back stays as credit; a refund that fails leaves it all as
 * credit, with a `booking.refund_failed` audit row for the operator. Updates `r` with what happened.
 */
export async function refundDifference(ctx: Ctx, b: BookingRow, r: Repricing): Promise<void> {
  const amount = Math.min(r.amount, await refundableByCard(ctx, b));
  if (amount <= 0) return void Object.assign(r, { settlement: 'credit', reason: 'not_paid_by_card' });
  const audit = (action: string, details: Record<string, unknown>) => ({ action, targetType: 'booking', targetId: b.id, customerId: b.customerId, details });
  try {
    const refund = await refundPayment(
      ctx,
      {
        mode: 'provider',
        customerId: b.customerId,
        kind: 'reschedule',
        paymentIntentId: b.paymentIntentId!,
        amount,
        currency: b.currency,
        reason: 'requested_by_customer',
        data: { rentalId: b.id, transactionId: b.transactionId, renterId: b.renterId },
      },
      async (done, commitMoney) => {
        await commitMoney([...insertLedger(ctx, [refundEntry(scopeOf(b), amount, done.refundId, b.paymentIntentId)]), moneyFromLedgerStmt(ctx, b)], {
          audit: audit('booking.refund', { amount: dollars(amount), refundId: done.refundId, reason: 'rescheduled' }),
        });
        return done;
      },
    );
    Object.assign(r, { amount, refundId: refund.refundId, ...(amount < r.amount ? { reason: 'partly_credit' } : {}) });
  } catch (err) {
    ctx.log.error('refund after reschedule failed', { rentalId: b.id, error: String(err) });
    Object.assign(r, { settlement: 'refund_failed' });
    await commit(ctx, [], { audit: audit('booking.refund_failed', { amount: dollars(amount), reason: 'rescheduled', error: String(err) }) });
  }
}
