/**
 * Booking operations after the sale: cancel, reschedule, confirm, check in, check out, no-show.
 * States and moves are in status.ts. Every operation is a compare-and-swap on the booking version
 * (UPDATE ... WHERE version = read version, plus the activity row `bev_{rentalId}_v{next}` whose
 * primary key makes a second writer's whole batch fail), so capacity is released, ledger entries
 * reversed and money refunded exactly once, whichever path (operator, channel, order) and however
 * many times the operation is called. Events are fired here, never in routes: every status change
 * fires `booking.status_changed` plus its own event.
 */
import { nowIso } from '../../lib/clock';
import { type Ctx, requirePermission } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError, type CoreErrorCode } from '../../lib/errors';
import { endAllocationsEarly } from '../availability/service';
import { payments, PaymentError } from '../../adapters/payments';
import { activityStmt } from './activity';
import { insertLedger, paymentEntry } from './ledger';
import { dollars } from './pricing';
import { canMove, type BookingStatus } from './status';
import { bookingOut, type BookingRow } from './views';
import { getBookingWithZone } from './queries';
import { casUpdate, commitChange, releaseAllocations, scopeOf, capacityReleased, statusEvents } from './changes';
import { cancelBooking } from './cancel';

// Released capacity goes to the `capacity.released` hook (lib/hooks.ts); the pieces the operations share are in
// changes.ts, cancellation in cancel.ts and rescheduling in reschedule.ts.
export { cancelBooking, type CancelResult } from './cancel';
export { rescheduleBooking } from './reschedule';

// ------------------------------------------------------------------------------------------------
// Status moves: confirm, check in, check out, no-show

const SPECIFIC: Partial<Record<BookingStatus, DomainEvent['type']>> = {
  confirmed: 'booking.updated',
  checked_in: 'booking.checked_in',
  completed: 'booking.checked_out',
  no_show: 'booking.updated',
};

const REFUSAL: Partial<Record<BookingStatus, CoreErrorCode>> = { confirmed: 'not_pending' };

async function moveStatus(
  ctx: Ctx,
  rentalId: string,
  to: BookingStatus,
  opts: { notes?: string; set?: Partial<BookingRow>; statements?: (b: BookingRow) => Stmt[]; events?: DomainEvent[] } = {},
) {
  const { row: b, timezone } = await getBookingWithZone(ctx, rentalId);
  if (!canMove(b.status as BookingStatus, to)) {
    const code = REFUSAL[to] ?? 'invalid_state';
    throw new ApiError(code, `A ${b.status} booking cannot become ${to}`, { extra: { status: b.status } });
  }
  return { view: await applyMove(ctx, b, timezone, to, opts), before: b };
}

async function applyMove(
  ctx: Ctx,
  b: BookingRow,
  timezone: string,
  to: BookingStatus,
  opts: { notes?: string; set?: Partial<BookingRow>; statements?: (b: BookingRow) => Stmt[]; events?: DomainEvent[] },
) {
  const set: Partial<BookingRow> = { status: to, ...(opts.set ?? {}) };
  const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: nowIso(ctx) };
  const view = bookingOut(after, { timezone });
  await commitChange(
    ctx,
    [
      activityStmt(ctx, b, b.version + 1, {
        type: `booking.${to}`,
        change: `${b.status}->${to}`,
        label: `Booking ${to.replace('_', ' ')}`,
        content: opts.notes,
      }),
      casUpdate(ctx, b, set),
      ...(opts.statements?.(b) ?? []),
    ],
    {
      audit: {
        action: `booking.${to}`,
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { from: b.status, to, notes: opts.notes ?? null },
      },
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
  const { row: b, timezone } = await getBookingWithZone(ctx, rentalId);
  if (b.status !== 'pending')
    throw new ApiError('not_pending', `Only a pending booking can be confirmed (this one is ${b.status})`, { extra: { status: b.status } });
  const due = Math.max(0, b.total - b.amountPaid);
  if (!input.paymentMethodId || due === 0) return applyMove(ctx, b, timezone, 'confirmed', { notes: input.notes });
  const pay = payments(ctx);
  let intent;
  try {
    intent = await pay.createPaymentIntent({
      amount: due,
      currency: b.currency,
      confirm: true,
      paymentMethodId: input.paymentMethodId,
      description: `Balance of booking ${b.id}`,
      metadata: { rentalId: b.id, transactionId: b.transactionId, kind: 'balance' },
    });
    if (intent.status !== 'succeeded') throw new PaymentError('card_declined', 'The payment did not complete', intent);
  } catch (err) {
    if (err instanceof PaymentError) throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code } });
    throw err;
  }
  try {
    return await applyMove(ctx, b, timezone, 'confirmed', {
      notes: input.notes,
      set: { amountPaid: b.amountPaid + due, paymentIntentId: b.paymentIntentId ?? intent.id },
      statements: (row) => insertLedger(ctx, [paymentEntry(scopeOf(row), due, { source: 'card', reference: intent.id, description: 'Balance payment' })]),
      events: [
        {
          type: 'payment.completed',
          customerId: b.customerId,
          data: {
            paymentIntentId: intent.id,
            amount: dollars(due),
            currency: b.currency,
            transactionId: b.transactionId,
            rentalIds: [b.id],
            renterId: b.renterId,
            kind: 'balance',
          },
        },
      ],
    });
  } catch (err) {
    await pay.refund(intent.id, undefined, 'duplicate').catch(() => undefined);
    throw err;
  }
}

/** confirmed -> checked_in. */
export const checkInBooking = async (ctx: Ctx, rentalId: string, input: { notes?: string } = {}) =>
  (await moveStatus(ctx, rentalId, 'checked_in', { notes: input.notes, set: { checkedInAt: nowIso(ctx) } })).view;

/**
 * checked_in -> completed. A rental returned early gives its remaining time back: its asset
 * allocations end now (plus the turnaround buffer).
 */
export async function checkOutBooking(ctx: Ctx, rentalId: string, input: { notes?: string } = {}) {
  const now = ctx.clock.now();
  const moved = await moveStatus(ctx, rentalId, 'completed', {
    notes: input.notes,
    set: { checkedOutAt: new Date(now).toISOString() },
    statements: (b) => [endAllocationsEarly(ctx, { customerId: b.customerId, sourceId: b.id }, now)],
  });
  return moved.view;
}

/** confirmed -> no_show: the renter never came; the capacity is released, the charges stay. */
export async function noShowBooking(ctx: Ctx, rentalId: string, input: { notes?: string } = {}) {
  const { view, before: b } = await moveStatus(ctx, rentalId, 'no_show', { notes: input.notes, statements: (row) => [releaseAllocations(ctx, row)] });
  await capacityReleased(ctx, b, 'no_show');
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

/** A rental as every booking operation answers it (with its location's zone): one read. */
export async function getBooking(ctx: Ctx, rentalId: string) {
  const { row, timezone } = await getBookingWithZone(ctx, rentalId);
  return bookingOut(row, { timezone });
}
