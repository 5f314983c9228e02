/**
 * POST /coreBooking/check-in/scan: the operator's scanner reads a pass's QR code and checks the
 * booking in (confirmed -> checked_in through the booking lifecycle). The code must be a valid,
 * unexpired Berth check-in code of one of the caller's bookings; a booking already checked in answers
 * 200 with `alreadyCheckedIn` (scanning twice is harmless).
 */
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { nowMs } from '../../lib/clock';
import { checkInBooking, getBookingRow } from '../bookings/service';
import { walletFail } from './errors';
import { readCheckInToken } from './token';

export async function scanCheckIn(ctx: Ctx, input: { token: string; notes?: string }) {
  requirePermission(ctx, 'bookings');
  const rentalId = await readCheckInToken(ctx.env, input.token, nowMs(ctx));
  if (!rentalId) throw walletFail('invalid_pass_token', 'This code is not a valid Berth pass code, or it has expired');
  const b = await getBookingRow(ctx, rentalId);
  if (b.status === 'checked_in' || b.status === 'completed') {
    return { rentalId: b.id, transactionId: b.transactionId, status: b.status, alreadyCheckedIn: true, checkedInAt: b.checkedInAt ?? null };
  }
  const view = await checkInBooking(ctx, rentalId, { notes: input.notes ?? 'Checked in by scanning the pass' });
  return { rentalId: b.id, transactionId: b.transactionId, status: view.status, alreadyCheckedIn: false, checkedInAt: view.checkedInAt ?? null };
}
