import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { SalePayment } from '../../lib/sale-extensions';
import type { DomainEvent } from '../../lib/commit';
import { insertRows, type Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { localDate } from '../../lib/time';
import { bookings, deposits, holds, renters } from '../../db/schema/bookings';
import { formatMoney } from '../../lib/money';
import type { PaymentIntent } from '../../adapters/payments';
import type { RenterUpsert } from '../renters/service';
import { allocationInserts, releaseAllocationsOf, type Reservation } from '../availability/service';
import { activityStmt } from './activity';
import { bookingMailStmt, lineOf, mailData, mailSetting, type MailAccount } from './emails';
import { moneyOut, moneyView } from '../../lib/money-view';
import { insertLedger, memoEntry, paymentEntry, saleEntries, type LedgerDraft, type LedgerScope } from './ledger';
import { dollars, loyaltyPointsFor, quoteOut, type LineQuote } from './pricing';
import type { BookInput } from './schemas';
import type { BookingStatus } from './status';
import { bookingOut, type BookingRow } from './views';
import type { BookingResult, BookingSource, CreateBookingOptions } from './types';
import type { PreparedLine } from './lines';
import { shares, type PaymentPlanOut } from './payment-plan';

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
  /** The payment sources paying part of the order (membership credits, a gift card): per rental (cents), as the ledger records them. */
  sources?: { payment: SalePayment; perRental: number[] }[];
  /** The operator's name and look, for the confirmation e-mail. */
  account?: MailAccount | null;
}

export function buildWrite(ctx: Ctx, w: WriteInput) {
  const lc = lineContextOf(ctx, w);
  const statements: Stmt[] = [...w.upsert.statements, ...releaseReplacedHolds(ctx, w)];
  const events: DomainEvent[] = [...w.upsert.events];
  let loyaltyPoints = 0;
  const rows: BookingRow[] = [];
  const ledgers: LedgerDraft[][] = [];
  let depositOut: BookingResult['deposit'] = null;

  for (let i = 0; i < w.prepared.length; i++) {
    const line = lineWrite(ctx, w, lc, i);
    loyaltyPoints += line.points;
    rows.push(line.row);
    ledgers.push(line.ledger);
    statements.push(...line.statements);
    if (line.deposit) depositOut = line.deposit;
  }

  if (loyaltyPoints > 0) statements.push(loyaltyStmt(ctx, w, lc.renterId, loyaltyPoints));
  // Each rental's money view from the entries this batch writes (the one money view, no read back).
  const views = rows.map((r, i) => ({
    ...bookingOut(r, { timezone: w.prepared[i].item.item.timezone }),
    money: moneyOut(
      moneyView(
        ledgers[i].map((e) => ({ ...e, id: e.id ?? '' })),
        { deposits: i === 0 && depositOut ? [{ status: depositOut.status }] : [] },
      ),
      r.currency,
    ),
  }));
  const total = lc.lineTotals.reduce((s, t) => s + t, 0);
  const first = rows[0];
  statements.push(confirmationEmailStmt(ctx, w, rows, total));
  statements.push(...(w.opts.statements ?? []));
  for (const v of views) events.push({ type: 'booking.created', customerId: w.customerId, data: v });
  // payment.completed for the charge is added by the payments service (collectPayment) to this batch.
  events.push(...(w.opts.events ?? []));

  return {
    rows,
    statements,
    meta: {
      audit: {
        action: 'booking.create',
        targetType: 'booking',
        targetId: first.id,
        customerId: w.customerId,
        details: { transactionId: w.transactionId, rentalIds: w.rentalIds, source: w.source, total: dollars(total), status: w.status },
      },
      events,
    },
    result: bookingResultOf(w, views, total, loyaltyPoints, depositOut),
  };
}

/** What every line of the order shares: the clock, the renter, the surcharge and each line's total and paid share. */
interface LineContext {
  nowIso: string;
  renterId: string;
  surcharge: number;
  lineTotals: number[];
  paidShares: number[];
  planJson: ReturnType<typeof planJsonOf>;
}

function lineContextOf(ctx: Ctx, w: WriteInput): LineContext {
  // A surcharge (the coverage premium) belongs to the first rental: its total and fee total carry it.
  const surcharge = w.opts.surcharge?.amount ?? 0;
  const lineTotals = w.quotes.map((q, i) => q.total + (i === 0 ? surcharge : 0));
  return {
    nowIso: new Date(ctx.clock.now()).toISOString(),
    renterId: w.upsert.renterId,
    surcharge,
    lineTotals,
    paidShares: shares(w.paidNow, lineTotals),
    planJson: planJsonOf(w.plan),
  };
}

/** Releases what the booking replaces, before the new allocations go in. */
function releaseReplacedHolds(ctx: Ctx, w: WriteInput): Stmt[] {
  const statements: Stmt[] = [];
  // The hold this booking replaces (an OCTO reservation being confirmed): released before the new allocations go in.
  if (w.opts.replacesHold) {
    statements.push(releaseAllocationsOf(ctx, { customerId: w.customerId, sourceId: w.opts.replacesHold.sourceId }));
  }
  // Holds of this renter's e-mail that the booking uses: released before the new allocations go in.
  const holdIds = [...new Set(w.reservations.flatMap((r) => r.consumedHoldIds))];
  if (holdIds.length) {
    statements.push(releaseAllocationsOf(ctx, { customerId: w.customerId, sourceIds: holdIds }));
    statements.push(
      ctx.db
        .update(holds)
        .set({ status: 'consumed' })
        .where(and(eq(holds.customerId, w.customerId), inArray(holds.id, holdIds), eq(holds.status, 'active'))),
    );
  }
  return statements;
}

function planJsonOf(plan: PaymentPlanOut) {
  return plan.type === 'prepaid'
    ? { type: 'prepaid' }
    : {
        type: plan.type,
        ...(plan.schedule
          ? {
              installments: plan.schedule.length,
              schedule: plan.schedule.map((s) => ({ dueDate: s.dueDate, amount: dollars(s.amount), status: s.status })),
            }
          : {}),
      };
}

/** One rental of the order: its row, allocations, deposit (first rental), ledger entries and activity row, in that order. */
function lineWrite(ctx: Ctx, w: WriteInput, lc: LineContext, i: number) {
  const q = w.quotes[i];
  const r = w.reservations[i];
  const points = loyaltyPointsFor(q);
  const row = bookingRowOf(w, lc, i, points);
  const statements: Stmt[] = [];
  statements.push(insertRows(ctx.db, bookings, row));
  statements.push(...allocationInserts(ctx, r, lc.nowIso));
  const money = lineLedger(ctx, w, lc, i, row);
  statements.push(...money.statements);
  statements.push(...insertLedger(ctx, money.ledger));
  statements.push(
    activityStmt(ctx, row, 1, {
      type: 'booking.created',
      change: `created:${w.status}`,
      label: 'Booking created',
      details: { source: w.source, total: dollars(q.total) },
    }),
  );
  return { row, points, statements, deposit: money.deposit, ledger: money.ledger };
}

function depositInfoOf(w: WriteInput, isFirst: boolean) {
  return isFirst && w.depositIntent
    ? { amount: dollars(w.depositAmount), required: true, paymentIntentId: w.depositIntent.id, status: 'authorized' }
    : isFirst && w.input.depositInformation
      ? { ...w.input.depositInformation, paymentMethodId: undefined }
      : null;
}

function bookingRowOf(w: WriteInput, lc: LineContext, i: number, points: number): BookingRow {
  const p = w.prepared[i];
  const q = w.quotes[i];
  const r = w.reservations[i];
  const isFirst = i === 0;
  return {
    id: w.rentalIds[i],
    customerId: w.customerId,
    transactionId: w.transactionId,
    bundleGroupId: w.bundleGroupId,
    locationId: p.item.row.locationId,
    itemId: p.item.row.id,
    renterId: lc.renterId,
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
    feeTotal: isFirst ? lc.surcharge : 0,
    total: lc.lineTotals[i],
    amountPaid: lc.paidShares[i],
    pricing: { quote: q, loyaltyPoints: points, seats: r.allocations.reduce((s, a) => s + (a.assetId ? 0 : a.seats), 0) },
    customerInfo: w.input.customerInfo as Record<string, unknown>,
    rentalDetails: rentalDetailsOf(w, p),
    extendedData: w.input.extendedData,
    addons: quoteOut(q).addons,
    paymentPlan: lc.planJson,
    paymentIntentId: w.charge?.id ?? null,
    depositInformation: depositInfoOf(w, isFirst),
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
    createdAt: lc.nowIso,
    updatedAt: lc.nowIso,
  };
}

function rentalDetailsOf(w: WriteInput, p: PreparedLine) {
  return {
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
  };
}

/** A rental's ledger: the sale, what paid it (credits, gift card, card or reseller) and, on the first rental, memos and the deposit. */
function lineLedger(ctx: Ctx, w: WriteInput, lc: LineContext, i: number, row: BookingRow) {
  const q = w.quotes[i];
  const r = w.reservations[i];
  const scope: LedgerScope = {
    customerId: w.customerId,
    locationId: row.locationId,
    renterId: lc.renterId,
    transactionId: w.transactionId,
    rentalId: row.id,
    itemId: row.itemId,
    assetId: r.assetIds[0] ?? null,
    currency: w.currency,
  };
  const ledger: LedgerDraft[] = saleEntries(scope, q, new Date(row.start).toISOString(), w.source);
  ledger.push(...paymentEntriesOf(w, lc, i, scope));
  const statements: Stmt[] = [];
  let deposit: BookingResult['deposit'] = null;
  if (i === 0) {
    for (const x of w.opts.extraLedger ?? []) ledger.push(memoEntry(scope, x));
    if (w.opts.surcharge && lc.surcharge > 0) ledger.push(memoEntry(scope, { ...w.opts.surcharge, affectsBalance: true }));
    if (w.depositIntent) {
      const d = depositWrite(ctx, w, w.depositIntent, row, scope);
      statements.push(d.stmt);
      ledger.push(d.entry);
      deposit = d.out;
    }
  }
  return { ledger, statements, deposit };
}

function paymentEntriesOf(w: WriteInput, lc: LineContext, i: number, scope: LedgerScope): LedgerDraft[] {
  const ledger: LedgerDraft[] = [];
  let bySources = 0;
  for (const { payment, perRental } of w.sources ?? []) {
    if (perRental[i] > 0)
      ledger.push(
        paymentEntry(scope, perRental[i], { source: payment.source, reference: payment.reference ?? w.transactionId, description: payment.description }),
      );
    bySources += perRental[i];
  }
  if (lc.paidShares[i] - bySources > 0) {
    ledger.push(
      paymentEntry(
        scope,
        lc.paidShares[i] - bySources,
        w.plan.type === 'prepaid'
          ? { source: 'channel', reference: w.opts.channel?.reference ?? null, description: 'Paid to the reseller' }
          : { source: 'card', reference: w.charge?.id ?? null, description: w.plan.type === 'installments' ? 'Installment 1' : 'Payment' },
      ),
    );
  }
  return ledger;
}

/** The security deposit pre-authorized with the booking: its row, its memo entry and what the answer says of it. */
function depositWrite(ctx: Ctx, w: WriteInput, intent: PaymentIntent, row: BookingRow, scope: LedgerScope) {
  const depositId = newId('dep');
  const stmt = ctx.db.insert(deposits).values({
    id: depositId,
    customerId: w.customerId,
    rentalId: row.id,
    locationId: row.locationId,
    paymentIntentId: intent.id,
    method: 'card',
    status: 'authorized',
    amount: w.depositAmount,
    currency: w.currency,
    notes: 'Authorized with the booking',
  });
  const entry = memoEntry(scope, {
    entryType: 'deposit_hold',
    amount: w.depositAmount,
    description: 'Security deposit pre-authorized',
    source: 'card',
    reference: intent.id,
  });
  const out: BookingResult['deposit'] = { depositId, paymentIntentId: intent.id, amount: dollars(w.depositAmount), status: 'authorized' };
  return { stmt, entry, out };
}

function loyaltyStmt(ctx: Ctx, w: WriteInput, renterId: string, loyaltyPoints: number): Stmt {
  return ctx.db
    .update(renters)
    .set({ loyaltyPoints: sql`${renters.loyaltyPoints} + ${loyaltyPoints}` })
    .where(and(eq(renters.id, renterId), eq(renters.customerId, w.customerId)));
}

/** The renter's confirmation e-mail of the order (booking templates, emails.ts), in the order's batch. */
function confirmationEmailStmt(ctx: Ctx, w: WriteInput, rows: BookingRow[], total: number): Stmt {
  const location = w.prepared[0].item.location;
  const m = mailSetting(ctx, { customerId: w.customerId, currency: w.currency, account: w.account ?? null, location });
  const lines = rows.map((r, i) => lineOf(r, w.prepared[i].item.row.name, (w.prepared[i].item.item.model as { whatToBring?: unknown }).whatToBring));
  const money = (cents: number) => formatMoney(cents, w.currency);
  const data = {
    ...mailData(m, lines, { firstName: w.input.customerInfo.firstName, policyAmount: total }),
    confirmed: w.status === 'confirmed',
    total: money(total),
    paid: money(w.paidNow),
    balance: total > w.paidNow ? money(total - w.paidNow) : null,
  };
  return bookingMailStmt(ctx, m, {
    id: 'booking.confirmation',
    to: w.input.customerInfo.email,
    data,
    metadata: { transactionId: w.transactionId, rentalIds: w.rentalIds, reference: w.rentalIds[0] },
  });
}

function bookingResultOf(
  w: WriteInput,
  views: ReturnType<typeof bookingOut>[],
  total: number,
  loyaltyPoints: number,
  depositOut: BookingResult['deposit'],
): BookingResult {
  return {
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
}
