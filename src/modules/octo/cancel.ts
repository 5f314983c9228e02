/**
 * Cancellation. A hold is released at once (its allocations deactivated with the OCTO booking's
 * compare-and-swap). A confirmed booking is cancelled through the bookings service, as the channel
 * cancels: within the operator's cancellation policy (`cancellationCutoffHours` before the start,
 * `/octo/settings`), capacity given back exactly once, the reseller's payment and the platform fee
 * reversed, booking.cancelled and booking.status_changed fired. `force` is not honoured for
 * resellers: the policy always applies.
 */
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { cancelBooking as cancelRental } from '../bookings/service';
import { merchantCtx } from '../channel/service';
import type { OctoCaller } from './auth';
import { octoFail } from './errors';
import { casStmt, defOfRow, isVersionConflict, releaseHoldStmt } from './holds';
import { bookingOfKey, rentalsOf, settingsOf } from './queries';
import { bookingView } from './lookup';
import { statusOf } from './views';

const HOUR = 3_600_000;

/** POST /octo/v1/bookings/{uuid}/cancel. Cancelling a cancelled booking answers it as it is. */
export async function cancelBooking(ctx: Ctx, caller: OctoCaller, uuid: string, reason: string | null | undefined) {
  const p = caller.p;
  const row = await bookingOfKey(ctx, p, uuid);
  // The seller is known: its clock (a sandbox test clock's operator reads its clock's time).
  ctx = await onOperatorClock(ctx, row.customerId);
  const rentals = await rentalsOf(ctx, [row]);
  const rental = rentals.get(row.transactionId) ?? null;
  const now = ctx.clock.now();
  const status = statusOf(row, { rental }, now);
  const audit = {
    action: 'octo.cancel',
    targetType: 'octo_booking',
    targetId: row.id,
    customerId: row.customerId,
    details: { reason: reason ?? null, status },
  };
  if (status === 'CANCELLED' && row.status === 'CANCELLED') return bookingView(ctx, caller, row);
  if (status === 'EXPIRED') throw octoFail('UNPROCESSABLE_ENTITY', 'The reservation already expired; there is nothing to cancel');
  if (status === 'REDEEMED') throw octoFail('UNPROCESSABLE_ENTITY', 'The booking was redeemed (checked in) and can no longer be cancelled');
  const def = await defOfRow(ctx, p, row);
  const mctx = await merchantCtx(ctx, p, def.conn);
  const done = {
    status: 'CANCELLED' as const,
    cancelledAt: new Date(now).toISOString(),
    cancellationReason: reason ?? null,
    cancellationRefund: 'FULL' as const,
    expiresAt: null,
  };
  try {
    if (status === 'ON_HOLD') {
      await commit(mctx, [releaseHoldStmt(ctx, row), casStmt(ctx, row, done)], { audit });
    } else {
      // Confirmed (or cancelled by the operator, which only the OCTO record does not show yet).
      if (status === 'CONFIRMED') {
        const { cancellationCutoffHours } = await settingsOf(ctx, row.customerId);
        const start = rental?.start ?? row.start;
        if (now >= start - cancellationCutoffHours * HOUR)
          throw octoFail(
            'UNPROCESSABLE_ENTITY',
            `The cancellation cut-off has passed: bookings are cancellable until ${cancellationCutoffHours} hours before the start`,
          );
      }
      if (rental) {
        try {
          await cancelRental(mctx, rental.id, { reason: reason ?? 'Cancelled by the reseller (OCTO)' });
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) throw octoFail('UNPROCESSABLE_ENTITY', err.message);
          throw err;
        }
      }
      await commit(mctx, [casStmt(ctx, row, { ...done, ...(rental?.cancelledAt && status === 'CANCELLED' ? { cancelledAt: rental.cancelledAt } : {}) })], {
        audit,
      });
    }
  } catch (err) {
    if (isVersionConflict(err)) {
      const latest = await bookingOfKey(ctx, p, row.id);
      if (latest.status === 'CANCELLED') return bookingView(ctx, caller, latest);
      throw octoFail('UNPROCESSABLE_ENTITY', 'The booking was changed by another request at the same time; read it and retry');
    }
    throw err;
  }
  return bookingView(ctx, caller, await bookingOfKey(ctx, p, row.id));
}
