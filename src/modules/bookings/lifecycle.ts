/**
 * Booking operations after the sale: cancel, reschedule, confirm, check in, check out, no-show.
 * States and moves are in status.ts. Every operation is a compare-and-swap on the booking version
 * (UPDATE ... WHERE version = read version, plus the activity row `bev_{rentalId}_v{next}` whose
 * primary key makes a second writer's whole batch fail), so capacity is released, ledger entries
 * reversed and money refunded exactly once, whichever path (operator, channel, order) and however
 * many times the operation is called. Events are fired here, never in routes: every status change
 * fires `booking.status_changed` plus its own event.
 */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import { allocations } from '../../db/schema/inventory';
import { bookings, deposits, ledgerEntries, renters } from '../../db/schema/bookings';
import { emailStmt } from '../../adapters/messages';
import { payments, PaymentError } from '../../adapters/payments';
import { departureAt } from '../availability/engine';
import { loadItemContext } from '../availability/state';
import { backstopConflict, isAllocationConflict, release, reserve } from '../availability/lock';
import { activityStmt, isVersionRace } from './activity';
import { CHARGE_TYPES, insertLedger, memoEntry, paymentEntry, refundEntry, reversalOf, type LedgerScope } from './ledger';
import { dollars } from './pricing';
import { canMove, type BookingStatus } from './status';
import { bookingOut, getBookingRow, type BookingRow } from './view';

// ------------------------------------------------------------------------------------------------
// Released capacity

export interface CapacityReleased {
  customerId: string;
  itemId: string;
  rentalId: string;
  locationId: string;
  start: number;
  end: number;
  /** Tour seats given back (0 for rentals). */
  seats: number;
  assetIds: string[];
  reason: 'cancelled' | 'no_show';
}

type ReleaseHook = (ctx: Ctx, e: CapacityReleased) => Promise<void>;
const releaseHooks: ReleaseHook[] = [];

/**
 * Called once for every booking whose capacity was given back (cancelled or no-show), after the
 * release was committed. A waitlist registers here to offer the seats (as a hold with expiry).
 * Hooks run after the response's data is final; their failures are logged, never surfaced.
 */
export function onSeatsReleased(fn: ReleaseHook) {
  releaseHooks.push(fn);
}

async function runReleaseHooks(ctx: Ctx, e: CapacityReleased) {
  for (const h of releaseHooks) {
    try {
      await h(ctx, e);
    } catch (err) {
      console.log(JSON.stringify({ level: 'error', msg: 'seats-released hook failed', rentalId: e.rentalId, error: String(err) }));
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Shared pieces

const casUpdate = (ctx: Ctx, b: BookingRow, set: Partial<BookingRow>) =>
  ctx.db
    .update(bookings)
    .set({ ...set, version: b.version + 1, updatedAt: new Date().toISOString() })
    .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId), eq(bookings.version, b.version)));

const scopeOf = (b: BookingRow): LedgerScope => ({
  customerId: b.customerId,
  locationId: b.locationId,
  renterId: b.renterId,
  transactionId: b.transactionId,
  rentalId: b.id,
  itemId: b.itemId,
  assetId: b.assetIds?.[0] ?? null,
  currency: b.currency,
});

const releaseAllocations = (ctx: Ctx, b: BookingRow) =>
  ctx.db.update(allocations).set({ active: false }).where(and(eq(allocations.customerId, b.customerId), eq(allocations.sourceId, b.id), eq(allocations.active, true)));

/** Commits a booking change; a lost race (another change from the same version) answers 409 version_conflict. */
async function commitChange(ctx: Ctx, statements: Stmt[], meta: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, statements, meta);
  } catch (err) {
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The booking was changed by another request at the same moment; reload it and retry', { status: 409 });
    if (isAllocationConflict(err)) throw backstopConflict();
    throw err;
  }
}

function statusEvents(b: BookingRow, to: BookingStatus, view: ReturnType<typeof bookingOut>, specific: DomainEvent['type']): DomainEvent[] {
  return [
    { type: specific, customerId: b.customerId, data: view },
    { type: 'booking.status_changed', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, from: b.status, to, booking: view } },
  ];
}

const NOT_REVERSED = new Set(['refund', 'deposit_hold', 'deposit_release', 'deposit_capture']);

const seatsOf = (b: BookingRow) => Number((b.pricing as { seats?: number } | null)?.seats ?? 0);

// ------------------------------------------------------------------------------------------------
// Cancel

export interface CancelResult {
  booking: ReturnType<typeof bookingOut>;
  alreadyCancelled: boolean;
  refund?: { status: 'succeeded' | 'failed' | 'none'; amount: number; refundId: string | null };
}

/**
 * Cancels a rental: releases its allocations, reverses its charges in the ledger (and the loyalty
 * points it earned), refunds what Berth collected through the payment provider (`refund: false`
 * keeps it as the renter's credit), voids an authorized deposit, e-mails the renter, and fires
 * booking.cancelled and booking.status_changed (payment.refunded on a refund). A reseller-paid
 * booking reverses its `payment` entry instead (the reseller refunds the guest). Cancelling a
 * cancelled booking answers it again with `alreadyCancelled: true`; checked-in, completed and
 * no-show bookings are 409 `not_cancellable`.
 */
export async function cancelBooking(ctx: Ctx, rentalId: string, opts: { reason?: string; refund?: boolean } = {}): Promise<CancelResult> {
  const b = await getBookingRow(ctx, rentalId);
  if (b.status === 'cancelled') return { booking: bookingOut(b), alreadyCancelled: true };
  if (!canMove(b.status as BookingStatus, 'cancelled')) {
    throw new ApiError('not_cancellable', `A ${b.status.replace('_', '-')} booking cannot be cancelled`, { status: 409, extra: { status: b.status } });
  }
  const now = new Date().toISOString();
  const entries = await ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), isNull(ledgerEntries.deletedAt)))
    .all();
  const reversed = new Set(entries.map((e) => (e.metadata as { reversalOf?: string } | null)?.reversalOf).filter(Boolean));
  const open = entries.filter((e) => !reversed.has(e.id) && !(e.metadata as { reversalOf?: string } | null)?.reversalOf);
  // Charges, discounts, taxes, tips and fees are reversed now; card payments are refunded below
  // (refund entries); deposits follow their own release; a reseller's payment is reversed (it refunds the guest).
  const reversals = open
    .filter((e) => (e.entryType === 'payment' ? e.source === 'channel' : !NOT_REVERSED.has(e.entryType)))
    .map((e) => reversalOf(e, `Cancelled: ${e.description ?? e.entryType}`));
  const points = Number((b.pricing as { loyaltyPoints?: number } | null)?.loyaltyPoints ?? 0);
  const set: Partial<BookingRow> = { status: 'cancelled', cancelledAt: now, cancellationReason: opts.reason ?? null };
  const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: now };
  const view = bookingOut(after);
  const email = (b.customerInfo as { email?: string; firstName?: string } | null) ?? {};
  const statements: Stmt[] = [
    activityStmt(ctx, b, b.version + 1, { type: 'booking.cancelled', change: `${b.status}->cancelled`, label: 'Booking cancelled', content: opts.reason, details: { reversedEntries: reversals.length } }),
    casUpdate(ctx, b, set),
    releaseAllocations(ctx, b),
    ...insertLedger(ctx, reversals),
  ];
  if (points > 0 && b.renterId) {
    statements.push(ctx.db.update(renters).set({ loyaltyPoints: sql`max(0, ${renters.loyaltyPoints} - ${points})` }).where(and(eq(renters.id, b.renterId), eq(renters.customerId, b.customerId))));
  }
  if (email.email) {
    statements.push(emailStmt(ctx, { customerId: b.customerId, to: email.email, subject: `Your booking ${b.id} is cancelled`, body: `Hello ${email.firstName ?? ''},\n\nYour booking ${b.id} (${view.startTime}) has been cancelled.${opts.reason ? `\nReason: ${opts.reason}` : ''}`, template: 'booking.cancelled', metadata: { rentalId: b.id, transactionId: b.transactionId } }).stmt);
  }
  try {
    await commitChange(ctx, statements, {
      audit: { action: 'booking.cancel', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { from: b.status, reason: opts.reason ?? null } },
      events: statusEvents(b, 'cancelled', view, 'booking.cancelled'),
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'version_conflict') {
      // Lost to a concurrent change: if that change was a cancellation, this call is a repeat.
      const now2 = await getBookingRow(ctx, rentalId);
      if (now2.status === 'cancelled') return { booking: bookingOut(now2), alreadyCancelled: true };
    }
    throw err;
  }

  // Only the winner gets here: money back and the deposit released, once.
  const refund = await refundAfterCancel(ctx, after, opts.refund !== false);
  await releaseDeposits(ctx, after);
  await runReleaseHooks(ctx, { customerId: b.customerId, itemId: b.itemId, rentalId: b.id, locationId: b.locationId, start: b.start, end: b.end, seats: seatsOf(b), assetIds: b.assetIds ?? [], reason: 'cancelled' });
  const final = refund.status === 'succeeded' ? await getBookingRow(ctx, rentalId) : after;
  return { booking: bookingOut(final), alreadyCancelled: false, refund };
}

async function refundAfterCancel(ctx: Ctx, b: BookingRow, wanted: boolean): Promise<NonNullable<CancelResult['refund']>> {
  const paidByCard = await ctx.db
    .select({ total: sql<number>`coalesce(sum(-${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), inArray(ledgerEntries.entryType, ['payment', 'refund']), eq(ledgerEntries.source, 'card'), isNull(ledgerEntries.deletedAt)))
    .get();
  const amount = Math.max(0, Math.min(Number(paidByCard?.total ?? 0), b.amountPaid));
  if (!wanted || amount <= 0 || !b.paymentIntentId) return { status: 'none', amount: 0, refundId: null };
  try {
    const r = await payments(ctx.env).refund(b.paymentIntentId, amount, 'requested_by_customer');
    await commit(
      ctx,
      [
        ...insertLedger(ctx, [refundEntry(scopeOf(b), amount, r.id)]),
        ctx.db.update(bookings).set({ amountPaid: sql`max(0, ${bookings.amountPaid} - ${amount})` }).where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
      ],
      {
        audit: { action: 'booking.refund', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { amount: dollars(amount), refundId: r.id } },
        events: [{ type: 'payment.refunded', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, paymentIntentId: b.paymentIntentId, refundId: r.id, amount: dollars(amount), currency: b.currency, renterId: b.renterId } }],
      },
    );
    return { status: 'succeeded', amount: dollars(amount), refundId: r.id };
  } catch (err) {
    console.log(JSON.stringify({ level: 'error', msg: 'refund after cancellation failed', rentalId: b.id, error: String(err) }));
    await commit(ctx, [], { audit: { action: 'booking.refund_failed', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { amount: dollars(amount), error: err instanceof PaymentError ? err.message : String(err) } } });
    return { status: 'failed', amount: dollars(amount), refundId: null };
  }
}

/** Voids the authorized deposits of a cancelled booking. */
async function releaseDeposits(ctx: Ctx, b: BookingRow) {
  const rows = await ctx.db.select().from(deposits).where(and(eq(deposits.customerId, b.customerId), eq(deposits.rentalId, b.id), eq(deposits.status, 'authorized'))).all();
  for (const d of rows) {
    try {
      await payments(ctx.env).cancelPaymentIntent(d.paymentIntentId);
      await commit(
        ctx,
        [
          ctx.db.update(deposits).set({ status: 'released', releasedAt: new Date().toISOString() }).where(and(eq(deposits.id, d.id), eq(deposits.status, 'authorized'))),
          ...insertLedger(ctx, [memoEntry(scopeOf(b), { entryType: 'deposit_release', amount: -d.amount, description: 'Security deposit released (booking cancelled)', source: 'card', reference: d.paymentIntentId })]),
        ],
        { audit: { action: 'deposit.release', targetType: 'deposit', targetId: d.id, customerId: b.customerId, details: { rentalId: b.id, reason: 'booking_cancelled' } } },
      );
    } catch (err) {
      console.log(JSON.stringify({ level: 'error', msg: 'deposit release after cancellation failed', rentalId: b.id, depositId: d.id, error: String(err) }));
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Reschedule

/**
 * Moves a pending or confirmed booking to a new window, re-checked inside the item's lock (its own
 * current allocations do not count against it): the old allocations are released and the new ones
 * taken in one batch. The price and the ledger amounts are kept (revenue entries are re-dated to
 * the new start); fires booking.updated and booking.rescheduled.
 */
export async function rescheduleBooking(ctx: Ctx, rentalId: string, input: { startTime: string; endTime?: string; assetIds?: string[] }, opts: { source?: 'operator' | 'widget' | 'channel' | 'marketplace' } = {}) {
  const b = await getBookingRow(ctx, rentalId);
  if (b.status !== 'pending' && b.status !== 'confirmed') throw new ApiError('invalid_state', `A ${b.status} booking cannot be rescheduled`, { status: 409, extra: { status: b.status } });
  const item = await loadItemContext(ctx.db, b.itemId, b.customerId);
  const start = Date.parse(input.startTime);
  let end: number;
  if (item.item.kind === 'tour') {
    const dep = departureAt(item.item, start);
    if (!dep) throw new ApiError('unavailable', `No departure starts at ${input.startTime}`, { status: 409, extra: { reasons: [{ code: 'no_departure', message: 'No departure starts at that time' }] } });
    if (input.endTime && Date.parse(input.endTime) !== dep.end) throw new ApiError('bad_request', `The departure at ${input.startTime} ends at ${new Date(dep.end).toISOString()}`, { details: [{ field: 'endTime', message: 'must be the departure end' }] });
    if (input.assetIds) throw new ApiError('bad_request', 'Tours are sold by the seat: assetIds do not apply', { details: [{ field: 'assetIds', message: 'not for tours' }] });
    end = dep.end;
  } else {
    if (!input.endTime) throw new ApiError('bad_request', 'endTime is required for a rental', { details: [{ field: 'endTime', message: 'required' }] });
    end = Date.parse(input.endTime);
    if (!(end > start)) throw new ApiError('bad_request', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
    if (input.assetIds && new Set(input.assetIds).size !== b.quantity) throw new ApiError('bad_request', `This booking has ${b.quantity} asset(s): give as many assetIds`, { details: [{ field: 'assetIds', message: `exactly ${b.quantity}` }] });
  }
  if (start === b.start && end === b.end && !input.assetIds) return bookingOut(b, { timezone: item.item.timezone });

  const res = await reserve(ctx.env, {
    customerId: b.customerId,
    itemId: b.itemId,
    line: {
      kind: 'booking',
      sourceId: b.id,
      start,
      end,
      quantity: item.item.kind === 'tour' ? undefined : b.quantity,
      assetIds: input.assetIds,
      preferAssetIds: b.assetIds ?? [],
      seats: seatsOf(b),
      privateCharter: item.item.kind === 'tour' && !!item.item.model.tourPricing?.isPrivate,
      enforceRules: (opts.source ?? 'operator') !== 'operator',
      excludeSourceIds: [b.id],
    },
  });
  try {
    const newStart = res.departure?.start ?? start;
    const newEnd = res.departure?.end ?? end;
    const set: Partial<BookingRow> = { start: newStart, end: newEnd, localDate: localDate(newStart, item.item.timezone), assetIds: res.assetIds.length ? res.assetIds : (b.assetIds ?? []) };
    const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: new Date().toISOString() };
    const view = bookingOut(after, { timezone: item.item.timezone });
    const nowIso = new Date().toISOString();
    const from = { startTime: new Date(b.start).toISOString(), endTime: new Date(b.end).toISOString(), assetIds: b.assetIds ?? [] };
    await commitChange(
      ctx,
      [
        activityStmt(ctx, b, b.version + 1, { type: 'booking.rescheduled', change: 'rescheduled', label: 'Booking rescheduled', details: { from, to: { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds } } }),
        casUpdate(ctx, b, set),
        releaseAllocations(ctx, b),
        ...res.allocations.map((a) => ctx.db.insert(allocations).values({ ...a, createdAt: nowIso })),
        ctx.db
          .update(ledgerEntries)
          .set({ occurredAt: new Date(newStart).toISOString() })
          .where(and(eq(ledgerEntries.customerId, b.customerId), eq(ledgerEntries.rentalId, b.id), inArray(ledgerEntries.entryType, [...CHARGE_TYPES]))),
      ],
      {
        audit: { action: 'booking.reschedule', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { from, to: { startTime: view.startTime, endTime: view.endTime } } },
        events: [
          { type: 'booking.updated', customerId: b.customerId, data: view },
          { type: 'booking.rescheduled', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, from, to: { startTime: view.startTime, endTime: view.endTime, assetIds: view.assetIds }, booking: view } },
        ],
      },
    );
    return view;
  } finally {
    await release(ctx.env, res);
  }
}

// ------------------------------------------------------------------------------------------------
// Status moves: confirm, check in, check out, no-show

const SPECIFIC: Partial<Record<BookingStatus, DomainEvent['type']>> = {
  confirmed: 'booking.updated',
  checked_in: 'booking.checked_in',
  completed: 'booking.checked_out',
  no_show: 'booking.updated',
};

const REFUSAL: Partial<Record<BookingStatus, string>> = { confirmed: 'not_pending' };

async function moveStatus(ctx: Ctx, rentalId: string, to: BookingStatus, opts: { notes?: string; set?: Partial<BookingRow>; statements?: (b: BookingRow) => Stmt[]; events?: DomainEvent[] } = {}) {
  const b = await getBookingRow(ctx, rentalId);
  if (!canMove(b.status as BookingStatus, to)) {
    const code = REFUSAL[to] ?? 'invalid_state';
    throw new ApiError(code, `A ${b.status} booking cannot become ${to}`, { status: 409, extra: { status: b.status } });
  }
  return applyMove(ctx, b, to, opts);
}

async function applyMove(ctx: Ctx, b: BookingRow, to: BookingStatus, opts: { notes?: string; set?: Partial<BookingRow>; statements?: (b: BookingRow) => Stmt[]; events?: DomainEvent[] }) {
  const set: Partial<BookingRow> = { status: to, ...(opts.set ?? {}) };
  const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: new Date().toISOString() };
  const view = bookingOut(after);
  await commitChange(
    ctx,
    [activityStmt(ctx, b, b.version + 1, { type: `booking.${to}`, change: `${b.status}->${to}`, label: `Booking ${to.replace('_', ' ')}`, content: opts.notes }), casUpdate(ctx, b, set), ...(opts.statements?.(b) ?? [])],
    {
      audit: { action: `booking.${to}`, targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { from: b.status, to, notes: opts.notes ?? null } },
      events: [...statusEvents(b, to, view, SPECIFIC[to] ?? 'booking.updated'), ...(opts.events ?? [])],
    },
  );
  return view;
}

/**
 * pending -> confirmed (compare-and-swap: two confirmations cannot both pass). With a payment
 * method the balance due is charged first (402 on decline, the booking stays pending); if the
 * confirmation then loses a race the charge is refunded.
 */
export async function confirmBooking(ctx: Ctx, rentalId: string, input: { paymentMethodId?: string; notes?: string } = {}) {
  const b = await getBookingRow(ctx, rentalId);
  if (b.status !== 'pending') throw new ApiError('not_pending', `Only a pending booking can be confirmed (this one is ${b.status})`, { status: 409, extra: { status: b.status } });
  const due = Math.max(0, b.total - b.amountPaid);
  if (!input.paymentMethodId || due === 0) return applyMove(ctx, b, 'confirmed', { notes: input.notes });
  const pay = payments(ctx.env);
  let intent;
  try {
    intent = await pay.createPaymentIntent({ amount: due, currency: b.currency, confirm: true, paymentMethodId: input.paymentMethodId, description: `Balance of booking ${b.id}`, metadata: { rentalId: b.id, transactionId: b.transactionId, kind: 'balance' } });
    if (intent.status !== 'succeeded') throw new PaymentError('card_declined', 'The payment did not complete', intent);
  } catch (err) {
    if (err instanceof PaymentError) throw new ApiError('payment_failed', err.message, { status: 402, extra: { declineCode: err.code } });
    throw err;
  }
  try {
    return await applyMove(ctx, b, 'confirmed', {
      notes: input.notes,
      set: { amountPaid: b.amountPaid + due, paymentIntentId: b.paymentIntentId ?? intent.id },
      statements: (row) => insertLedger(ctx, [paymentEntry(scopeOf(row), due, { source: 'card', reference: intent.id, description: 'Balance payment' })]),
      events: [{ type: 'payment.completed', customerId: b.customerId, data: { paymentIntentId: intent.id, amount: dollars(due), currency: b.currency, transactionId: b.transactionId, rentalIds: [b.id], renterId: b.renterId, kind: 'balance' } }],
    });
  } catch (err) {
    await pay.refund(intent.id, undefined, 'duplicate').catch(() => undefined);
    throw err;
  }
}

/** confirmed -> checked_in. */
export const checkInBooking = (ctx: Ctx, rentalId: string, input: { notes?: string } = {}) =>
  moveStatus(ctx, rentalId, 'checked_in', { notes: input.notes, set: { checkedInAt: new Date().toISOString() } });

/**
 * checked_in -> completed. A rental returned early gives its remaining time back: its asset
 * allocations end now (plus the turnaround buffer).
 */
export async function checkOutBooking(ctx: Ctx, rentalId: string, input: { notes?: string } = {}) {
  const now = Date.now();
  return moveStatus(ctx, rentalId, 'completed', {
    notes: input.notes,
    set: { checkedOutAt: new Date(now).toISOString() },
    statements: (b) => [
      ctx.db
        .update(allocations)
        .set({ end: sql`max(${allocations.start}, ${now})`, blockedEnd: sql`max(${allocations.start}, ${now}) + (${allocations.blockedEnd} - ${allocations.end})` })
        .where(and(eq(allocations.customerId, b.customerId), eq(allocations.sourceId, b.id), eq(allocations.active, true), gt(allocations.end, now), sql`${allocations.assetId} IS NOT NULL`)),
    ],
  });
}

/** confirmed -> no_show: the renter never came; the capacity is released, the charges stay. */
export async function noShowBooking(ctx: Ctx, rentalId: string, input: { notes?: string } = {}) {
  const view = await moveStatus(ctx, rentalId, 'no_show', { notes: input.notes, statements: (b) => [releaseAllocations(ctx, b)] });
  const b = await getBookingRow(ctx, rentalId);
  await runReleaseHooks(ctx, { customerId: b.customerId, itemId: b.itemId, rentalId: b.id, locationId: b.locationId, start: b.start, end: b.end, seats: seatsOf(b), assetIds: b.assetIds ?? [], reason: 'no_show' });
  return view;
}

/** Operator entry points: cancelling and marking no-shows need the `bookings` permission (admins and managers have it). */
export async function cancelAsOperator(ctx: Ctx, rentalId: string, opts: { reason?: string; refund?: boolean }) {
  requirePermission(ctx, 'bookings');
  return cancelBooking(ctx, rentalId, opts);
}

export async function noShowAsOperator(ctx: Ctx, rentalId: string, input: { notes?: string }) {
  requirePermission(ctx, 'bookings');
  return noShowBooking(ctx, rentalId, input);
}

export async function getBooking(ctx: Ctx, rentalId: string) {
  const b = await getBookingRow(ctx, rentalId);
  return bookingOut(b);
}
