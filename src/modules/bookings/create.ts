/**
 * The booking commit: one operation that prices on the server, creates or updates the renter,
 * reserves the inventory inside each item's lock object, takes the payment (in full, a first
 * installment, or nothing for pay-later and reseller-paid sales) and a deposit pre-authorization,
 * and writes the bookings, allocations, ledger entries, deposit, loyalty points, confirmation
 * e-mail, activity rows, audit row and webhook events in ONE D1 batch.
 *
 * Failure anywhere after the reservation leaves nothing behind: a declined card (402) or a refused
 * write releases the reservation, refunds what was charged and voids the deposit hold, and the
 * batch (renter included) was never written. Every sales path (operator, widget, channel,
 * marketplace) calls `createBooking`; the options carry what differs.
 *
 * Round trips on the critical path (pinned by test/bench/round-trips.test.ts): ONE batched read of
 * everything the sale needs (the operator's settings, the items with their locations and assets,
 * the other items of the location when global add-ons are asked for, the renter and their
 * membership benefit), carried by the ONE lock call when the request alone says what to reserve,
 * and ONE write batch, run by the first item's lock in its group commit (`journal.writer`), which
 * settles the reservation as it commits; webhook events are queued after the response, only when
 * the operator has an endpoint. A bundle reads its items once its definition is known (one more), a
 * payment adds the provider's calls, an affiliate's booking its commission write.
 */
import { and, eq, sql } from 'drizzle-orm';
import { reusable, type BatchRunner, type Stmt } from '../../db/client';
import { tenantOf, type Ctx } from '../../lib/context';
import { toCents } from '../../lib/money';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { todayIn } from '../../lib/clock';
import { localDate } from '../../lib/time';
import type { SaleFacts, SaleScope } from '../../lib/sale-extensions';
import { customers } from '../../db/schema/accounts';
import { bookings } from '../../db/schema/bookings';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { renterByEmailStatement, renterUpsert, isRenterEmailConflict, type RenterRow, type RenterUpsert } from '../renters/service';
import {
  itemContextFrom,
  itemContextsFrom,
  itemStatements,
  loadItemContext,
  otherItemsAtLocationStatement,
  releaseAll,
  reserveAll,
  landedInDoubt,
  sell,
  type ItemContext,
  type ItemRow,
  type LocationRow,
  type LockItem,
  type SaleJournal,
  type SalePolicy,
} from '../availability/service';
import { takePayment, type CollectRequest, type TakenPayment } from '../payments/service';
import { bundlesOf } from './offers';
import { dollars, quoteFromTotal, quoteOrder, quoteOut, type LineQuote, type OrderDiscount } from './pricing';
import type { BookInput } from './schemas';
import type { BookingStatus } from './status';
import { bad, inThePast } from './errors';
import type { BookingResult, BookingSource, CreateBookingOptions } from './types';
import type { BookingRow } from './views';
import { planLines, prepareOrderLine, type PreparedLine } from './lines';
import { planPayment } from './payment-plan';
import { carryIn, earlyFits, earlyRequests, lineRequests, reserveEarly, type EarlyReservation } from './reservation';
import { buildWrite } from './write';
import type { MailAccount } from './emails';
import {
  extensionDiscounts,
  extensionFailure,
  extensionPayments,
  extensionReads,
  extensionsFor,
  extensionWrites,
  paymentSplits,
  resolveExtensions,
  type InSale,
} from './extensions';

// Order lines are planned and priced in lines.ts, the payment plan in payment-plan.ts, and the batch is
// built in write.ts; the option and result types are in types.ts.
export type { BookingSource, ExtraLedgerEntry, CreateBookingOptions, BookingResult } from './types';

/** POST /coreBooking/book and every other sales path. */
export async function createBooking(ctx: Ctx, input: BookInput, opts: CreateBookingOptions = {}): Promise<BookingResult> {
  return (await createBookingRows(ctx, input, opts)).result;
}

/** createBooking, also answering the booking rows it wrote (the channel answers from them instead of reading them back). */
export function createBookingRows(ctx: Ctx, input: BookInput, opts: CreateBookingOptions = {}): Promise<{ result: BookingResult; rows: BookingRow[] }> {
  return sell(ctx, { input, opts }, bookingSale);
}

/** A booking sale's state, filled phase by phase. */
interface BookingSaleState {
  customerId: string;
  source: BookingSource;
  now: number;
  input: BookInput;
  opts: CreateBookingOptions;
  facts: SaleFacts;
  extensions: InSale[];
  sale?: Sale;
  currency?: string;
  scope?: SaleScope;
  prepared?: PreparedLine[];
  priced?: Priced;
  money?: SaleMoney;
  early?: EarlyReservation;
  held?: Held;
  depositIntent: PaymentIntent | null;
  taken?: TakenPayment;
  stage: 'deposit' | 'payment';
  out?: { result: BookingResult; rows: BookingRow[] };
}
type S = BookingSaleState;
const need = <T>(v: T | undefined): T => v as T;
const settled = <T>(r: PromiseSettledResult<T>): T => {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
};

/**
 * The booking policy of `sell` (every sales path of bookings: operator, widget, channel, OCTO,
 * marketplace, coverage checkout; the options carry what differs: source, notice rules, price
 * source, extra rows).
 */
const bookingSale: SalePolicy<{ input: BookInput; opts: CreateBookingOptions }, S, { result: BookingResult; rows: BookingRow[] }> = {
  name: 'booking',
  begin(ctx, { input, opts }) {
    const customerId = tenantOf(ctx);
    const source: BookingSource = opts.source ?? 'operator';
    const now = ctx.clock.now();
    const facts: SaleFacts = {
      customerId,
      source,
      now,
      email: input.customerInfo.email,
      sellerPriced: !!(opts.priceOverride || opts.prepaid),
      asks: {
        ...(input.discountDetails?.promoCode ? { promoCode: input.discountDetails.promoCode } : {}),
        ...(opts.giftCard ? { giftCard: opts.giftCard.code } : {}),
        ...(input.membershipCredits ? { membershipCredits: input.membershipCredits } : {}),
        ...(input.accountCredit ? { accountCredit: input.accountCredit } : {}),
      },
    };
    return { customerId, source, now, input, opts, facts, extensions: extensionsFor(ctx, facts), depositIntent: null, stage: 'deposit' };
  },
  async read(ctx, s, journal) {
    // When the request alone says what to reserve, the sale's first read rides in the lock call
    // (one round trip for both; reservation.ts). Without the lock's answer it is read on its own.
    const early = earlyRequests(s.input, s);
    if (!early) {
      s.sale = await loadSaleItems(ctx, s);
      return;
    }
    // A one-item sale takes its item from the lock, which reads it anyway (tenant-scoped).
    const oneItem = early.requests.length === 1 && directItemIds(s.input).length === 1;
    const first = saleRead(ctx, s, { items: !oneItem });
    let carried: unknown[] | undefined;
    let lockItem: LockItem | undefined;
    const calls = carryIn(early.requests, first.statements, (rows) => (carried = rows), oneItem ? (item) => (lockItem = item) : undefined);
    s.early = await reserveEarly(ctx, journal, early, calls);
    const given = carried ? first.take(carried as unknown[][]) : undefined;
    if (given && lockItem) given.items.set(lockItem.row.id, itemContextFrom(lockItem.row as ItemRow, lockItem.location as LocationRow, lockItem.assets));
    s.sale = await loadSaleItems(ctx, s, given && (!oneItem || lockItem) ? given : undefined);
  },
  async plan(ctx, s) {
    const sale = need(s.sale);
    s.currency = orderCurrency(sale.items, s.input, s.opts);
    s.prepared = await prepareLines(ctx, s, sale);
    s.scope = { ...s.facts, locationId: s.prepared[0].item.row.locationId, itemIds: [...sale.items.keys()], currency: s.currency, settings: sale.settings };
    await resolveExtensions(ctx, s.scope, s.extensions);
  },
  price(ctx, s) {
    s.priced = priceSale(s);
    s.money = planSaleMoney(ctx, s);
  },
  async reserve(ctx, s, journal) {
    s.held = await reserveSale(ctx, s, journal);
  },
  async charge(ctx, s, journal) {
    await chargeSale(ctx, s, journal);
  },
  async write(ctx, s, journal) {
    s.out = await writeSale(ctx, s, journal.writer(ctx));
    journal.written();
  },
  async after(ctx, s) {
    const held = need(s.held);
    const quotes = need(s.priced).quotes;
    await ctx.hooks.emit(ctx, 'booking.placed', {
      customerId: s.customerId,
      transactionId: held.transactionId,
      source: s.source,
      promoCode: s.input.discountDetails?.promoCode ?? null,
      refAffiliate: typeof s.input.extendedData?.refAffiliate === 'string' ? s.input.extendedData.refAffiliate : null,
      rentals: held.rentalIds.map((rentalId, i) => ({ rentalId, basis: quotes[i].subtotal - quotes[i].discountTotal })),
      placedAt: new Date(s.now).toISOString(),
    });
  },
  answer: (s) => need(s.out),
  failure: (err, s) => saleError(err, s),
};

/**
 * The first round trip of a sale, one D1 batch: the operator's settings, the renter by e-mail, the
 * items (tenant-scoped) with locations and assets, the location's other items (only when global
 * add-ons are asked for) and what the sale's extensions read (the renter's membership benefit).
 * Built here, run on its own or carried by the lock call.
 */
function saleRead(ctx: Ctx, s: S, o: { items: boolean } = { items: true }) {
  const db = ctx.db;
  const customerId = s.customerId;
  const itemIds = directItemIds(s.input);
  const settingsOf = reusable(
    db,
    'sale|settings',
    () =>
      db
        .select({
          settings: customers.settings,
          name: customers.name,
          businessName: customers.businessName,
          integrations: customers.integrations,
          messageTemplateKeys: customers.messageTemplateKeys,
        })
        .from(customers)
        .where(eq(customers.id, sql.placeholder('customerId'))),
    { customerId },
  );
  const items = itemIds.length && o.items ? itemStatements(db, itemIds, customerId) : [];
  const others = (s.input.globalAddons?.length ?? 0) > 0 && itemIds.length ? [otherItemsAtLocationStatement(db, itemIds[0], customerId)] : [];
  const ext = extensionReads(db, s.facts, s.extensions);
  const statements = [settingsOf, renterByEmailStatement(db, customerId, s.input.customerInfo.email), ...items, ...others, ...ext.statements] as Stmt[];
  const take = (res: unknown[][]): FirstRead => {
    let i = 0;
    const settings = res[i++] as ({ settings: unknown } & MailAccount)[];
    const renter = (res[i++] as RenterRow[])[0];
    const read = items.length ? (res.slice(i, (i += 3)) as Parameters<typeof itemContextsFrom>[0]) : null;
    const otherRows = others.length ? (res[i++] as Awaited<ReturnType<ReturnType<typeof otherItemsAtLocationStatement>['all']>>) : undefined;
    ext.take(res.slice(i));
    return {
      settings: (settings[0]?.settings ?? {}) as Record<string, unknown>,
      account: settings[0] ?? null,
      items: read ? itemContextsFrom(read) : new Map<string, ItemContext>(),
      others: otherRows,
      renter: { existing: renter },
    };
  };
  return { statements, take };
}
interface FirstRead {
  settings: Record<string, unknown>;
  /** The operator's name and look for the confirmation e-mail (not read by preloaded sales: the location names them). */
  account?: MailAccount | null;
  items: Map<string, ItemContext>;
  others?: { id: string; data: unknown }[];
  renter?: { existing: RenterRow | undefined };
}

/** The items named by the request itself (none for a bundle, whose items its definition names). */
function directItemIds(input: BookInput): string[] {
  const rd = input.rentalDetails;
  return rd.bundleCode ? [] : [...new Set(rd.items ? rd.items.map((l) => l.inventoryId) : rd.inventoryId ? [rd.inventoryId] : [])];
}

/** Preloaded sales (the channel read their items in its own batch) read only what the extensions need. */
async function readExtensionsOnly(ctx: Ctx, s: S) {
  const ext = extensionReads(ctx.db, s.facts, s.extensions);
  if (ext.statements.length) ext.take((await ctx.db.batch(ext.statements as [Stmt, ...Stmt[]])) as unknown[][]);
}

/**
 * Items (tenant-scoped: another operator's item is 404) and their location. Without a bundle the
 * item ids are known up front, so the items are read together with the operator's settings.
 */
async function loadSaleItems(ctx: Ctx, s: S, given?: FirstRead) {
  const { customerId, input, opts } = s;
  const direct = directItemIds(input);
  let first: FirstRead;
  if (given) first = given;
  else if (opts.preloaded) {
    await readExtensionsOnly(ctx, s);
    first = { settings: opts.preloaded.settings, items: new Map(opts.preloaded.items.map((i) => [i.row.id, i])) };
  } else {
    const read = saleRead(ctx, s);
    first = read.take((await ctx.db.batch(read.statements as [Stmt, ...Stmt[]])) as unknown[][]);
  }
  for (const id of direct) if (!first.items.has(id)) throw notFound('Inventory item');
  const { lines: lineReqs, bundle } = planLines(input, bundlesOf(first.settings));
  const items = first.items;
  for (const id of [...new Set(lineReqs.map((l) => l.inventoryId))].sort()) if (!items.has(id)) items.set(id, await loadItemContext(ctx.db, id, customerId));
  return { first, settings: first.settings, account: first.account ?? null, lineReqs, bundle, items };
}
type Sale = Awaited<ReturnType<typeof loadSaleItems>>;

/** Checks the items may be sold here together and answers the order's one currency. */
function orderCurrency(items: Map<string, ItemContext>, input: BookInput, opts: CreateBookingOptions): string {
  const wantedLocation = input.rentalDetails.locationId;
  for (const it of items.values()) {
    if (opts.publicOnly && (!it.row.isPublic || it.item.model.isPublic === false)) throw notFound('Inventory item');
    if (wantedLocation && it.row.locationId !== wantedLocation)
      throw bad(`Inventory item ${it.row.id} is not at location ${wantedLocation}`, 'rentalDetails.locationId');
    if (it.location.status === 'pending_deletion')
      throw new ApiError('invalid_state', `Location ${it.location.id} is scheduled for deletion and takes no new bookings`);
  }
  const currencies = new Set([...items.values()].map((i) => i.currency));
  if (currencies.size > 1) throw bad('All items of one order must be sold in the same currency', 'rentalDetails.items');
  const currency = [...currencies][0];
  if (input.rentalPricing.currency && input.rentalPricing.currency !== currency)
    throw bad(`This order is priced in ${currency.toUpperCase()}`, 'rentalPricing.currency');
  return currency;
}

/** The order's lines, priced per line; every sales path refuses a time already past (on the operator's clock). */
async function prepareLines(ctx: Ctx, s: S, sale: Sale): Promise<PreparedLine[]> {
  if (s.opts.priceOverride && sale.lineReqs.length !== 1) throw bad('A seller-set price applies to single-item orders');
  const prepared: PreparedLine[] = [];
  for (const [i, req] of sale.lineReqs.entries())
    prepared.push(
      await prepareOrderLine(s.input, i, ctx, sale.items.get(req.inventoryId)!, req, !s.opts.priceOverride, i === 0 ? sale.first.others : undefined),
    );
  // Minimum notice stays the items' rule, checked in the lock.
  for (const p of prepared) if (p.start < s.now) throw inThePast(p.start, p.item.item.timezone, s.now);
  return prepared;
}

/** Server-side price: the order's discounts (codes, the seller's, benefits) and the quotes, checked against the total sent. */
function priceSale(s: S) {
  const { source, input, opts } = s;
  const prepared = need(s.prepared);
  const scope = need(s.scope);
  const discounts: OrderDiscount[] = [...extensionDiscounts(scope, s.extensions, 'code')];
  const dd = input.discountDetails;
  if (dd?.discountPercentage || dd?.discountAmount) {
    if (source !== 'operator') throw bad('Manual discounts are for operator bookings; use a promo code', 'discountDetails');
    if (dd.discountPercentage) discounts.push({ type: 'manual', percent: dd.discountPercentage });
    if (dd.discountAmount) discounts.push({ type: 'manual', amount: toCents(dd.discountAmount) });
  }
  discounts.push(...extensionDiscounts(scope, s.extensions, 'benefit'));
  const tip = toCents(input.rentalPricing.tip ?? 0);
  const quotes: LineQuote[] = opts.priceOverride
    ? [quoteFromTotal(Math.round(opts.priceOverride.total), prepared[0].input, tip)]
    : quoteOrder(
        prepared.map((p) => p.input),
        { discounts, tip },
      );
  const total = quotes.reduce((sum, q) => sum + q.total, 0);
  if (input.rentalPricing.total != null && !opts.priceOverride && Math.abs(toCents(input.rentalPricing.total) - total) > 1) {
    const currency = need(s.currency).toUpperCase();
    throw new ApiError(
      'price_mismatch',
      `The total sent (${input.rentalPricing.total.toFixed(2)}) differs from the price (${dollars(total).toFixed(2)} ${currency})`,
      {
        details: [{ field: 'rentalPricing.total', message: `expected ${dollars(total).toFixed(2)}` }],
        extra: { expectedTotal: dollars(total), breakdown: quotes.map(quoteOut) },
      },
    );
  }
  return { quotes, total };
}
type Priced = ReturnType<typeof priceSale>;

/** Payment plan and deposit. A surcharge (the coverage premium) is paid with the order; payment sources pay part of what is due now. */
function planSaleMoney(ctx: Ctx, s: S) {
  const { input, opts } = s;
  const prepared = need(s.prepared);
  const priced = need(s.priced);
  const surcharge = opts.surcharge?.amount ?? 0;
  const grandTotal = priced.total + surcharge;
  const firstStart = Math.min(...prepared.map((p) => p.start));
  const tz = prepared[0].item.item.timezone;
  const plan = planPayment(input, grandTotal, opts, localDate(firstStart, tz), todayIn(ctx, tz));
  // Membership credits, then a gift card, pay part of what is due now (or, paying later, of the total); the card pays the rest.
  const bySources = extensionPayments(need(s.scope), s.extensions, plan.chargeNow > 0 ? plan.chargeNow : grandTotal);
  const cardCharge = Math.max(0, plan.chargeNow - bySources);
  if (cardCharge > 0 && !input.paymentMethodId) throw bad('paymentMethodId is required to pay now (or choose paymentPlan.type pay_later)', 'paymentMethodId');
  const { depositAmount, depositPm } = depositOf(input, opts, prepared);
  const paidNow = opts.prepaid ? grandTotal : Math.max(plan.chargeNow, bySources);
  const status: BookingStatus = opts.prepaid || grandTotal === 0 || plan.chargeNow > 0 || bySources > 0 ? 'confirmed' : 'pending';
  return { surcharge, plan, cardCharge, depositAmount, depositPm, paidNow, status };
}
type SaleMoney = ReturnType<typeof planSaleMoney>;

/** The security deposit to pre-authorize (cents) and the card it goes on. */
function depositOf(input: BookInput, opts: CreateBookingOptions, prepared: PreparedLine[]) {
  let depositAmount = 0;
  const di = input.depositInformation;
  if (di) depositAmount = di.required === false ? 0 : toCents(di.amount);
  else if (!opts.prepaid) for (const p of prepared) if (p.item.item.model.deposit?.required) depositAmount += toCents(p.item.item.model.deposit.amount);
  if (opts.adjustDeposit) depositAmount = Math.max(0, Math.min(depositAmount, Math.round(opts.adjustDeposit(depositAmount))));
  const depositPm = di?.paymentMethodId ?? input.paymentMethodId;
  if (depositAmount > 0 && !depositPm)
    throw bad('A security deposit is required: give paymentMethodId (or depositInformation.paymentMethodId)', 'depositInformation.paymentMethodId');
  return { depositAmount, depositPm };
}

/**
 * Ids and the renter (statements only: nothing is written before the payment succeeded), and the
 * reservation inside each item's lock object (all-or-nothing, fixed order), while the renter is read.
 */
async function reserveSale(ctx: Ctx, s: S, journal: SaleJournal) {
  const { customerId, source, now, input, opts } = s;
  const prepared = need(s.prepared);
  const transactionId = opts.transactionId ?? newId('txn');
  const who = { customerId, source, email: input.customerInfo.email, opts };
  const early = s.early && earlyFits(s.early, lineRequests(prepared, s.early.rentalIds, who)) ? s.early : null;
  const rentalIds = early ? early.rentalIds : prepared.map(() => newId('bk'));
  const bundleGroupId = need(s.sale).bundle ? newId('bgp') : null;
  const ci = input.customerInfo;
  const renterInput = {
    customerId,
    firstName: ci.firstName,
    lastName: ci.lastName,
    email: ci.email,
    phone: ci.phone,
    address: ci.address,
    dob: ci.dob,
    transactions: [{ transactionId, rentalIds, total: dollars(need(s.priced).total), currency: need(s.currency), createdAt: new Date(now).toISOString() }],
  };
  if (s.early && !early && s.early.result.status === 'fulfilled') {
    // Not what the priced lines ask: given back before reserving them (one more lock call).
    journal.dropped(s.early.result.value);
    await releaseAll(ctx, s.early.result.value);
  }
  const reserving = early ? Promise.resolve(settled(early.result)) : reserveAll(ctx, lineRequests(prepared, rentalIds, who));
  const [upsertRes, reserveRes] = await Promise.allSettled([renterUpsert(ctx, renterInput, need(s.sale).first.renter), reserving]);
  if (reserveRes.status === 'rejected') throw reserveRes.reason;
  const reservations = reserveRes.value;
  if (!early) journal.held(reservations);
  if (upsertRes.status === 'rejected') throw upsertRes.reason;
  const upsert: RenterUpsert = upsertRes.value;
  return { transactionId, rentalIds, bundleGroupId, renterInput, reservations, upsert };
}
type Held = Awaited<ReturnType<typeof reserveSale>>;

/** The deposit's pre-authorization (voided if the sale fails), then the card charge (refunded if it is never recorded). */
async function chargeSale(ctx: Ctx, s: S, journal: SaleJournal) {
  const money = need(s.money);
  const pay = payments(ctx);
  if (money.depositAmount > 0) {
    const intent = await authorizeDeposit(pay, { customerId: s.customerId, currency: need(s.currency), held: need(s.held), money });
    s.depositIntent = intent;
    if (intent.status === 'requires_capture') journal.onUndo('deposit void', () => pay.cancelPaymentIntent(intent.id));
    else throw new PaymentError('card_declined', 'The deposit could not be authorized', intent);
  }
  s.stage = 'payment';
  const taken = await takePayment(ctx, chargeRequestOf(s.input, s.customerId, need(s.currency), money, need(s.held)));
  s.taken = taken;
  journal.onUndo('refund', () => taken.undo());
}

/** Pre-authorizes the security deposit (the caller checks it was authorized). */
function authorizeDeposit(pay: ReturnType<typeof payments>, a: { customerId: string; currency: string; held: Held; money: SaleMoney }) {
  const { transactionId, rentalIds } = a.held;
  return pay.createPaymentIntent({
    amount: a.money.depositAmount,
    currency: a.currency,
    captureMethod: 'manual',
    confirm: true,
    paymentMethodId: a.money.depositPm,
    description: `Security deposit ${transactionId}`,
    metadata: { transactionId, customerId: a.customerId, rentalIds: rentalIds.join(','), kind: 'deposit' },
    idempotencyKey: `${transactionId}_deposit`,
  });
}

/** The card charge of the sale, or null when nothing is charged now. */
function chargeRequestOf(input: BookInput, customerId: string, currency: string, money: SaleMoney, held: Held): CollectRequest | null {
  const { transactionId, rentalIds } = held;
  return money.cardCharge > 0
    ? {
        mode: 'charge',
        customerId,
        kind: money.plan.type === 'installments' ? 'installment' : 'booking',
        data: { transactionId, rentalIds, renterId: held.upsert.renterId },
        intent: {
          amount: money.cardCharge,
          currency,
          paymentMethodId: input.paymentMethodId,
          description: `Booking ${transactionId}`,
          metadata: { transactionId, customerId, rentalIds: rentalIds.join(','), kind: 'booking' },
          idempotencyKey: `${transactionId}_payment`,
        },
      }
    : null;
}

/**
 * The booking's one write: bookings, allocations, ledger, deposit, what the extensions record (a
 * code's use, credits and gift card spent) and, through `commitMoney`, the charge's
 * payment.completed, in one batch, run by `via` (the item's lock) when given. A renter created
 * meanwhile by another booking is updated instead.
 */
async function writeSale(ctx: Ctx, s: S, via: BatchRunner | undefined): Promise<{ result: BookingResult; rows: BookingRow[] }> {
  const { customerId, source, input, opts } = s;
  const held = need(s.held);
  const money = need(s.money);
  const { quotes } = need(s.priced);
  const taken = need(s.taken);
  const { transactionId, rentalIds, bundleGroupId, reservations } = held;
  const totals = quotes.map((q, i) => q.total + (i === 0 ? money.surcharge : 0));
  const sources = paymentSplits(s.extensions, totals);
  const extra = extensionWrites(ctx, s.extensions, {
    customerId,
    transactionId,
    rentalIds,
    totals,
    subtotal: quotes.reduce((sum, q) => sum + q.subtotal, 0),
    discounted: discountedByType(quotes),
  });
  let upsert = held.upsert;
  const build = () =>
    buildWrite(ctx, {
      ...{ customerId, source, status: money.status, transactionId, rentalIds, bundleGroupId, currency: need(s.currency), prepared: need(s.prepared) },
      ...{ quotes, reservations, upsert, input, opts, plan: money.plan, paidNow: money.paidNow, charge: taken.paid?.intent ?? null },
      ...{ depositIntent: s.depositIntent, depositAmount: money.depositAmount, sources, account: need(s.sale).account },
    });
  let write = build();
  try {
    await taken.commitMoney([...write.statements, ...extra], { ...write.meta, via });
  } catch (err) {
    if (await landedInDoubt(ctx, err, () => bookingWritten(ctx, customerId, rentalIds[0]))) {
      taken.commitMoney.alreadyRecorded();
      return { result: write.result, rows: write.rows };
    }
    if (!isRenterEmailConflict(err)) throw err;
    // Another booking created this renter a moment ago: update it instead.
    upsert = await renterUpsert(ctx, held.renterInput);
    write = build();
    await taken.commitMoney([...write.statements, ...extra], { ...write.meta, via });
  }
  return { result: write.result, rows: write.rows };
}

/** The booking row of a sale's write is there (the write committed). */
async function bookingWritten(ctx: Ctx, customerId: string, rentalId: string): Promise<boolean> {
  const row = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.customerId, customerId), eq(bookings.id, rentalId)))
    .get();
  return !!row;
}

/** The order's discount amounts by type (cents). */
function discountedByType(quotes: LineQuote[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of quotes) for (const d of q.discounts) out[d.type] = (out[d.type] ?? 0) + d.amount;
  return out;
}

/** What a failed sale answers: a declined card, what an extension says (a used-up code, spent credits), or the error itself. */
function saleError(err: unknown, s: S): unknown {
  if (err instanceof PaymentError) return new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, stage: s.stage } });
  return extensionFailure(err, s.facts, s.extensions);
}
