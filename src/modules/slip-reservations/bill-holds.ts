/**
 * Bills with a hold: the bill sent to the renter (by e-mail or SMS) holds the unit of a reservation
 * not yet confirmed until a deadline; the cron job expires the holds that ran out.
 */
import { and, eq, gt, lte, min, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, systemCtxFor } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { inJobScope } from '../../lib/job-scope';
import { formatCalendarRange, formatLocalDateTime } from '../../lib/local-time';
import { slipReservationMessages, slipReservations } from '../../db/schema/slip-reservations';
import { emailStmt, smsStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { reservationEvent } from './create';
import { isReservationRace, reservationChange } from './changes';
import { reservationErrors } from './errors';
import { getReservationRow, reservationView } from './queries';
import { settingsOf } from './quote';
import { balanceOf, netPaid, type ReservationRow } from './views';
import { dollars, relocking, renterMail, save } from './lifecycle';

export async function sendBill(ctx: Ctx, id: string, input: { holdHours?: number; message?: string; channel: 'email' | 'sms' }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!['pending', 'awaiting_payment', 'expired', 'confirmed', 'checked_in'].includes(r.status))
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be billed`);
  const balance = balanceOf(r);
  if (balance <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  if (input.channel === 'sms' && !r.renter.phone) throw new ApiError('bad_request', 'The renter has no phone number for an SMS bill');
  const [settings, loc] = await Promise.all([settingsOf(ctx, r.locationId), getLocationInTenant(ctx, r.locationId)]);
  const holding = ['pending', 'awaiting_payment', 'expired'].includes(r.status);
  const hours = input.holdHours ?? settings.billHoldHours;
  const now = ctx.clock.now();
  const holdExpiresAt = holding ? now + hours * 3_600_000 : null;
  const dueNow = holding && r.depositCents > 0 ? Math.max(0, r.depositCents - netPaid(r)) || balance : balance;
  const lines = [
    `Bill for slip reservation ${r.reservationNumber} (${r.boat.vesselName}), ${formatCalendarRange(r.arrivalDate, r.departureDate)}.`,
    ...r.pricing.lines.map((l) => `${l.description}: ${dollars(l.amountCents)}`),
    `Total ${dollars(r.totalCents)}; paid ${dollars(netPaid(r))}; balance ${dollars(balance)}.`,
    holding
      ? `Due now: ${dollars(dueNow)}. The slip is held for you until ${formatLocalDateTime(holdExpiresAt!, loc.timezone)}; after that it is released.`
      : '',
    input.message ?? '',
  ].filter(Boolean);
  const body = lines.join('\n');
  const patch: Partial<ReservationRow> = { billSentAt: new Date(now).toISOString() };
  if (holding) Object.assign(patch, { status: 'awaiting_payment', holdExpiresAt, expiredAt: null });
  return await relocking(ctx, r, async () => {
    const { row, stmts } = reservationChange(ctx, r, patch, 'send_bill', { holdHours: holding ? hours : null, dueNowCents: dueNow, channel: input.channel });
    const meta = { slipReservationId: r.id, reservationNumber: r.reservationNumber, dueNowCents: dueNow };
    const out =
      input.channel === 'sms'
        ? smsStmt(ctx, { to: r.renter.phone!, body, template: 'slip_reservation.bill', customerId: r.customerId, metadata: meta })
        : emailStmt(ctx, {
            to: r.renter.email,
            subject: `Bill for reservation ${r.reservationNumber}`,
            body,
            template: 'slip_reservation.bill',
            customerId: r.customerId,
            metadata: meta,
          });
    const msg = ctx.db.insert(slipReservationMessages).values({
      id: `smsg_${out.id}`,
      customerId: r.customerId,
      reservationId: r.id,
      direction: 'outbound',
      channel: input.channel,
      subject: `Bill for reservation ${r.reservationNumber}`,
      body,
      sentTo: input.channel === 'sms' ? r.renter.phone : r.renter.email,
      senderId: ctx.principal.userId ?? ctx.principal.credentialId,
      outboxMessageId: out.id,
    });
    await save(ctx, [...stmts, out.stmt, msg], {
      audit: { action: 'slip_reservation.send_bill', targetType: 'slip_reservation', targetId: r.id, details: { dueNowCents: dueNow, holdExpiresAt } },
      events: holding && r.status !== 'awaiting_payment' ? [reservationEvent('booking.status_changed', row, { previousStatus: r.status })] : [],
    });
    return reservationView(ctx, row);
  });
}

/** Bill holds (not of waitlist offers) still awaiting payment: the job's rows. */
const billHolds = (ctx: Ctx) =>
  and(eq(slipReservations.status, 'awaiting_payment'), ne(slipReservations.source, 'waitlist'), inJobScope(ctx, slipReservations.customerId));

/**
 * Cron (every 5 minutes, on the clock): bill holds past their expiry become `expired` (the unit was
 * already free from that instant) and the renter is told. Holds of waitlist offers are left to the
 * waitlist's own sweep (it answers the offer and tells the renter about the offer, not a bill).
 */
export async function expireBillHolds(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(slipReservations)
    .where(and(billHolds(ctx), lte(slipReservations.holdExpiresAt, ctx.clock.now())))
    .limit(200)
    .all();
  let expired = 0;
  for (const r of rows) {
    const octx = systemCtxFor(ctx, r.customerId);
    const { row, stmts } = reservationChange(octx, r, { status: 'expired', expiredAt: nowIso(octx) }, 'hold_expired', {
      holdExpiresAt: r.holdExpiresAt,
    });
    const mail = renterMail(
      octx,
      row,
      `Hold released for reservation ${r.reservationNumber}`,
      `The bill for slip reservation ${r.reservationNumber} (${formatCalendarRange(r.arrivalDate, r.departureDate)}) was not paid in time, so the slip is no longer held. Contact the marina to book again.`,
      'slip_reservation.hold_expired',
    );
    try {
      await commit(octx, [...stmts, mail], {
        audit: { action: 'slip_reservation.hold_expired', targetType: 'slip_reservation', targetId: r.id, customerId: r.customerId },
        events: [reservationEvent('booking.status_changed', row, { previousStatus: 'awaiting_payment' })],
      });
      expired++;
      await octx.hooks.emit(octx, 'slip_reservation.ended', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId, status: 'expired' });
    } catch (err) {
      // Paid or changed meanwhile (version race): nothing to expire.
      if (!isReservationRace(err)) octx.log.error('bill hold expiry failed', { reservationId: r.id, error: String(err) });
    }
  }
  return { expired };
}

/** The job's next due instant: the first bill hold in scope to run out after the clock's now (ms), or null. */
export async function nextBillHoldExpiry(ctx: Ctx): Promise<number | null> {
  const row = await ctx.db
    .select({ at: min(slipReservations.holdExpiresAt) })
    .from(slipReservations)
    .where(and(billHolds(ctx), gt(slipReservations.holdExpiresAt, ctx.clock.now())))
    .get();
  return row?.at ?? null;
}
