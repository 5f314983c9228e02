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
 * membership benefit), ONE lock call and ONE write batch; the release
 * of the reservation goes after the response (`waitUntil`), and webhook events too, queued only when
 * the operator has an endpoint. A bundle reads its items once its definition is known (one more), a
 * payment adds the provider's calls, an affiliate's booking its commission write.
 */
import { eq, sql } from 'drizzle-orm';
import { reusable, type Stmt } from '../../db/client';
import { tenantOf, type Ctx } from '../../lib/context';
import { toCents } from '../../lib/money';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { todayIn } from '../../lib/clock';
import { localDate } from '../../lib/time';
import { customers } from '../../db/schema/accounts';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { renterByEmailStatement, renterUpsert, isRenterEmailConflict, type RenterRow, type RenterUpsert } from '../renters/service';
import {
  backstopConflict,
  isAllocationConflict,
  itemContextsFrom,
  itemStatements,
  loadItemContext,
  otherItemsAtLocationStatement,
  releaseAll,
  releaseLater,
  reserveAll,
  type ItemContext,
  type ReserveRequest,
} from '../availability/service';
import { bundlesOf, giftCardOverdrawn, giftCardPayment, promoExhausted, resolveGiftCard, resolvePromoCode, type PromoUse } from './offers';
import { collectPayment, type CollectRequest } from '../payments/service';
import { bookingPromoUse, isGiftCardOverdrawn, isPromoExhausted } from '../promo-codes/service';
import { dollars, quoteFromTotal, quoteOrder, quoteOut, type LineQuote, type OrderDiscount } from './pricing';
import type { BookInput } from './schemas';
import type { BookingStatus } from './status';
import { bad, inThePast } from './errors';
import type { BookingResult, BookingSource, CreateBookingOptions } from './types';
import type { BookingRow } from './views';
import { planLines, prepareLine, type PreparedLine } from './lines';
import { planPayment } from './payment-plan';
import { buildWrite } from './write';
import { benefitEmailOf, creditPayment, creditsToUse, loadMemberBenefit, membershipDiscount } from './member-benefits';
import { creditOverdraftError, isCreditOverdraft, memberBenefitFrom, memberBenefitQuery } from '../memberships/service';

// Order lines are planned and priced in lines.ts, the payment plan in payment-plan.ts, and the batch is
// built in write.ts; the option and result types are in types.ts.
export type { BookingSource, ExtraLedgerEntry, CreateBookingOptions, BookingResult } from './types';

/** POST /coreBooking/book and every other sales path. */
export async function createBooking(ctx: Ctx, input: BookInput, opts: CreateBookingOptions = {}): Promise<BookingResult> {
  return (await createBookingRows(ctx, input, opts)).result;
}

/**
 * The first round trip of a sale, one D1 batch: the operator's settings, the renter by e-mail, the
 * items (tenant-scoped) with locations and assets, the location's other items (only when global
 * add-ons are asked for) and the renter's best membership benefit (when the sale prices one).
 */
async function readSale(ctx: Ctx, customerId: string, itemIds: string[], withOthers: boolean, renterEmail: string, benefitEmail: string | null) {
  const db = ctx.db;
  const settingsOf = reusable(
    db,
    'sale|settings',
    () =>
      db
        .select({ settings: customers.settings })
        .from(customers)
        .where(eq(customers.id, sql.placeholder('customerId'))),
    { customerId },
  );
  const items = itemIds.length ? itemStatements(db, itemIds, customerId) : [];
  const others = withOthers && itemIds.length ? [otherItemsAtLocationStatement(db, itemIds[0], customerId)] : [];
  const benefit = benefitEmail ? [memberBenefitQuery(db, customerId, benefitEmail)] : [];
  const res = (await db.batch([settingsOf, renterByEmailStatement(db, customerId, renterEmail), ...items, ...others, ...benefit] as [
    Stmt,
    ...Stmt[],
  ])) as unknown[][];
  let i = 0;
  const s = res[i++] as { settings: unknown }[];
  const renter = (res[i++] as RenterRow[])[0];
  const read = items.length ? (res.slice(i, (i += 3)) as Parameters<typeof itemContextsFrom>[0]) : null;
  const otherRows = others.length ? (res[i++] as Awaited<ReturnType<ReturnType<typeof otherItemsAtLocationStatement>['all']>>) : undefined;
  return {
    settings: (s[0]?.settings ?? {}) as Record<string, unknown>,
    items: read ? itemContextsFrom(read) : new Map<string, ItemContext>(),
    others: otherRows,
    member: benefit.length ? memberBenefitFrom(res[i++] as Parameters<typeof memberBenefitFrom>[0]) : null,
    renter: { existing: renter },
  };
}

/** createBooking, also answering the booking rows it wrote (the channel answers from them instead of reading them back). */
export async function createBookingRows(ctx: Ctx, input: BookInput, opts: CreateBookingOptions = {}): Promise<{ result: BookingResult; rows: BookingRow[] }> {
  const customerId = tenantOf(ctx);
  const source: BookingSource = opts.source ?? 'operator';
  const now = ctx.clock.now();
  const sale = await loadSaleItems(ctx, customerId, input, opts);
  const currency = orderCurrency(sale.items, input, opts);
  const priced = await priceSale(ctx, { customerId, source, now, input, opts, sale, currency });
  const money = await planSaleMoney(ctx, { customerId, now, input, opts, sale, priced });
  const held = await reserveSale(ctx, { customerId, source, now, input, opts, sale, priced, currency });
  const { reservations } = held;

  const pay = payments(ctx);
  let depositIntent: PaymentIntent | null = null;
  let stage: 'deposit' | 'payment' = 'deposit';
  const state = { written: false };
  try {
    if (money.depositAmount > 0) {
      depositIntent = await authorizeDeposit(pay, { customerId, currency, held, money });
      if (depositIntent.status !== 'requires_capture') throw new PaymentError('card_declined', 'The deposit could not be authorized', depositIntent);
    }
    stage = 'payment';
    const result = await commitSale(ctx, { customerId, source, input, opts, sale, priced, money, held, currency, depositIntent }, state);
    await ctx.hooks.emit(ctx, 'booking.placed', {
      customerId,
      transactionId: held.transactionId,
      source,
      promoCode: input.discountDetails?.promoCode ?? null,
      refAffiliate: typeof input.extendedData?.refAffiliate === 'string' ? input.extendedData.refAffiliate : null,
      rentals: held.rentalIds.map((rentalId, i) => ({ rentalId, basis: priced.quotes[i].subtotal - priced.quotes[i].discountTotal })),
      placedAt: new Date(now).toISOString(),
    });
    return result;
  } catch (err) {
    await compensate(ctx, null, depositIntent);
    throw saleError(err, stage, input, opts);
  } finally {
    // Written: the lock finds the rows in D1, the release is housekeeping after the response.
    // Not written: released before answering, so a retry finds the units free at once.
    if (state.written) releaseLater(ctx, reservations);
    else await releaseAll(ctx, reservations);
  }
}

/**
 * Items (tenant-scoped: another operator's item is 404) and their location. Without a bundle the
 * item ids are known up front, so the items are read together with the operator's settings.
 */
async function loadSaleItems(ctx: Ctx, customerId: string, input: BookInput, opts: CreateBookingOptions) {
  const rd = input.rentalDetails;
  const direct = rd.bundleCode ? [] : [...new Set(rd.items ? rd.items.map((l) => l.inventoryId) : rd.inventoryId ? [rd.inventoryId] : [])];
  const wantsGlobalAddons = (input.globalAddons?.length ?? 0) > 0;
  // Preloaded sales (the channel read their items in its own batch) read the benefit on their own.
  const first = opts.preloaded
    ? {
        settings: opts.preloaded.settings,
        items: new Map(opts.preloaded.items.map((i) => [i.row.id, i])),
        others: undefined,
        member: await loadMemberBenefit(ctx, customerId, input, opts),
        renter: undefined,
      }
    : await readSale(ctx, customerId, direct, wantsGlobalAddons, input.customerInfo.email, benefitEmailOf(input, opts));
  const { settings, member } = first;
  for (const id of direct) if (!first.items.has(id)) throw notFound('Inventory item');
  const { lines: lineReqs, bundle } = planLines(input, bundlesOf(settings));
  const items = first.items;
  for (const id of [...new Set(lineReqs.map((l) => l.inventoryId))].sort()) if (!items.has(id)) items.set(id, await loadItemContext(ctx.db, id, customerId));
  return { first, settings, member, lineReqs, bundle, items };
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

interface SaleScope {
  customerId: string;
  source: BookingSource;
  now: number;
  input: BookInput;
  opts: CreateBookingOptions;
  sale: Sale;
  currency: string;
}

/** Server-side price: the lines, the order's discounts and the quotes, checked against the total sent. */
async function priceSale(ctx: Ctx, s: SaleScope) {
  const { customerId, source, now, input, opts, sale, currency } = s;
  const { items, member } = sale;
  if (opts.priceOverride && sale.lineReqs.length !== 1) throw bad('A seller-set price applies to single-item orders');
  const prepared: PreparedLine[] = [];
  for (const [i, req] of sale.lineReqs.entries())
    prepared.push(await prepareLine(ctx, items.get(req.inventoryId)!, req, !opts.priceOverride, i === 0 ? sale.first.others : undefined));
  // Every sales path refuses a time already past (on the operator's clock); minimum notice stays the items' rule.
  for (const p of prepared) if (p.start < now) throw inThePast(p.start, p.item.item.timezone, now);
  const discounts: OrderDiscount[] = [];
  const dd = input.discountDetails;
  let promoUse: PromoUse | null = null;
  if (dd?.promoCode) {
    const scope = { customerId, locationId: prepared[0].item.row.locationId, itemIds: [...items.keys()], now };
    const promo = await resolvePromoCode(ctx, sale.settings, dd.promoCode, scope);
    discounts.push(promo.discount);
    promoUse = promo.use;
  }
  if (dd?.discountPercentage || dd?.discountAmount) {
    if (source !== 'operator') throw bad('Manual discounts are for operator bookings; use a promo code', 'discountDetails');
    if (dd.discountPercentage) discounts.push({ type: 'manual', percent: dd.discountPercentage });
    if (dd.discountAmount) discounts.push({ type: 'manual', amount: toCents(dd.discountAmount) });
  }
  const memberDiscount = membershipDiscount(member, prepared[0].item.row.locationId);
  if (memberDiscount) discounts.push(memberDiscount);
  const tip = toCents(input.rentalPricing.tip ?? 0);
  const quotes: LineQuote[] = opts.priceOverride
    ? [quoteFromTotal(Math.round(opts.priceOverride.total), prepared[0].input, tip)]
    : quoteOrder(
        prepared.map((p) => p.input),
        { discounts, tip },
      );
  const total = quotes.reduce((sum, q) => sum + q.total, 0);
  if (input.rentalPricing.total != null && !opts.priceOverride && Math.abs(toCents(input.rentalPricing.total) - total) > 1) {
    throw new ApiError(
      'price_mismatch',
      `The total sent (${input.rentalPricing.total.toFixed(2)}) differs from the price (${dollars(total).toFixed(2)} ${currency.toUpperCase()})`,
      {
        details: [{ field: 'rentalPricing.total', message: `expected ${dollars(total).toFixed(2)}` }],
        extra: { expectedTotal: dollars(total), breakdown: quotes.map(quoteOut) },
      },
    );
  }
  return { prepared, quotes, total, promoUse };
}
type Priced = Awaited<ReturnType<typeof priceSale>>;

/** Payment plan and deposit. A surcharge (the coverage premium) is paid with the order. */
async function planSaleMoney(ctx: Ctx, s: Omit<SaleScope, 'source' | 'currency'> & { priced: Priced }) {
  const { customerId, now, input, opts, sale, priced } = s;
  const { prepared } = priced;
  const surcharge = opts.surcharge?.amount ?? 0;
  const grandTotal = priced.total + surcharge;
  const firstStart = Math.min(...prepared.map((p) => p.start));
  const tz = prepared[0].item.item.timezone;
  const plan = planPayment(input, grandTotal, opts, localDate(firstStart, tz), todayIn(ctx, tz));
  // Membership credits pay part of what is due now (or, paying later, of the total); the card pays the rest.
  const creditsUsed = creditsToUse(input, sale.member, plan.chargeNow > 0 ? plan.chargeNow : grandTotal);
  // A gift card pays what it can of the rest.
  const gift = opts.giftCard
    ? await resolveGiftCard(ctx, opts.giftCard.code, { customerId, locationId: prepared[0].item.row.locationId, itemIds: [...sale.items.keys()], now })
    : null;
  const giftUsed = gift ? Math.max(0, Math.min(gift.balance, (plan.chargeNow > 0 ? plan.chargeNow : grandTotal) - creditsUsed)) : 0;
  const cardCharge = Math.max(0, plan.chargeNow - creditsUsed - giftUsed);
  if (cardCharge > 0 && !input.paymentMethodId) throw bad('paymentMethodId is required to pay now (or choose paymentPlan.type pay_later)', 'paymentMethodId');
  const { depositAmount, depositPm } = depositOf(input, opts, prepared);
  const paidNow = opts.prepaid ? grandTotal : Math.max(plan.chargeNow, creditsUsed + giftUsed);
  const status: BookingStatus = opts.prepaid || grandTotal === 0 || plan.chargeNow > 0 || creditsUsed > 0 || giftUsed > 0 ? 'confirmed' : 'pending';
  return { surcharge, plan, creditsUsed, gift, giftUsed, cardCharge, depositAmount, depositPm, paidNow, status };
}
type SaleMoney = Awaited<ReturnType<typeof planSaleMoney>>;

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
async function reserveSale(ctx: Ctx, s: SaleScope & { priced: Priced }) {
  const { customerId, source, now, input, opts, sale, priced, currency } = s;
  const { prepared } = priced;
  const transactionId = opts.transactionId ?? newId('txn');
  const rentalIds = prepared.map(() => newId('bk'));
  const bundleGroupId = sale.bundle ? newId('bgp') : null;
  const ci = input.customerInfo;
  const renterInput = {
    customerId,
    firstName: ci.firstName,
    lastName: ci.lastName,
    email: ci.email,
    phone: ci.phone,
    address: ci.address,
    dob: ci.dob,
    transactions: [{ transactionId, rentalIds, total: dollars(priced.total), currency, createdAt: new Date(now).toISOString() }],
  };
  const reqs: ReserveRequest[] = prepared.map((p, i) => ({
    customerId,
    itemId: p.item.row.id,
    expectVersion: p.item.row.version,
    line: {
      kind: 'booking',
      sourceId: rentalIds[i],
      start: p.start,
      end: p.end,
      quantity: p.item.item.kind === 'tour' ? undefined : p.quantity,
      assetIds: p.req.assetIds,
      seats: p.tour?.seats,
      privateCharter: p.tour?.privateCharter,
      enforceRules: source !== 'operator',
      holdEmail: ci.email,
      ...(opts.replacesHold ? { excludeSourceIds: [opts.replacesHold.sourceId] } : {}),
    },
  }));
  const [upsertRes, reserveRes] = await Promise.allSettled([renterUpsert(ctx, renterInput, sale.first.renter), reserveAll(ctx, reqs)]);
  if (reserveRes.status === 'rejected') throw reserveRes.reason;
  const reservations = reserveRes.value;
  if (upsertRes.status === 'rejected') {
    await releaseAll(ctx, reservations);
    throw upsertRes.reason;
  }
  const upsert: RenterUpsert = upsertRes.value;
  return { transactionId, rentalIds, bundleGroupId, renterInput, reservations, upsert };
}
type Held = Awaited<ReturnType<typeof reserveSale>>;

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
 * The charge and the booking's write go through the payments service: payment.completed is
 * committed in the booking's batch, and a charge whose booking is not written is refunded.
 */
async function commitSale(
  ctx: Ctx,
  c: Omit<SaleScope, 'now'> & { priced: Priced; money: SaleMoney; held: Held; depositIntent: PaymentIntent | null },
  state: { written: boolean },
) {
  const { customerId, source, input, opts, sale, priced, money, held, currency, depositIntent } = c;
  const { transactionId, rentalIds, bundleGroupId, reservations } = held;
  const { prepared, quotes, promoUse } = priced;
  const chargeReq = chargeRequestOf(input, customerId, currency, money, held);
  const totals = quotes.map((q, i) => q.total + (i === 0 ? money.surcharge : 0));
  const credits = creditPayment(ctx, sale.member, money.creditsUsed, { customerId, transactionId, rentalIds, totals });
  const giftCard = money.gift && money.giftUsed > 0 ? giftCardPayment(ctx, money.gift, money.giftUsed, { transactionId, rentalIds, totals }) : undefined;
  let upsert = held.upsert;
  return collectPayment(ctx, chargeReq, async (paid, commitMoney) => {
    const charge = paid?.intent ?? null;
    const { plan, paidNow, status, depositAmount } = money;
    const build = () =>
      buildWrite(ctx, {
        customerId,
        source,
        status,
        transactionId,
        rentalIds,
        bundleGroupId,
        currency,
        prepared,
        quotes,
        reservations,
        upsert,
        input,
        opts,
        plan,
        paidNow,
        charge,
        depositIntent,
        depositAmount,
        credits,
        giftCard,
      });
    let write = build();
    const promo = promoUse
      ? bookingPromoUse(ctx, promoUse, {
          transactionId,
          rentalIds,
          orderAmount: quotes.reduce((s, q) => s + q.subtotal, 0),
          discount: quotes.reduce((s, q) => s + q.discounts.filter((d) => d.type === 'promo').reduce((t, d) => t + d.amount, 0), 0),
        })
      : [];
    try {
      await commitMoney([...write.statements, ...promo], write.meta);
    } catch (err) {
      if (!isRenterEmailConflict(err)) throw err;
      // Another booking created this renter a moment ago: update it instead.
      upsert = await renterUpsert(ctx, held.renterInput);
      write = build();
      await commitMoney([...write.statements, ...promo], write.meta);
    }
    state.written = true;
    return { result: write.result, rows: write.rows };
  });
}

/** What a failed sale answers: a declined card, an exhausted promo code, a lost race, an overdrawn balance, or the error itself. */
function saleError(err: unknown, stage: 'deposit' | 'payment', input: BookInput, opts: CreateBookingOptions): unknown {
  if (err instanceof PaymentError) {
    return new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, stage } });
  }
  if (isPromoExhausted(err)) return promoExhausted(input.discountDetails?.promoCode ?? '');
  if (isAllocationConflict(err)) return backstopConflict();
  if (isCreditOverdraft(err)) return creditOverdraftError();
  if (isGiftCardOverdrawn(err)) return giftCardOverdrawn(opts.giftCard?.code ?? '');
  return err;
}

/** Gives back what was taken when the booking could not be written. */
async function compensate(ctx: Ctx, charge: PaymentIntent | null, deposit: PaymentIntent | null) {
  const pay = payments(ctx);
  if (charge?.status === 'succeeded') {
    await pay
      .refund(charge.id, undefined, 'booking_not_written')
      .catch((e) => ctx.log.error('compensating refund failed', { paymentIntentId: charge.id, error: String(e) }));
  }
  if (deposit?.status === 'requires_capture') {
    await pay
      .cancelPaymentIntent(deposit.id)
      .catch((e) => ctx.log.error('compensating deposit void failed', { paymentIntentId: deposit.id, error: String(e) }));
  }
}
