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
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localDate } from '../../lib/time';
import { allocations, inventoryItems } from '../../db/schema/inventory';
import { bookings, deposits, holds, renters } from '../../db/schema/bookings';
import { emailStmt } from '../../adapters/messages';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { Addon } from '../inventory/model';
import { renterUpsert, isRenterEmailConflict, type RenterUpsert } from '../renters/upsert';
import { departureAt } from '../availability/engine';
import { loadItemContext, type ItemContext } from '../availability/state';
import { backstopConflict, isAllocationConflict, releaseAll, reserveAll, type Reservation, type ReserveRequest } from '../availability/lock';
import { activityStmt } from './activity';
import { insertLedger, memoEntry, paymentEntry, saleEntries, type LedgerScope, type NewLedger } from './ledger';
import { bundlesOf, operatorSettings, resolvePromoCode, type BundleDef } from './offers';
import {
  datesTouched,
  dollars,
  loyaltyPointsFor,
  priceAddons,
  quoteFromTotal,
  quoteOrder,
  quoteOut,
  rentalUnitPrice,
  tourQuote,
  type AddonSelection,
  type LineInput,
  type LineQuote,
  type OrderDiscount,
  type TourQuote,
} from './pricing';
import type { BookInput } from './schemas';
import type { BookingStatus } from './status';
import { bookingOut, type BookingRow } from './view';

export type BookingSource = 'operator' | 'widget' | 'channel' | 'marketplace';

export interface ExtraLedgerEntry {
  entryType: string;
  /** Cents, signed as in the ledger. */
  amount: number;
  affectsBalance?: boolean;
  description: string;
  source?: string;
  reference?: string | null;
  metadata?: Record<string, unknown>;
}

export interface CreateBookingOptions {
  /** Who sells: the operator (no notice or advance-window rules), the widget, a reseller channel or a marketplace. */
  source?: BookingSource;
  /** The reseller collected the money: no payment call, status confirmed, amountPaid = total, a `payment` ledger entry with source `channel`. */
  prepaid?: boolean;
  /** The seller's tax-inclusive total in cents (single-item orders); replaces the server's price. */
  priceOverride?: { total: number };
  /** Reseller channel columns stamped on the bookings. */
  channel?: { connectionId: string; reference?: string | null; commissionRate?: number | null; testMode?: boolean; idempotencyKey?: string | null };
  /** Extra ledger entries of the first rental (the channel's platform fee). */
  extraLedger?: ExtraLedgerEntry[];
  /** Order id chosen by the caller (defaults to a new `txn_` id). */
  transactionId?: string;
  /** Extra statements and events written in the same batch (an idempotency claim, ...). */
  statements?: Stmt[];
  events?: DomainEvent[];
}

type AddonDef = z.output<typeof Addon>;
type RentalLineReq = NonNullable<BookInput['rentalDetails']['items']>[number];

interface LineReq {
  inventoryId: string;
  startTime: string;
  endTime?: string;
  quantity?: number;
  tickets?: Record<string, number>;
  participants?: number;
  assetIds?: string[];
  addons: AddonSelection[];
  globalAddons: AddonSelection[];
  linePercent?: number;
}

interface PreparedLine {
  req: LineReq;
  item: ItemContext;
  start: number;
  end: number;
  quantity: number;
  participants: number | null;
  tour?: TourQuote;
  input: LineInput;
}

const HOUR = 3_600_000;
const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});

/** Turns rentalDetails (one item, `items`, or a bundle) into rental lines. */
function planLines(input: BookInput, bundles: BundleDef[]): { lines: LineReq[]; bundle: BundleDef | null } {
  const d = input.rentalDetails;
  const top = { addons: input.selectedBoatAddons ?? [], globalAddons: input.globalAddons ?? [] };
  const fromLine = (l: RentalLineReq, i: number): LineReq => ({
    inventoryId: l.inventoryId,
    startTime: l.startTime,
    endTime: l.endTime,
    quantity: l.quantity,
    tickets: l.tickets,
    participants: l.participants,
    assetIds: l.assetIds,
    addons: [...(l.selectedBoatAddons ?? []), ...(i === 0 ? top.addons : [])],
    globalAddons: i === 0 ? top.globalAddons : [],
  });
  if (d.bundleCode) {
    const bundle = bundles.find((b) => b.bundleCode.toLowerCase() === d.bundleCode!.toLowerCase());
    if (!bundle) throw bad(`Unknown bundle "${d.bundleCode}"`, 'rentalDetails.bundleCode');
    const given = d.items ?? [];
    for (const g of given) if (!bundle.items.some((b) => b.inventoryId === g.inventoryId)) throw bad(`Item ${g.inventoryId} is not part of bundle ${bundle.bundleCode}`, 'rentalDetails.items');
    const lines = bundle.items.map((b, i): LineReq => {
      const own = given.find((g) => g.inventoryId === b.inventoryId);
      if (own) return { ...fromLine(own, i), quantity: own.quantity ?? (own.tickets ? undefined : b.quantity), linePercent: bundle.discountPercentage };
      if (!d.startTime) throw bad(`Give startTime, or the window of ${b.inventoryId} in rentalDetails.items`, 'rentalDetails.startTime');
      return {
        inventoryId: b.inventoryId,
        startTime: d.startTime,
        endTime: d.endTime,
        quantity: b.quantity,
        participants: d.participants,
        addons: i === 0 ? top.addons : [],
        globalAddons: i === 0 ? top.globalAddons : [],
        linePercent: bundle.discountPercentage,
      };
    });
    return { lines, bundle };
  }
  if (d.items) return { lines: d.items.map(fromLine), bundle: null };
  return {
    lines: [{ inventoryId: d.inventoryId!, startTime: d.startTime!, endTime: d.endTime, quantity: d.quantity, tickets: d.tickets, participants: d.participants, assetIds: d.assetIds, ...top }],
    bundle: null,
  };
}

/** Global add-ons offered at a location: `isGlobal` add-ons of its items and `details.globalAddons` of the location. */
async function globalAddonCatalog(ctx: Ctx, item: ItemContext): Promise<{ def: AddonDef; global: boolean }[]> {
  const out: { def: AddonDef; global: boolean }[] = [];
  const seen = new Set<string>();
  const push = (def: AddonDef) => {
    if (seen.has(def.addonId)) return;
    seen.add(def.addonId);
    out.push({ def, global: true });
  };
  for (const a of item.item.model.addons ?? []) if (a.isGlobal) push(a);
  const fromLocation = (item.location.details as Record<string, unknown>)?.globalAddons;
  if (Array.isArray(fromLocation)) for (const raw of fromLocation) {
    const p = Addon.safeParse(raw);
    if (p.success) push(p.data);
  }
  const others = await ctx.db
    .select({ id: inventoryItems.id, data: inventoryItems.data })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, item.row.customerId), eq(inventoryItems.locationId, item.row.locationId), isNull(inventoryItems.deletedAt), ne(inventoryItems.id, item.row.id)))
    .all();
  for (const o of others) {
    const list = Array.isArray((o.data as Record<string, unknown>)?.addons) ? ((o.data as Record<string, unknown>).addons as unknown[]) : [];
    for (const raw of list) {
      const p = Addon.safeParse(raw);
      if (p.success && p.data.isGlobal) push(p.data);
    }
  }
  return out;
}

async function prepareLine(ctx: Ctx, item: ItemContext, req: LineReq, requirePrice: boolean): Promise<PreparedLine> {
  const start = Date.parse(req.startTime);
  let end: number;
  let tour: TourQuote | undefined;
  let quantity: number;
  let participants: number | null = req.participants ?? null;
  if (item.item.kind === 'tour') {
    const dep = departureAt(item.item, start);
    if (!dep) throw new ApiError('unavailable', `${item.row.name} has no departure at ${req.startTime}`, { status: 409, extra: { reasons: [{ code: 'no_departure', message: 'No departure starts at that time' }] } });
    if (req.endTime && Date.parse(req.endTime) !== dep.end) throw bad(`The departure at ${req.startTime} ends at ${new Date(dep.end).toISOString()}`, 'rentalDetails.endTime');
    if (req.assetIds?.length) throw bad('Tours are sold by the seat: assetIds do not apply', 'rentalDetails.assetIds');
    end = dep.end;
    tour = tourQuote(item.item.model, { tickets: req.tickets, quantity: req.quantity }, { requirePrice });
    quantity = tour.participants;
    participants = tour.participants;
  } else {
    if (!req.endTime) throw bad('endTime is required for a rental', 'rentalDetails.endTime');
    end = Date.parse(req.endTime);
    if (!(end > start)) throw bad('endTime must be after startTime', 'rentalDetails.endTime');
    if (end - start > 31 * 24 * HOUR) throw bad('A rental lasts at most 31 days', 'rentalDetails.endTime');
    if (req.tickets && Object.keys(req.tickets).length) throw bad('tickets apply to tours; give quantity for a rental', 'rentalDetails.tickets');
    if (req.assetIds?.length && req.quantity != null && req.quantity !== req.assetIds.length) throw bad('quantity must equal the number of assetIds', 'rentalDetails.quantity');
    quantity = req.assetIds?.length ? new Set(req.assetIds).size : (req.quantity ?? 1);
  }
  const hours = (end - start) / HOUR;
  const days = datesTouched(start, end, item.item.timezone).length;
  const basis = { hours, days, participants: participants ?? 1 };
  const itemCatalog = (item.item.model.addons ?? []).map((def) => ({ def, global: !!def.isGlobal }));
  const addons = [
    ...priceAddons(req.addons, itemCatalog, basis),
    ...(req.globalAddons.length ? priceAddons(req.globalAddons, await globalAddonCatalog(ctx, item), { ...basis, globalOnly: true }) : []),
  ];
  let rental = 0;
  let unit: LineInput['unit'] = tour ? tour.unit : 'hour';
  let season: string | null = null;
  if (tour) rental = tour.amount;
  else if (requirePrice) {
    const p = rentalUnitPrice(item.item, start, end);
    rental = p.amount * quantity;
    unit = p.unit;
    season = p.season;
  }
  const taxes = (item.item.model.taxes ?? []).map((t) => ({ name: t.name, rate: t.rate, appliesTo: t.appliesTo ?? 'all' }));
  return {
    req,
    item,
    start,
    end,
    quantity,
    participants,
    tour,
    input: { unit, hours, days, season, rental, tickets: tour?.tickets, addons, taxes, linePercent: req.linePercent },
  };
}

interface PaymentPlanOut {
  type: 'full' | 'installments' | 'pay_later' | 'prepaid';
  chargeNow: number;
  schedule?: { dueDate: string; amount: number; status: 'paid' | 'scheduled' }[];
}

function planPayment(input: BookInput, total: number, opts: CreateBookingOptions, firstStartDate: string): PaymentPlanOut {
  if (opts.prepaid) return { type: 'prepaid', chargeNow: 0 };
  const type = input.paymentPlan?.type ?? (input.paymentMethodId ? 'full' : 'pay_later');
  if (type === 'pay_later') return { type, chargeNow: 0 };
  if (type === 'full') return { type, chargeNow: total };
  const pp = input.paymentPlan!;
  const today = new Date().toISOString().slice(0, 10);
  let schedule: { dueDate: string; amount: number }[];
  if (pp.schedule) {
    schedule = pp.schedule.map((s) => ({ dueDate: s.dueDate, amount: Math.round(s.amount * 100) }));
    const sum = schedule.reduce((s, x) => s + x.amount, 0);
    if (Math.abs(sum - total) > schedule.length) throw bad(`The installments add up to ${dollars(sum)} but the total is ${dollars(total)}`, 'paymentPlan.schedule');
    schedule[0].amount += total - sum;
  } else {
    const n = pp.installments ?? 2;
    const each = Math.floor(total / n);
    const firstDue = Date.parse(`${today}T00:00:00Z`);
    const lastDue = Math.max(firstDue, Date.parse(`${firstStartDate}T00:00:00Z`) - 86_400_000);
    schedule = Array.from({ length: n }, (_, i) => ({
      dueDate: new Date(firstDue + Math.round(((lastDue - firstDue) * i) / (n - 1) / 86_400_000) * 86_400_000).toISOString().slice(0, 10),
      amount: i === 0 ? total - each * (n - 1) : each,
    }));
  }
  return { type: 'installments', chargeNow: schedule[0].amount, schedule: schedule.map((s, i) => ({ ...s, status: i === 0 ? 'paid' : 'scheduled' })) };
}

/** Splits `amount` over lines in proportion to their totals (the last line takes the rounding). */
function shares(amount: number, totals: number[]): number[] {
  const sum = totals.reduce((s, x) => s + x, 0);
  let left = amount;
  return totals.map((t, i) => {
    const v = i === totals.length - 1 ? left : sum ? Math.round((amount * t) / sum) : 0;
    left -= v;
    return v;
  });
}

export interface BookingResult extends ReturnType<typeof bookingOut> {
  rentals: ReturnType<typeof bookingOut>[];
  order: {
    transactionId: string;
    bundleGroupId: string | null;
    currency: string;
    subtotal: number;
    discountTotal: number;
    taxTotal: number;
    tipTotal: number;
    total: number;
    amountPaid: number;
    balanceDue: number;
    loyaltyPoints: number;
  };
  payment: { status: 'paid' | 'partially_paid' | 'unpaid' | 'prepaid'; plan: string; paymentIntentId: string | null; amountCharged: number; installments?: { dueDate: string; amount: number; status: string }[] };
  deposit: { depositId: string; paymentIntentId: string; amount: number; status: string } | null;
  customerCreated: boolean;
}

/** POST /coreBooking/book and every other sales path. */
export async function createBooking(ctx: Ctx, input: BookInput, opts: CreateBookingOptions = {}): Promise<BookingResult> {
  const customerId = tenantOf(ctx);
  const source: BookingSource = opts.source ?? 'operator';
  const now = Date.now();
  // Items (tenant-scoped: another operator's item is 404) and their location. Without a bundle the
  // item ids are known up front, so the items are read together with the operator's settings.
  const rd = input.rentalDetails;
  const direct = rd.bundleCode ? [] : [...new Set(rd.items ? rd.items.map((l) => l.inventoryId) : rd.inventoryId ? [rd.inventoryId] : [])];
  const [settings, early] = await Promise.all([operatorSettings(ctx, customerId), Promise.all(direct.map((id) => loadItemContext(ctx.db, id, customerId)))]);
  const { lines: lineReqs, bundle } = planLines(input, bundlesOf(settings));
  const items = new Map<string, ItemContext>(early.map((it) => [it.row.id, it]));
  for (const id of [...new Set(lineReqs.map((l) => l.inventoryId))].sort()) if (!items.has(id)) items.set(id, await loadItemContext(ctx.db, id, customerId));
  const wantedLocation = input.rentalDetails.locationId;
  for (const it of items.values()) {
    if (wantedLocation && it.row.locationId !== wantedLocation) throw bad(`Inventory item ${it.row.id} is not at location ${wantedLocation}`, 'rentalDetails.locationId');
    if (it.location.status === 'pending_deletion') throw new ApiError('invalid_state', `Location ${it.location.id} is scheduled for deletion and takes no new bookings`);
  }
  const currencies = new Set([...items.values()].map((i) => i.currency));
  if (currencies.size > 1) throw bad('All items of one order must be sold in the same currency', 'rentalDetails.items');
  const currency = [...currencies][0];
  if (input.rentalPricing.currency && input.rentalPricing.currency !== currency) throw bad(`This order is priced in ${currency.toUpperCase()}`, 'rentalPricing.currency');

  // Server-side price.
  if (opts.priceOverride && lineReqs.length !== 1) throw bad('A seller-set price applies to single-item orders');
  const prepared: PreparedLine[] = [];
  for (const req of lineReqs) prepared.push(await prepareLine(ctx, items.get(req.inventoryId)!, req, !opts.priceOverride));
  const discounts: OrderDiscount[] = [];
  const dd = input.discountDetails;
  if (dd?.promoCode) {
    discounts.push(await resolvePromoCode(ctx, settings, dd.promoCode, { customerId, locationId: prepared[0].item.row.locationId, itemIds: [...items.keys()], now }));
  }
  if (dd?.discountPercentage || dd?.discountAmount) {
    if (source !== 'operator') throw bad('Manual discounts are for operator bookings; use a promo code', 'discountDetails');
    if (dd.discountPercentage) discounts.push({ type: 'manual', percent: dd.discountPercentage });
    if (dd.discountAmount) discounts.push({ type: 'manual', amount: Math.round(dd.discountAmount * 100) });
  }
  const tip = Math.round((input.rentalPricing.tip ?? 0) * 100);
  const quotes: LineQuote[] = opts.priceOverride
    ? [quoteFromTotal(Math.round(opts.priceOverride.total), prepared[0].input, tip)]
    : quoteOrder(
        prepared.map((p) => p.input),
        { discounts, tip },
      );
  const total = quotes.reduce((s, q) => s + q.total, 0);
  if (input.rentalPricing.total != null && !opts.priceOverride && Math.abs(Math.round(input.rentalPricing.total * 100) - total) > 1) {
    throw new ApiError('price_mismatch', `The total sent (${input.rentalPricing.total.toFixed(2)}) differs from the price (${dollars(total).toFixed(2)} ${currency.toUpperCase()})`, {
      status: 400,
      details: [{ field: 'rentalPricing.total', message: `expected ${dollars(total).toFixed(2)}` }],
      extra: { expectedTotal: dollars(total), breakdown: quotes.map(quoteOut) },
    });
  }

  // Payment plan and deposit.
  const firstStart = Math.min(...prepared.map((p) => p.start));
  const plan = planPayment(input, total, opts, localDate(firstStart, prepared[0].item.item.timezone));
  if (plan.chargeNow > 0 && !input.paymentMethodId) throw bad('paymentMethodId is required to pay now (or choose paymentPlan.type pay_later)', 'paymentMethodId');
  let depositAmount = 0;
  const di = input.depositInformation;
  if (di) depositAmount = di.required === false ? 0 : Math.round(di.amount * 100);
  else if (!opts.prepaid) for (const p of prepared) if (p.item.item.model.deposit?.required) depositAmount += Math.round(p.item.item.model.deposit.amount * 100);
  const depositPm = di?.paymentMethodId ?? input.paymentMethodId;
  if (depositAmount > 0 && !depositPm) throw bad('A security deposit is required: give paymentMethodId (or depositInformation.paymentMethodId)', 'depositInformation.paymentMethodId');
  const paidNow = opts.prepaid ? total : plan.chargeNow;
  const status: BookingStatus = opts.prepaid || total === 0 || plan.chargeNow > 0 ? 'confirmed' : 'pending';

  // Ids and the renter (statements only: nothing is written before the payment succeeded).
  const transactionId = opts.transactionId ?? newId('txn');
  const rentalIds = prepared.map(() => newId('bk'));
  const bundleGroupId = bundle ? newId('bgp') : null;
  const ci = input.customerInfo;
  const renterInput = {
    customerId,
    firstName: ci.firstName,
    lastName: ci.lastName,
    email: ci.email,
    phone: ci.phone,
    address: ci.address,
    dob: ci.dob,
    transactions: [{ transactionId, rentalIds, total: dollars(total), currency, createdAt: new Date(now).toISOString() }],
  };
  // Reserve inside each item's lock object (all-or-nothing, fixed order), while the renter is read.
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
    },
  }));
  const [upsertRes, reserveRes] = await Promise.allSettled([renterUpsert(ctx, renterInput), reserveAll(ctx.env, reqs)]);
  if (reserveRes.status === 'rejected') throw reserveRes.reason;
  const reservations = reserveRes.value;
  if (upsertRes.status === 'rejected') {
    await releaseAll(ctx.env, reservations);
    throw upsertRes.reason;
  }
  let upsert: RenterUpsert = upsertRes.value;

  const pay = payments(ctx.env);
  let charge: PaymentIntent | null = null;
  let depositIntent: PaymentIntent | null = null;
  let stage: 'deposit' | 'payment' = 'deposit';
  try {
    const meta = { transactionId, customerId, rentalIds: rentalIds.join(',') };
    if (depositAmount > 0) {
      depositIntent = await pay.createPaymentIntent({ amount: depositAmount, currency, captureMethod: 'manual', confirm: true, paymentMethodId: depositPm, description: `Security deposit ${transactionId}`, metadata: { ...meta, kind: 'deposit' }, idempotencyKey: `${transactionId}_deposit` });
      if (depositIntent.status !== 'requires_capture') throw new PaymentError('card_declined', 'The deposit could not be authorized', depositIntent);
    }
    stage = 'payment';
    if (plan.chargeNow > 0) {
      charge = await pay.createPaymentIntent({ amount: plan.chargeNow, currency, captureMethod: 'automatic', confirm: true, paymentMethodId: input.paymentMethodId, description: `Booking ${transactionId}`, metadata: { ...meta, kind: 'booking' }, idempotencyKey: `${transactionId}_payment` });
      if (charge.status !== 'succeeded') throw new PaymentError('card_declined', 'The payment did not complete', charge);
    }

    const build = () =>
      buildWrite(ctx, {
        customerId, source, status, transactionId, rentalIds, bundleGroupId, currency, prepared, quotes, reservations, upsert, input, opts, plan, paidNow, charge, depositIntent, depositAmount, now,
      });
    let write = build();
    try {
      await commit(ctx, write.statements, write.meta);
    } catch (err) {
      if (!isRenterEmailConflict(err)) throw err;
      // Another booking created this renter a moment ago: update it instead.
      upsert = await renterUpsert(ctx, renterInput);
      write = build();
      await commit(ctx, write.statements, write.meta);
    }
    return write.result;
  } catch (err) {
    await compensate(ctx, charge, depositIntent);
    if (err instanceof PaymentError) {
      throw new ApiError('payment_failed', err.message, { status: 402, extra: { declineCode: err.code, stage } });
    }
    if (isAllocationConflict(err)) throw backstopConflict();
    throw err;
  } finally {
    await releaseAll(ctx.env, reservations);
  }
}

/** Gives back what was taken when the booking could not be written. */
async function compensate(ctx: Ctx, charge: PaymentIntent | null, deposit: PaymentIntent | null) {
  const pay = payments(ctx.env);
  if (charge?.status === 'succeeded') {
    await pay.refund(charge.id, undefined, 'booking_not_written').catch((e) => console.log(JSON.stringify({ level: 'error', msg: 'compensating refund failed', paymentIntentId: charge.id, error: String(e) })));
  }
  if (deposit?.status === 'requires_capture') {
    await pay.cancelPaymentIntent(deposit.id).catch((e) => console.log(JSON.stringify({ level: 'error', msg: 'compensating deposit void failed', paymentIntentId: deposit.id, error: String(e) })));
  }
}

interface WriteInput {
  customerId: string;
  source: BookingSource;
  status: BookingStatus;
  transactionId: string;
  rentalIds: string[];
  bundleGroupId: string | null;
  currency: string;
  prepared: PreparedLine[];
  quotes: LineQuote[];
  reservations: Reservation[];
  upsert: RenterUpsert;
  input: BookInput;
  opts: CreateBookingOptions;
  plan: PaymentPlanOut;
  paidNow: number;
  charge: PaymentIntent | null;
  depositIntent: PaymentIntent | null;
  depositAmount: number;
  now: number;
}

function buildWrite(ctx: Ctx, w: WriteInput) {
  const nowIso = new Date(w.now).toISOString();
  const statements: Stmt[] = [...w.upsert.statements];
  const events: DomainEvent[] = [...w.upsert.events];
  const renterId = w.upsert.renterId;

  // Holds of this renter's e-mail that the booking uses: released before the new allocations go in.
  const holdIds = [...new Set(w.reservations.flatMap((r) => r.consumedHoldIds))];
  if (holdIds.length) {
    statements.push(ctx.db.update(allocations).set({ active: false }).where(and(eq(allocations.customerId, w.customerId), inArray(allocations.sourceId, holdIds), eq(allocations.active, true))));
    statements.push(ctx.db.update(holds).set({ status: 'consumed' }).where(and(eq(holds.customerId, w.customerId), inArray(holds.id, holdIds), eq(holds.status, 'active'))));
  }

  const paidShares = shares(w.paidNow, w.quotes.map((q) => q.total));
  const planJson =
    w.plan.type === 'prepaid'
      ? { type: 'prepaid' }
      : { type: w.plan.type, ...(w.plan.schedule ? { installments: w.plan.schedule.length, schedule: w.plan.schedule.map((s) => ({ dueDate: s.dueDate, amount: dollars(s.amount), status: s.status })) } : {}) };
  let loyaltyPoints = 0;
  const rows: BookingRow[] = [];
  let depositOut: BookingResult['deposit'] = null;

  w.prepared.forEach((p, i) => {
    const q = w.quotes[i];
    const r = w.reservations[i];
    const id = w.rentalIds[i];
    const points = loyaltyPointsFor(q);
    loyaltyPoints += points;
    const isFirst = i === 0;
    const depositInfo =
      isFirst && w.depositIntent
        ? { amount: dollars(w.depositAmount), required: true, paymentIntentId: w.depositIntent.id, status: 'authorized' }
        : isFirst && w.input.depositInformation
          ? { ...w.input.depositInformation, paymentMethodId: undefined }
          : null;
    const row: BookingRow = {
      id,
      customerId: w.customerId,
      transactionId: w.transactionId,
      bundleGroupId: w.bundleGroupId,
      locationId: p.item.row.locationId,
      itemId: p.item.row.id,
      renterId,
      status: w.status,
      source: w.source,
      start: r.departure?.start ?? p.start,
      end: r.departure?.end ?? p.end,
      localDate: localDate(p.start, p.item.item.timezone),
      quantity: p.item.item.kind === 'tour' ? p.quantity : r.assetIds.length,
      participants: p.participants,
      assetIds: r.assetIds,
      currency: w.currency,
      subtotal: q.subtotal,
      discountTotal: q.discountTotal,
      taxTotal: q.taxTotal,
      tipTotal: q.tip,
      feeTotal: 0,
      total: q.total,
      amountPaid: paidShares[i],
      pricing: { quote: q, loyaltyPoints: points, seats: r.allocations.reduce((s, a) => s + (a.assetId ? 0 : a.seats), 0) },
      customerInfo: w.input.customerInfo as Record<string, unknown>,
      rentalDetails: {
        inventoryId: p.req.inventoryId,
        locationId: p.item.row.locationId,
        startTime: p.req.startTime,
        endTime: p.req.endTime ?? new Date(p.end).toISOString(),
        ...(p.req.quantity != null ? { quantity: p.req.quantity } : {}),
        ...(p.req.tickets ? { tickets: p.req.tickets } : {}),
        ...(p.req.participants != null ? { participants: p.req.participants } : {}),
        ...(p.req.assetIds ? { assetIds: p.req.assetIds } : {}),
        ...(w.input.rentalDetails.bundleCode ? { bundleCode: w.input.rentalDetails.bundleCode } : {}),
        ...(w.input.rentalDetails.notes ? { notes: w.input.rentalDetails.notes } : {}),
        itemName: p.item.row.name,
      },
      extendedData: w.input.extendedData,
      addons: quoteOut(q).addons,
      paymentPlan: planJson,
      paymentIntentId: w.charge?.id ?? null,
      depositInformation: depositInfo,
      promoCode: q.discounts.find((d) => d.type === 'promo')?.code ?? null,
      channelConnectionId: w.opts.channel?.connectionId ?? null,
      channelReference: w.opts.channel?.reference ?? null,
      commissionRate: w.opts.channel?.commissionRate ?? null,
      channelIdempotencyKey: isFirst ? (w.opts.channel?.idempotencyKey ?? null) : null,
      testMode: !!w.opts.channel?.testMode,
      checkedInAt: null,
      checkedOutAt: null,
      cancelledAt: null,
      cancellationReason: null,
      version: 1,
      createdAt: nowIso,
      updatedAt: nowIso,
    };
    rows.push(row);
    statements.push(ctx.db.insert(bookings).values(row));
    for (const a of r.allocations) statements.push(ctx.db.insert(allocations).values({ ...a, createdAt: nowIso }));

    const scope: LedgerScope = { customerId: w.customerId, locationId: row.locationId, renterId, transactionId: w.transactionId, rentalId: id, itemId: row.itemId, assetId: r.assetIds[0] ?? null, currency: w.currency };
    const ledger: NewLedger[] = saleEntries(scope, q, new Date(row.start).toISOString(), w.source);
    if (paidShares[i] > 0) {
      ledger.push(
        paymentEntry(scope, paidShares[i], w.plan.type === 'prepaid'
          ? { source: 'channel', reference: w.opts.channel?.reference ?? null, description: 'Paid to the reseller' }
          : { source: 'card', reference: w.charge?.id ?? null, description: w.plan.type === 'installments' ? 'Installment 1' : 'Payment' }),
      );
    }
    if (isFirst) {
      for (const x of w.opts.extraLedger ?? []) ledger.push(memoEntry(scope, x));
      if (w.depositIntent) {
        const depositId = newId('dep');
        statements.push(
          ctx.db.insert(deposits).values({ id: depositId, customerId: w.customerId, rentalId: id, locationId: row.locationId, paymentIntentId: w.depositIntent.id, method: 'card', status: 'authorized', amount: w.depositAmount, currency: w.currency, notes: 'Authorized with the booking' }),
        );
        ledger.push(memoEntry(scope, { entryType: 'deposit_hold', amount: w.depositAmount, description: 'Security deposit pre-authorized', source: 'card', reference: w.depositIntent.id }));
        depositOut = { depositId, paymentIntentId: w.depositIntent.id, amount: dollars(w.depositAmount), status: 'authorized' };
      }
    }
    statements.push(...insertLedger(ctx, ledger));
    statements.push(activityStmt(ctx, row, 1, { type: 'booking.created', change: `created:${w.status}`, label: 'Booking created', details: { source: w.source, total: dollars(q.total) } }));
  });

  if (loyaltyPoints > 0) {
    statements.push(ctx.db.update(renters).set({ loyaltyPoints: sql`${renters.loyaltyPoints} + ${loyaltyPoints}` }).where(and(eq(renters.id, renterId), eq(renters.customerId, w.customerId))));
  }
  const views = rows.map((r, i) => bookingOut(r, { timezone: w.prepared[i].item.item.timezone }));
  const total = w.quotes.reduce((s, q) => s + q.total, 0);
  const first = rows[0];
  const lines = rows.map((r, i) => `- ${w.prepared[i].item.row.name}: ${views[i].startTime} to ${views[i].endTime}${r.assetIds.length ? ` (${r.assetIds.length} unit${r.assetIds.length > 1 ? 's' : ''})` : ` (${r.quantity} guest${r.quantity > 1 ? 's' : ''})`}`).join('\n');
  statements.push(
    emailStmt(ctx, {
      customerId: w.customerId,
      to: w.input.customerInfo.email,
      subject: w.status === 'confirmed' ? `Your booking is confirmed (${w.transactionId})` : `We received your booking (${w.transactionId})`,
      body: `Hello ${w.input.customerInfo.firstName},\n\n${w.status === 'confirmed' ? 'Your booking is confirmed' : 'Your booking is awaiting confirmation'}:\n${lines}\n\nTotal: ${dollars(total).toFixed(2)} ${w.currency.toUpperCase()}; paid: ${dollars(w.paidNow).toFixed(2)}.\nBooking reference: ${w.transactionId}`,
      template: 'booking.confirmation',
      metadata: { transactionId: w.transactionId, rentalIds: w.rentalIds },
    }).stmt,
  );
  statements.push(...(w.opts.statements ?? []));
  for (const v of views) events.push({ type: 'booking.created', customerId: w.customerId, data: v });
  if (w.charge) {
    events.push({ type: 'payment.completed', customerId: w.customerId, data: { paymentIntentId: w.charge.id, amount: dollars(w.charge.amount), currency: w.currency, transactionId: w.transactionId, rentalIds: w.rentalIds, renterId, kind: w.plan.type === 'installments' ? 'installment' : 'booking' } });
  }
  events.push(...(w.opts.events ?? []));

  const result: BookingResult = {
    ...views[0],
    rentals: views,
    order: {
      transactionId: w.transactionId,
      bundleGroupId: w.bundleGroupId,
      currency: w.currency,
      subtotal: dollars(w.quotes.reduce((s, q) => s + q.subtotal, 0)),
      discountTotal: dollars(w.quotes.reduce((s, q) => s + q.discountTotal, 0)),
      taxTotal: dollars(w.quotes.reduce((s, q) => s + q.taxTotal, 0)),
      tipTotal: dollars(w.quotes.reduce((s, q) => s + q.tip, 0)),
      total: dollars(total),
      amountPaid: dollars(w.paidNow),
      balanceDue: dollars(Math.max(0, total - w.paidNow)),
      loyaltyPoints,
    },
    payment: {
      status: w.plan.type === 'prepaid' ? 'prepaid' : w.paidNow >= total ? 'paid' : w.paidNow > 0 ? 'partially_paid' : 'unpaid',
      plan: w.plan.type,
      paymentIntentId: w.charge?.id ?? null,
      amountCharged: dollars(w.charge?.amount ?? 0),
      ...(w.plan.schedule ? { installments: w.plan.schedule.map((s) => ({ dueDate: s.dueDate, amount: dollars(s.amount), status: s.status })) } : {}),
    },
    deposit: depositOut,
    customerCreated: w.upsert.created,
  };
  return {
    statements,
    meta: {
      audit: { action: 'booking.create', targetType: 'booking', targetId: first.id, customerId: w.customerId, details: { transactionId: w.transactionId, rentalIds: w.rentalIds, source: w.source, total: dollars(total), status: w.status } },
      events,
    },
    result,
  };
}
