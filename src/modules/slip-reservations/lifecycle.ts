import { and, eq, lte, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, systemCtx, type Hooks } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { localDate } from '../../lib/time';
import type { Env } from '../../env';
import type { Stmt } from '../../db/client';
import { getDb } from '../../db/client';
import { slipPayments, slipReservationChanges, slipReservationMessages, slipReservations } from '../../db/schema/slip-reservations';
import { emailStmt, smsStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { getSlipRow, slipOccupancyStmt } from '../slips/service';
import { changeWithLedger, reservationEvent, underSlipLock } from './create';
import { isReservationRace, raceError, reservationChange } from './changes';
import { reservationErrors } from './errors';
import { isDeferred, recognitionLedger } from './ledger';
import { depositFor, monthSegments } from './pricing';
import { getReservationRow, reservationView } from './queries';
import { quote, rateOf, settingsOf, totalsOf } from './quote';
import type { ChargeLine } from '../marina-settings/service';
import { isBlocking } from './types';
import { balanceOf, netPaid, type ReservationRow } from './views';

const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;

/** Commits a change; a lost compare-and-swap answers 409 `version_conflict`. */
async function save(ctx: Ctx, stmts: Stmt[], opts: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, stmts, opts);
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

/** Runs `write` under the unit's lock when the reservation does not hold its unit any more (an expired or lapsed bill hold). */
async function relocking<T>(ctx: Ctx, r: ReservationRow, write: () => Promise<T>): Promise<T> {
  if (isBlocking(r, Date.now())) return await write();
  return await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, write);
}

function renterMail(ctx: Ctx, r: ReservationRow, subject: string, body: string, template: string) {
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
 * offer accepted). The caller holds the unit (a running hold or the unit's lock).
 */
export function confirmationChange(ctx: Ctx, r: ReservationRow, action: string, details: Record<string, unknown> = {}) {
  const { row, stmts } = changeWithLedger(ctx, r, { status: 'confirmed', confirmedAt: new Date().toISOString(), holdExpiresAt: null }, action, {
    from: r.status,
    ...details,
  });
  const mail = renterMail(
    ctx,
    row,
    `Reservation ${row.reservationNumber} confirmed`,
    `Your ${row.rateType} reservation ${row.reservationNumber} for ${row.boat.vesselName} from ${row.arrivalDate} to ${row.departureDate} is confirmed. Total ${dollars(row.totalCents)}, balance ${dollars(balanceOf(row))}.`,
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
  const now = new Date().toISOString();
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
    const { row, stmts, events } = confirmationChange(ctx, r, 'confirm', { note: input.note ?? null });
    await save(ctx, stmts, {
      audit: { action: 'slip_reservation.confirm', targetType: 'slip_reservation', targetId: r.id, details: { from: r.status } },
      events,
    });
    return reservationView(ctx, row);
  });
}

/**
 * Adds charge lines (haul services, metered utilities) to a reservation, re-priced with its own
 * rate, fees, tax and discount, as statements for the caller's batch (the reservation's
 * compare-and-swap and the ledger entries of the difference).
 */
export async function chargeLinesChange(
  ctx: Ctx,
  r: ReservationRow,
  add: { fees?: ChargeLine[]; utilities?: ChargeLine[] },
  action: string,
  details: Record<string, unknown> = {},
) {
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const price = quote(slip, settings, r, {
    ratePerFootCents: r.pricing.ratePerFootCents,
    fees: [...r.pricing.fees, ...(add.fees ?? [])],
    utilities: [...r.pricing.utilities, ...(add.utilities ?? [])],
    taxRatePercent: r.pricing.taxRatePercent,
    discountCents: r.pricing.discountCents,
  });
  const { row, stmts } = changeWithLedger(ctx, r, totalsOf(price), action, { previousTotalCents: r.totalCents, totalCents: price.totalCents, ...details });
  return { row, stmts, events: [reservationEvent('booking.updated', row, { charges: action, previousTotalCents: r.totalCents })] };
}

export async function sendBill(ctx: Ctx, id: string, input: { holdHours?: number; message?: string; channel: 'email' | 'sms' }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!['pending', 'awaiting_payment', 'expired', 'confirmed', 'checked_in'].includes(r.status))
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be billed`);
  const balance = balanceOf(r);
  if (balance <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  if (input.channel === 'sms' && !r.renter.phone) throw new ApiError('bad_request', 'The renter has no phone number for an SMS bill');
  const settings = await settingsOf(ctx, r.locationId);
  const holding = ['pending', 'awaiting_payment', 'expired'].includes(r.status);
  const hours = input.holdHours ?? settings.billHoldHours;
  const now = Date.now();
  const holdExpiresAt = holding ? now + hours * 3_600_000 : null;
  const dueNow = holding && r.depositCents > 0 ? Math.max(0, r.depositCents - netPaid(r)) || balance : balance;
  const lines = [
    `Bill for slip reservation ${r.reservationNumber} (${r.boat.vesselName}), ${r.arrivalDate} to ${r.departureDate}.`,
    ...r.pricing.lines.map((l) => `${l.description}: ${dollars(l.amountCents)}`),
    `Total ${dollars(r.totalCents)}; paid ${dollars(netPaid(r))}; balance ${dollars(balance)}.`,
    holding ? `Due now: ${dollars(dueNow)}. The slip is held for you until ${new Date(holdExpiresAt!).toISOString()}; after that it is released.` : '',
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

async function today(ctx: Ctx, r: ReservationRow) {
  return localDate(Date.now(), (await getLocationInTenant(ctx, r.locationId)).timezone);
}

export async function checkIn(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status !== 'confirmed') throw new ApiError('invalid_state', `Only a confirmed reservation can check in (this one is ${r.status.replace('_', ' ')})`);
  const d = await today(ctx, r);
  if (d < r.arrivalDate)
    throw new ApiError('invalid_state', `Check-in opens on the arrival date ${r.arrivalDate} (today is ${d}); change the dates for an early arrival`);
  if (d >= r.departureDate) throw new ApiError('invalid_state', `The stay ended on ${r.departureDate}`);
  const { row, stmts } = reservationChange(ctx, r, { status: 'checked_in', checkedInAt: new Date().toISOString() }, 'check_in');
  await save(ctx, [...stmts, slipOccupancyStmt(ctx, r.slipId, true)], {
    audit: { action: 'slip_reservation.check_in', targetType: 'slip_reservation', targetId: r.id },
    events: [reservationEvent('booking.checked_in', row)],
  });
  return reservationView(ctx, row);
}

export async function checkOut(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status !== 'checked_in') throw new ApiError('invalid_state', `Only a checked-in reservation can check out (this one is ${r.status.replace('_', ' ')})`);
  const { row, stmts } = reservationChange(ctx, r, { status: 'checked_out', checkedOutAt: new Date().toISOString() }, 'check_out');
  await save(ctx, [...stmts, slipOccupancyStmt(ctx, r.slipId, false)], {
    audit: { action: 'slip_reservation.check_out', targetType: 'slip_reservation', targetId: r.id, details: { balanceCents: balanceOf(r) } },
    events: [reservationEvent('booking.checked_out', row, { balanceCents: balanceOf(row) })],
  });
  await ctx.hooks.emit(ctx, 'slip_reservation.ended', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId, status: 'checked_out' });
  return reservationView(ctx, row);
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
  const { row, stmts } = changeWithLedger(
    ctx,
    r,
    { status: 'cancelled', cancelledAt: new Date().toISOString(), cancellationReason: input.reason ?? null, holdExpiresAt: null },
    'cancel',
    { from: r.status, reason: input.reason ?? null },
  );
  const mail = renterMail(
    ctx,
    row,
    `Reservation ${row.reservationNumber} cancelled`,
    `Your slip reservation ${row.reservationNumber} (${row.arrivalDate} to ${row.departureDate}) was cancelled.${netPaid(row) > 0 ? ` ${dollars(netPaid(row))} paid is on file; the marina will contact you about a refund.` : ''}`,
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
  if (netPaid(r) > 0) throw reservationErrors.fail('has_payments', `${dollars(netPaid(r))} paid is still held for this reservation; refund it first`);
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

/** POST /slip-reservations/{id}/contract-signed: staff record a contract signed outside Berth (on paper). */
export async function markContractSigned(ctx: Ctx, id: string, input: { contractId?: string; signedAt?: string; note?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled') throw new ApiError('invalid_state', 'The reservation is cancelled');
  const signedAt = input.signedAt ? new Date(input.signedAt).toISOString() : new Date().toISOString();
  const { row, stmts } = reservationChange(
    ctx,
    r,
    { contractStatus: 'signed', contractSignedAt: signedAt, contractId: input.contractId ?? r.contractId },
    'contract_signed',
    { contractId: input.contractId ?? null, note: input.note ?? null },
  );
  await save(ctx, stmts, { audit: { action: 'slip_reservation.contract_signed', targetType: 'slip_reservation', targetId: r.id, details: { signedAt } } });
  return reservationView(ctx, row);
}

/**
 * For the contracts module: the statements that set the reservation's contract state (in the
 * contract's own batch, with the reservation's compare-and-swap).
 */
export function contractStateStmts(
  ctx: Ctx,
  r: ReservationRow,
  state: { status: ReservationRow['contractStatus']; contractId: string | null; signedAt?: string | null },
) {
  return reservationChange(
    ctx,
    r,
    { contractStatus: state.status, contractId: state.contractId, contractSignedAt: state.signedAt ?? null },
    `contract_${state.status}`,
    {
      contractId: state.contractId,
    },
  ).stmts;
}

export async function recalculateTotal(ctx: Ctx, id: string, input: { refreshRates: boolean }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `A ${r.status} reservation is not re-priced`);
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const price = quote(slip, settings, r, {
    ratePerFootCents: input.refreshRates ? rateOf(slip, settings, r.rateType) : r.pricing.ratePerFootCents,
    fees: r.pricing.fees,
    utilities: r.pricing.utilities,
    taxRatePercent: r.pricing.taxRatePercent,
    discountCents: r.pricing.discountCents,
  });
  const { row, stmts } = changeWithLedger(ctx, r, { ...totalsOf(price), depositCents: depositFor(settings.deposit, price) }, 'recalculate', {
    previousTotalCents: r.totalCents,
    totalCents: price.totalCents,
  });
  await save(ctx, stmts, {
    audit: { action: 'slip_reservation.recalculate', targetType: 'slip_reservation', targetId: r.id, details: { from: r.totalCents, to: price.totalCents } },
  });
  return { ...(await reservationView(ctx, row)), previousTotalCents: r.totalCents };
}

/** Recognises the deferred revenue of a seasonal or annual term month by month, up to `throughMonth`. */
export async function recognizeRevenue(ctx: Ctx, id: string, input: { throughMonth?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!isDeferred(r))
    throw new ApiError('invalid_state', 'Only seasonal and annual reservations defer revenue (nightly and monthly stays post revenue at once)');
  const deferred = r.postedCharges?.deferred_revenue ?? 0;
  if (!['confirmed', 'checked_in', 'checked_out'].includes(r.status) || deferred <= 0)
    throw new ApiError('invalid_state', 'Revenue is recognised once the reservation is confirmed and its charges are posted');
  const through = input.throughMonth ?? (await today(ctx, r)).slice(0, 7);
  const recognized = r.postedCharges?.recognized ?? 0;
  const remaining = monthSegments(r.arrivalDate, r.departureDate).filter((s) => !r.recognizedThrough || s.month > r.recognizedThrough);
  const nights = remaining.reduce((n, s) => n + s.nights, 0);
  const left = deferred - recognized;
  const due: { month: string; amountCents: number }[] = [];
  let given = 0;
  remaining.forEach((s, i) => {
    const share = i === remaining.length - 1 ? left - given : Math.round((left * s.nights) / nights);
    given += share;
    if (s.month <= through) due.push({ month: s.month, amountCents: share });
  });
  const summary = (row: ReservationRow, list: typeof due) => ({
    reservationId: row.id,
    recognized: list,
    recognizedThrough: row.recognizedThrough,
    deferredCents: deferred,
    recognizedCents: row.postedCharges?.recognized ?? 0,
    remainingDeferredCents: deferred - (row.postedCharges?.recognized ?? 0),
  });
  if (!due.length) return summary(r, []);
  const total = due.reduce((n, d) => n + d.amountCents, 0);
  const { row, stmts } = reservationChange(
    ctx,
    r,
    { recognizedThrough: due.at(-1)!.month, postedCharges: { ...(r.postedCharges ?? {}), recognized: recognized + total } },
    'recognize_revenue',
    { months: due },
  );
  await save(ctx, [...stmts, ...due.flatMap((d) => recognitionLedger(ctx, r, d.month, d.amountCents))], {
    audit: { action: 'slip_reservation.recognize_revenue', targetType: 'slip_reservation', targetId: r.id, details: { months: due } },
  });
  return summary(row, due);
}

/**
 * Cron: bill holds past their expiry become `expired` (the unit was already free from that instant)
 * and the renter is told. Holds of waitlist offers are left to the waitlist's own sweep (it answers
 * the offer and tells the renter about the offer, not a bill).
 */
export async function expireBillHolds(env: Env, now = new Date(), hooks?: Hooks) {
  const db = getDb(env.DB);
  const rows = await db
    .select()
    .from(slipReservations)
    .where(and(eq(slipReservations.status, 'awaiting_payment'), lte(slipReservations.holdExpiresAt, now.getTime()), ne(slipReservations.source, 'waitlist')))
    .limit(200)
    .all();
  let expired = 0;
  for (const r of rows) {
    const ctx = systemCtx(env, { customerId: r.customerId, hooks });
    const { row, stmts } = reservationChange(ctx, r, { status: 'expired', expiredAt: now.toISOString() }, 'hold_expired', {
      holdExpiresAt: r.holdExpiresAt,
    });
    const mail = renterMail(
      ctx,
      row,
      `Hold released for reservation ${r.reservationNumber}`,
      `The bill for slip reservation ${r.reservationNumber} was not paid in time, so the slip is no longer held. Contact the marina to book again.`,
      'slip_reservation.hold_expired',
    );
    try {
      await commit(ctx, [...stmts, mail], {
        audit: { action: 'slip_reservation.hold_expired', targetType: 'slip_reservation', targetId: r.id, customerId: r.customerId },
        events: [reservationEvent('booking.status_changed', row, { previousStatus: 'awaiting_payment' })],
      });
      expired++;
      await ctx.hooks.emit(ctx, 'slip_reservation.ended', { customerId: r.customerId, reservationId: r.id, locationId: r.locationId, status: 'expired' });
    } catch (err) {
      // Paid or changed meanwhile (version race): nothing to expire.
      if (!isReservationRace(err)) ctx.log.error('bill hold expiry failed', { reservationId: r.id, error: String(err) });
    }
  }
  return { expired };
}
