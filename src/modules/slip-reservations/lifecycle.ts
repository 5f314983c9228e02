/**
 * The status of a reservation: confirm (and the confirmation or hold release as statements for a
 * caller's batch), check-in, check-out, cancel, delete. Also what the other write paths of a
 * reservation share: `save` (a lost compare-and-swap answers 409), `relocking` (re-take a unit an
 * expired or lapsed hold let go), the renter's e-mail, dollars and the location's today.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { nowIso } from '../../lib/clock';
import { formatCalendarRange } from '../../lib/local-time';
import type { Stmt } from '../../db/client';
import { slipPayments, slipReservationChanges, slipReservationMessages, slipReservations } from '../../db/schema/slip-reservations';
import { emailStmt } from '../../adapters/messages';
import { slipOccupancyStmt } from '../slips/service';
import { changeWithLedger, reservationEvent, underSlipLock } from './create';
import { isReservationRace, raceError, reservationChange } from './changes';
import { reservationErrors } from './errors';
import { getReservationRow, reservationView } from './queries';
import { todayAtLocation } from './quote';
import { isBlocking } from './types';
import type { ReservationRow } from './views';
import { moneyOf, netPaidOf, reservationLedger, reservationMoney } from './money';
import type { LedgerRow } from '../bookings/service';

export const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;

/** Commits a change; a lost compare-and-swap answers 409 `version_conflict`. */
export async function save(ctx: Ctx, stmts: Stmt[], opts: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, stmts, opts);
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

/** Runs `write` under the unit's lock when the reservation does not hold its unit any more (an expired or lapsed bill hold). */
export async function relocking<T>(ctx: Ctx, r: ReservationRow, write: () => Promise<T>): Promise<T> {
  if (isBlocking(r, ctx.clock.now())) return await write();
  return await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, write);
}

export function renterMail(ctx: Ctx, r: ReservationRow, subject: string, body: string, template: string) {
  return emailStmt(ctx, {
    to: r.renter.email,
    subject,
    body,
    template,
    customerId: r.customerId,
    metadata: { slipReservationId: r.id, reservationNumber: r.reservationNumber },
  }).stmt;
}

/**
 * The confirmation of a reservation as statements (the change with its ledger entries and the
 * renter's e-mail) and its event, for callers that confirm inside their own batch (a waitlist
 * offer accepted). The caller holds the unit (a running hold or the unit's lock) and passes the
 * reservation's ledger (money.ts `reservationLedger`): the e-mail states the money view after the batch.
 */
export function confirmationChange(ctx: Ctx, r: ReservationRow, ledger: LedgerRow[], action: string, details: Record<string, unknown> = {}) {
  const { row, stmts, entries } = changeWithLedger(ctx, r, { status: 'confirmed', confirmedAt: nowIso(ctx), holdExpiresAt: null }, action, {
    from: r.status,
    ...details,
  });
  const money = moneyOf(row, [...ledger, ...entries]);
  const mail = renterMail(
    ctx,
    row,
    `Reservation ${row.reservationNumber} confirmed`,
    `Your ${row.rateType} reservation ${row.reservationNumber} for ${row.boat.vesselName}, ${formatCalendarRange(row.arrivalDate, row.departureDate)}, is confirmed. Total ${dollars(money.total)}, balance ${dollars(money.balance)}.`,
    'slip_reservation.confirmed',
  );
  return { row, stmts: [...stmts, mail], events: [reservationEvent('booking.status_changed', row, { previousStatus: r.status })] };
}

/**
 * Ends a hold that never became a stay (a waitlist offer declined, withdrawn or not answered), as
 * statements for the caller's batch: `cancelled` for an answer, `expired` for a lapse. No e-mail:
 * the caller tells the renter in its own words.
 */
export function holdReleaseChange(ctx: Ctx, r: ReservationRow, outcome: 'cancelled' | 'expired', reason: string) {
  const now = nowIso(ctx);
  const patch: Partial<ReservationRow> =
    outcome === 'expired' ? { status: 'expired', expiredAt: now } : { status: 'cancelled', cancelledAt: now, cancellationReason: reason, holdExpiresAt: null };
  const { row, stmts } = changeWithLedger(ctx, r, patch, outcome === 'expired' ? 'hold_expired' : 'hold_released', { from: r.status, reason });
  const event =
    outcome === 'expired'
      ? reservationEvent('booking.status_changed', row, { previousStatus: r.status })
      : reservationEvent('booking.cancelled', row, { previousStatus: r.status, reason });
  return { row, stmts, events: [event] };
}

export async function confirmReservation(ctx: Ctx, id: string, input: { note?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'confirmed') return reservationView(ctx, r);
  if (!['pending', 'awaiting_payment', 'expired'].includes(r.status))
    throw new ApiError('not_pending', `A ${r.status.replace('_', ' ')} reservation cannot be confirmed`);
  return await relocking(ctx, r, async () => {
    const { row, stmts, events } = confirmationChange(ctx, r, await reservationLedger(ctx, r), 'confirm', { note: input.note ?? null });
    await save(ctx, stmts, {
      audit: { action: 'slip_reservation.confirm', targetType: 'slip_reservation', targetId: r.id, details: { from: r.status } },
      events,
    });
    return reservationView(ctx, row);
  });
}

/** Today at the reservation's location (its calendar, on the context's clock). */
export const today = (ctx: Ctx, r: ReservationRow) => todayAtLocation(ctx, r.locationId);

export async function checkIn(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status !== 'confirmed') throw new ApiError('invalid_state', `Only a confirmed reservation can check in (this one is ${r.status.replace('_', ' ')})`);
  const d = await today(ctx, r);
  if (d < r.arrivalDate)
    throw new ApiError('invalid_state', `Check-in opens on the arrival date ${r.arrivalDate} (today is ${d}); change the dates for an early arrival`);
  if (d >= r.departureDate) throw new ApiError('invalid_state', `The stay ended on ${r.departureDate}`);
  const { row, stmts } = reservationChange(ctx, r, { status: 'checked_in', checkedInAt: nowIso(ctx) }, 'check_in');
  await save(ctx, [...stmts, slipOccupancyStmt(ctx, r.slipId, true)], {
    audit: { action: 'slip_reservation.check_in', targetType: 'slip_reservation', targetId: r.id },
    events: [reservationEvent('booking.checked_in', row)],
  });
  return reservationView(ctx, row);
}

/** What a check-out warns about: a balance still owed (the stay stays in the billing list until it is paid). */
function checkOutWarnings(balance: number) {
  return balance > 0
    ? [
        {
          code: 'balance_due' as const,
          message: `The stay still owes ${dollars(balance)}: it stays in the billing list (GET /slip-reservations/due-billing) until it is paid`,
          balanceCents: balance,
        },
      ]
    : [];
}

export async function checkOut(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status !== 'checked_in') throw new ApiError('invalid_state', `Only a checked-in reservation can check out (this one is ${r.status.replace('_', ' ')})`);
  const { row, stmts } = reservationChange(ctx, r, { status: 'checked_out', checkedOutAt: nowIso(ctx) }, 'check_out');
  // Checking out moves no money: the balance is the stay's money view.
  const { balance } = await reservationMoney(ctx, row);
  const warnings = checkOutWarnings(balance);
  await save(ctx, [...stmts, slipOccupancyStmt(ctx, r.slipId, false)], {
    audit: { action: 'slip_reservation.check_out', targetType: 'slip_reservation', targetId: r.id, details: { balanceCents: balance } },
    events: [reservationEvent('booking.checked_out', row, { balanceCents: balance })],
  });
  await ctx.hooks.emit(ctx, 'slip_reservation.ended', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId, status: 'checked_out' });
  return { ...(await reservationView(ctx, row)), warnings };
}

export async function cancelReservation(ctx: Ctx, id: string, input: { reason?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled') return reservationView(ctx, r);
  if (r.status === 'checked_in' || r.status === 'checked_out')
    throw new ApiError(
      'not_cancellable',
      `A ${r.status.replace('_', ' ')} reservation cannot be cancelled${r.status === 'checked_in' ? ': check it out' : ''}`,
    );
  const ledger = await reservationLedger(ctx, r);
  const { row, stmts, entries } = changeWithLedger(
    ctx,
    r,
    { status: 'cancelled', cancelledAt: nowIso(ctx), cancellationReason: input.reason ?? null, holdExpiresAt: null },
    'cancel',
    { from: r.status, reason: input.reason ?? null },
  );
  const held = netPaidOf(moneyOf(row, [...ledger, ...entries]));
  const mail = renterMail(
    ctx,
    row,
    `Reservation ${row.reservationNumber} cancelled`,
    `Your slip reservation ${row.reservationNumber} (${formatCalendarRange(row.arrivalDate, row.departureDate)}) was cancelled.${held > 0 ? ` ${dollars(held)} paid is on file; the marina will contact you about a refund.` : ''}`,
    'slip_reservation.cancelled',
  );
  await save(ctx, [...stmts, mail], {
    audit: { action: 'slip_reservation.cancel', targetType: 'slip_reservation', targetId: r.id, details: { from: r.status, reason: input.reason ?? null } },
    events: [reservationEvent('booking.cancelled', row, { previousStatus: r.status })],
  });
  await ctx.hooks.emit(ctx, 'slip_reservation.ended', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId, status: 'cancelled' });
  return reservationView(ctx, row);
}

/** Permanently deletes a cancelled reservation with its payments records, messages and change log (and, through a hook, its contracts). */
export async function deleteReservation(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status !== 'cancelled') throw new ApiError('invalid_state', 'Only a cancelled reservation can be deleted; cancel it first');
  const held = netPaidOf(await reservationMoney(ctx, r));
  if (held > 0) throw reservationErrors.fail('has_payments', `${dollars(held)} paid is still held for this reservation; refund it first`);
  const own = (t: typeof slipPayments | typeof slipReservationMessages | typeof slipReservationChanges) =>
    ctx.db.delete(t).where(and(eq(t.customerId, r.customerId), eq(t.reservationId, r.id)));
  await commit(
    ctx,
    [
      own(slipPayments),
      own(slipReservationMessages),
      own(slipReservationChanges),
      ctx.db.delete(slipReservations).where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
    ],
    { audit: { action: 'slip_reservation.delete', targetType: 'slip_reservation', targetId: r.id, details: { number: r.reservationNumber } } },
  );
  await ctx.hooks.emit(ctx, 'slip_reservation.deleted', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId });
  return { id: r.id, deleted: true as const };
}
