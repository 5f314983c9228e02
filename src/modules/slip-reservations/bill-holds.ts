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
import { changeWithLedger, reservationEvent } from './create';
import { isReservationRace, reservationChange } from './changes';
import { reservationErrors } from './errors';
import { getReservationRow, reservationView } from './queries';
import { settingsOf } from './quote';
import type { SlipSettings } from '../marina-settings/service';
import type { ReservationRow } from './views';
import { netPaidOf, reservationMoney } from './money';
import type { Money } from '../../lib/money-view';
import { dollars, relocking, renterMail, save } from './lifecycle';

/** Statuses a bill can be sent for: before the stay (with a hold unless a deposit secures it), during it, and after it while it owes. */
const BILLABLE: readonly ReservationRow['status'][] = ['pending', 'awaiting_payment', 'expired', 'confirmed', 'checked_in', 'checked_out'];

type BillInput = { holdHours?: number; message?: string; channel: 'email' | 'sms' };

/**
 * What sending the bill does. A reservation not yet confirmed is held for the renter until the bill is
 * paid (`awaiting_payment` with a hold timer), unless the deposit is already paid: the deposit is what
 * confirms a billed reservation, so it is confirmed now (its charges post to the ledger), without a
 * timer, and the rest is due. Due now: what is left of the deposit while held, else the balance.
 */
function billPlan(ctx: Ctx, r: ReservationRow, money: Money, settings: SlipSettings, input: BillInput) {
  const balance = money.balance;
  const netPaid = netPaidOf(money);
  const unconfirmed = ['pending', 'awaiting_payment', 'expired'].includes(r.status);
  const secured = unconfirmed && r.depositCents > 0 && netPaid >= r.depositCents;
  const holding = unconfirmed && !secured;
  const hours = input.holdHours ?? settings.billHoldHours;
  const now = ctx.clock.now();
  const holdExpiresAt = holding ? now + hours * 3_600_000 : null;
  const dueNow = holding && r.depositCents > 0 ? r.depositCents - netPaid : balance;
  const patch: Partial<ReservationRow> = { billSentAt: new Date(now).toISOString() };
  if (holding) Object.assign(patch, { status: 'awaiting_payment', holdExpiresAt, expiredAt: null });
  if (secured) Object.assign(patch, { status: 'confirmed', confirmedAt: nowIso(ctx), holdExpiresAt: null, expiredAt: null });
  return { money, balance, secured, holding, hours, holdExpiresAt, dueNow, patch };
}
type BillPlan = ReturnType<typeof billPlan>;

/** The bill's text: the stay, its lines, total, paid and balance (its money view), and what is due (with the hold's deadline, or the deposit received). */
function billText(r: ReservationRow, plan: BillPlan, timezone: string, message?: string) {
  return [
    `Bill for slip reservation ${r.reservationNumber} (${r.boat.vesselName}), ${formatCalendarRange(r.arrivalDate, r.departureDate)}.`,
    ...r.pricing.lines.map((l) => `${l.description}: ${dollars(l.amountCents)}`),
    `Total ${dollars(plan.money.total)}; paid ${dollars(netPaidOf(plan.money))}; balance ${dollars(plan.balance)}.`,
    plan.holding
      ? `Due now: ${dollars(plan.dueNow)}. The slip is held for you until ${formatLocalDateTime(plan.holdExpiresAt!, timezone)}; after that it is released.`
      : '',
    plan.secured ? `Deposit of ${dollars(r.depositCents)} received: your reservation is confirmed. Due: ${dollars(plan.dueNow)}.` : '',
    message ?? '',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function sendBill(ctx: Ctx, id: string, input: BillInput) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!BILLABLE.includes(r.status)) throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be billed`);
  const money = await reservationMoney(ctx, r);
  if (money.balance <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  if (input.channel === 'sms' && !r.renter.phone) throw new ApiError('bad_request', 'The renter has no phone number for an SMS bill');
  const [settings, loc] = await Promise.all([settingsOf(ctx, r.locationId), getLocationInTenant(ctx, r.locationId)]);
  const plan = billPlan(ctx, r, money, settings, input);
  const body = billText(r, plan, loc.timezone, input.message);
  return await relocking(ctx, r, async () => {
    const details = { holdHours: plan.holding ? plan.hours : null, dueNowCents: plan.dueNow, channel: input.channel, depositSecured: plan.secured };
    const { row, stmts } = plan.secured
      ? changeWithLedger(ctx, r, plan.patch, 'send_bill', details)
      : reservationChange(ctx, r, plan.patch, 'send_bill', details);
    const out = billMessage(ctx, r, input.channel, body, plan.dueNow);
    const changed = (plan.holding || plan.secured) && r.status !== row.status;
    await save(ctx, [...stmts, ...out], {
      audit: {
        action: 'slip_reservation.send_bill',
        targetType: 'slip_reservation',
        targetId: r.id,
        details: { dueNowCents: plan.dueNow, holdExpiresAt: plan.holdExpiresAt, depositSecured: plan.secured },
      },
      events: changed ? [reservationEvent('booking.status_changed', row, { previousStatus: r.status })] : [],
    });
    return reservationView(ctx, row);
  });
}

/** The bill by e-mail or SMS through the outbox, and its copy in the reservation's messages. */
function billMessage(ctx: Ctx, r: ReservationRow, channel: 'email' | 'sms', body: string, dueNow: number) {
  const meta = { slipReservationId: r.id, reservationNumber: r.reservationNumber, dueNowCents: dueNow };
  const subject = `Bill for reservation ${r.reservationNumber}`;
  const out =
    channel === 'sms'
      ? smsStmt(ctx, { to: r.renter.phone!, body, template: 'slip_reservation.bill', customerId: r.customerId, metadata: meta })
      : emailStmt(ctx, { to: r.renter.email, subject, body, template: 'slip_reservation.bill', customerId: r.customerId, metadata: meta });
  const msg = ctx.db.insert(slipReservationMessages).values({
    id: `smsg_${out.id}`,
    customerId: r.customerId,
    reservationId: r.id,
    direction: 'outbound',
    channel,
    subject,
    body,
    sentTo: channel === 'sms' ? r.renter.phone : r.renter.email,
    senderId: ctx.principal.userId ?? ctx.principal.credentialId,
    outboxMessageId: out.id,
  });
  return [out.stmt, msg];
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
