/**
 * POST /public/bookings/{rentalId}/cancel: the renter cancels with the session token of a verified
 * code. The booking goes through the booking lifecycle (cancelBooking: status, allocations released
 * once, charges reversed, deposit released, e-mail, `booking.cancelled`, the waitlist offered the
 * freed seats by the `capacity.released` hook) with its payment kept; then the refund quoted line by
 * line (bookings/refund-lines.ts) is paid back and what it keeps is written as its own lines (money.ts). Two
 * racing cancellations cancel and refund once: only the one the lifecycle let through refunds.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { cancelBooking } from '../bookings/service';
import { eligibilityAndPlan } from './eligibility';
import { refundCancellation } from './money';
import { asRenter, rentalOnItsClock } from './queries';
import { requireSession, useSessionStmt } from './sessions';

export async function cancelByRenter(ctx0: Ctx, rentalId: string, input: { token?: string | null; reason?: string }) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const session = await requireSession(ctx, input.token, b, 'cancel');
  const rctx = asRenter(ctx, b, `renter:${session.id}`);
  const { eligibility: elig, plan } = await eligibilityAndPlan(ctx, b);
  if (elig.reason === 'already_cancelled') {
    return { rentalId: b.id, transactionId: b.transactionId, status: 'cancelled', alreadyCancelled: true, refund: null, eligibility: elig };
  }
  if (!elig.cancellable) throw new ApiError('not_cancellable', elig.message, { extra: { reason: elig.reason } });
  const reason = input.reason?.trim() ? `Cancelled by the renter: ${input.reason.trim()}` : 'Cancelled by the renter';
  const res = await cancelBooking(rctx, b.id, { reason, refund: false, callerRefund: { amount: elig.refund.amountCents, fee: elig.refund.feeCents } });
  if (res.alreadyCancelled) {
    return { rentalId: b.id, transactionId: b.transactionId, status: 'cancelled', alreadyCancelled: true, refund: null, eligibility: elig };
  }
  const refund = await refundCancellation(rctx, b, plan, [useSessionStmt(ctx, session)]);
  return {
    rentalId: b.id,
    transactionId: b.transactionId,
    status: 'cancelled',
    alreadyCancelled: false,
    refund: { ...refund, percent: elig.refund.percent, currency: b.currency, lines: elig.refund.lines },
    eligibility: elig,
  };
}
