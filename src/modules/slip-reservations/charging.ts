/**
 * Money of slip reservations, through the shared payments service (`collectPayment` and
 * `refundPayment` of the payments module, which commit `payment.completed` / `payment.refunded` in
 * the write's batch): recorded payments (cash, check, transfer, outside card), saved-card charges,
 * card-reader (terminal, tap to pay) charges, the renter's card form (intents), and refunds.
 *
 * Amounts move with single SQL increments (never read-modify-write). A payment that completes the
 * deposit (or the total) of a reservation awaiting payment confirms it: that state change is the
 * reservation's compare-and-swap, and when the bill hold had lapsed the unit is re-taken through
 * its lock before the card is charged. If the write fails after the provider charged, the service
 * refunds the charge at once. Refunds first claim the amount on the payment row with a conditional
 * UPDATE (amount - refunded >= claim), so two racing refunds can never give back more than was paid.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { requirePermission } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { slipPayments, slipReservations } from '../../db/schema/slip-reservations';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { refundPayment as refundMoney, type CommitMoney, type Refunded } from '../payments/service';
import { getRenterInTenant } from '../renters/service';
import { SIMULATED_READERS } from '../deposits/service';
import { changeWithLedger, reservationEvent, underSlipLock } from './create';
import { isReservationRace, raceError } from './changes';
import { reservationErrors } from './errors';
import { refundLedger } from './ledger';
import { intentMeta, paymentFailure, takeSlipPayment, type PaymentMethodKind, type SlipCharge, type SlipPaymentWrite } from './payments';
import { getReservationRow, reservationView } from './queries';
import { isBlocking } from './types';
import { paymentOut, type PaymentRow, type ReservationRow } from './views';
import { netPaidOf, reservationMoney } from './money';
import type { Money } from '../../lib/money-view';

type Method = PaymentMethodKind;

const confirmsWith = (r: ReservationRow, money: Money, amount: number) =>
  (r.status === 'awaiting_payment' || r.status === 'expired') && netPaidOf(money) + amount >= (r.depositCents > 0 ? r.depositCents : r.totalCents);

/** A payment never exceeds the balance (the reservation's money view). */
function aboveBalance(money: Money, amount: number, field = 'amountCents') {
  if (amount > money.balance)
    throw new ApiError('bad_request', `The amount is above the balance of ${money.balance} cents`, { details: [{ field, message: 'above the balance' }] });
}

const amountOf = (c: SlipCharge) => (c.kind === 'captured' ? c.intent.amountReceived || c.intent.amount : c.amountCents);

/**
 * Checks the amount, takes the unit again when the payment confirms a lapsed hold, and takes the
 * payment through the payments service with its write (the payment and, when it completes the
 * deposit or the total of a reservation awaiting payment, the confirmation) in one batch.
 */
async function collect(ctx: Ctx, r: ReservationRow, charge: SlipCharge, onRecorded?: (commitMoney: CommitMoney) => Promise<PaymentResult | null>) {
  const amount = amountOf(charge);
  if (r.status === 'cancelled') throw new ApiError('invalid_state', 'A cancelled reservation takes no payments');
  const money = await reservationMoney(ctx, r);
  aboveBalance(money, amount);
  const confirms = confirmsWith(r, money, amount);
  const run = () =>
    takeSlipPayment(ctx, r, charge, async (w, commitMoney) => {
      try {
        return await writePayment(ctx, r, w, confirms, commitMoney);
      } catch (err) {
        const again = onRecorded && isIntentRecorded(err) ? await onRecorded(commitMoney) : null;
        if (again) return again;
        throw err;
      }
    });
  if (confirms && !isBlocking(r, ctx.clock.now()))
    return await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, run);
  try {
    return await run();
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

type PaymentResult = Awaited<ReturnType<typeof writePayment>>;

async function writePayment(ctx: Ctx, r: ReservationRow, w: SlipPaymentWrite, confirms: boolean, commitMoney: CommitMoney) {
  const p = w.payment;
  const stmts = [...w.stmts];
  const events = [];
  if (confirms) {
    const change = changeWithLedger(ctx, r, { status: 'confirmed', confirmedAt: nowIso(ctx), holdExpiresAt: null }, 'confirm_by_payment', {
      paymentId: p.id,
    });
    stmts.push(...change.stmts);
    events.push(reservationEvent('booking.status_changed', change.row, { previousStatus: r.status }));
  }
  await commitMoney(stmts, {
    audit: {
      action: 'slip_reservation.payment',
      targetType: 'slip_reservation',
      targetId: r.id,
      details: { paymentId: p.id, method: p.method, amountCents: p.amountCents, paymentIntentId: p.paymentIntentId, confirmed: confirms },
    },
    events,
  });
  return { status: 'succeeded' as const, payment: paymentOut(p), reservation: await reservationView(ctx, await getReservationRow(ctx, r.id)) };
}

export async function recordPayment(ctx: Ctx, id: string, input: { amountCents: number; method: Method; reference?: string; note?: string }) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
  return await collect(ctx, r, { kind: 'offline', method: input.method, amountCents: input.amountCents, reference: input.reference, note: input.note });
}

const meta = intentMeta;

export async function chargeCard(ctx: Ctx, id: string, input: { amountCents?: number; paymentMethodId?: string }) {
  requirePermission(ctx, 'payments');
  return await chargeCardOf(ctx, await getReservationRow(ctx, id), input);
}

/**
 * Charges a card for a reservation (the renter's default saved card unless `paymentMethodId` is
 * given) through the payments service. No permission check: staff routes check `payments`, the
 * tenant portal checks the session owns the reservation.
 */
export async function chargeCardOf(ctx: Ctx, r: ReservationRow, input: { amountCents?: number; paymentMethodId?: string; idempotencyKey?: string }) {
  const amount = input.amountCents ?? (await reservationMoney(ctx, r)).balance;
  if (amount <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  const renter = await getRenterInTenant(ctx, r.renterId);
  const pay = payments(ctx);
  let pm = input.paymentMethodId;
  if (!pm) {
    const saved = renter.paymentCustomerId ? await pay.listPaymentMethods(renter.paymentCustomerId).catch(() => []) : [];
    pm = (saved.find((m) => m.isDefault) ?? saved[0])?.id;
    if (!pm) throw new ApiError('invalid_payment_method', 'The renter has no saved card: give paymentMethodId');
  }
  return await collect(ctx, r, {
    kind: 'card',
    amountCents: amount,
    paymentMethodId: pm,
    paymentCustomerId: renter.paymentCustomerId,
    idempotencyKey: input.idempotencyKey,
  });
}

export async function terminalCharge(ctx: Ctx, id: string, input: { amountCents?: number; readerId?: string; paymentIntentId?: string }) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
  const pay = payments(ctx);
  if (input.paymentIntentId) {
    const existing = await ctx.db
      .select()
      .from(slipPayments)
      .where(and(eq(slipPayments.customerId, r.customerId), eq(slipPayments.paymentIntentId, input.paymentIntentId)))
      .get();
    if (existing) {
      if (existing.reservationId !== r.id) throw new ApiError('bad_request', 'That payment was recorded on another reservation');
      return { status: 'succeeded' as const, payment: paymentOut(existing), reservation: await reservationView(ctx, r) };
    }
    let intent = await pay.getPaymentIntent(input.paymentIntentId);
    if (!intent) throw notFound('Payment intent');
    if (intent.metadata?.slipReservationId && intent.metadata.slipReservationId !== r.id)
      throw new ApiError('bad_request', 'The payment was made for another reservation');
    if (intent.status === 'requires_capture') intent = await pay.capturePaymentIntent(intent.id).catch(paymentFailure);
    if (intent.status !== 'succeeded')
      throw new ApiError('bad_request', `The card-present payment is ${intent.status}, not succeeded`, { extra: { providerStatus: intent.status } });
    const done = intent;
    return await collect(ctx, r, { kind: 'captured', method: 'terminal', intent: done });
  }
  const money = await reservationMoney(ctx, r);
  const amount = input.amountCents ?? money.balance;
  if (amount <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  if (!input.readerId)
    throw new ApiError('validation_failed', 'readerId is required to start a reader payment', {
      details: [{ field: 'readerId', code: 'required', message: 'readerId is required' }],
    });
  const simulated = pay.mode === 'simulator';
  if (simulated && !(input.readerId in SIMULATED_READERS))
    throw new ApiError(
      'bad_request',
      `Unknown card reader "${input.readerId}". The payment simulator has the readers ${Object.keys(SIMULATED_READERS).join(', ')}`,
    );
  const card = simulated ? SIMULATED_READERS[input.readerId] : undefined;
  if (!simulated || card === null) {
    // A real reader (or an idle simulated one) collects the card through the terminal SDK; the caller then records the intent.
    aboveBalance(money, amount);
    const intent = await pay
      .createPaymentIntent({
        amount,
        currency: r.currency,
        confirm: false,
        paymentMethodTypes: ['card_present'],
        description: `Slip reservation ${r.reservationNumber}`,
        metadata: { ...meta(r), readerId: input.readerId },
      })
      .catch(paymentFailure);
    return {
      status: 'pending' as const,
      payment: null,
      reservation: await reservationView(ctx, r),
      paymentIntentId: intent.id,
      clientSecret: intent.clientSecret,
      nextStep: `Process the payment on reader ${input.readerId}, then record it with POST /slip-reservations/${r.id}/terminal-charge {"paymentIntentId": "${intent.id}"}`,
    };
  }
  return await collect(ctx, r, { kind: 'card', method: 'terminal', readerId: input.readerId, amountCents: amount, paymentMethodId: card! });
}

const isIntentRecorded = (err: unknown) =>
  /UNIQUE constraint failed: slip_payments\.payment_intent_id/.test(`${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`);

/**
 * A card payment intent for the renter's own card form (the tenant portal's card elements): the
 * client confirms it with the provider, then it is recorded with `recordCardIntent`. Nothing is
 * written here.
 */
export async function createCardIntent(ctx: Ctx, id: string, input: { amountCents?: number }) {
  requirePermission(ctx, 'payments');
  return await cardIntentOf(ctx, await getReservationRow(ctx, id), input);
}

/** The card intent of `createCardIntent` without the permission check (the tenant portal checks ownership). */
export async function cardIntentOf(ctx: Ctx, r: ReservationRow, input: { amountCents?: number }) {
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `A ${r.status} reservation takes no payments`);
  const money = await reservationMoney(ctx, r);
  const amount = input.amountCents ?? money.balance;
  if (amount <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  aboveBalance(money, amount);
  const renter = await getRenterInTenant(ctx, r.renterId);
  const intent = await payments(ctx)
    .createPaymentIntent({
      amount,
      currency: r.currency,
      customerId: renter.paymentCustomerId,
      confirm: false,
      paymentMethodTypes: ['card'],
      description: `Slip reservation ${r.reservationNumber}`,
      metadata: meta(r),
    })
    .catch(paymentFailure);
  return { paymentIntentId: intent.id, clientSecret: intent.clientSecret, amountCents: amount, currency: r.currency, status: intent.status };
}

/**
 * Records a card payment intent made for this reservation (confirmed by the client, or confirmed
 * here with `paymentMethodId`): once per intent, whoever records it twice gets the same payment.
 */
export async function recordCardIntent(ctx: Ctx, id: string, input: { paymentIntentId: string; paymentMethodId?: string }) {
  requirePermission(ctx, 'payments');
  return await recordCardIntentOf(ctx, await getReservationRow(ctx, id), input);
}

/** `recordCardIntent` without the permission check (the tenant portal checks ownership). */
export async function recordCardIntentOf(ctx: Ctx, r: ReservationRow, input: { paymentIntentId: string; paymentMethodId?: string }) {
  const pay = payments(ctx);
  const recorded = async () => {
    const existing = await ctx.db
      .select()
      .from(slipPayments)
      .where(and(eq(slipPayments.customerId, r.customerId), eq(slipPayments.paymentIntentId, input.paymentIntentId)))
      .get();
    if (!existing) return null;
    if (existing.reservationId !== r.id) throw new ApiError('bad_request', 'That payment was recorded on another reservation');
    return { status: 'succeeded' as const, payment: paymentOut(existing), reservation: await reservationView(ctx, await getReservationRow(ctx, r.id)) };
  };
  const already = await recorded();
  if (already) return already;
  let intent: PaymentIntent | null = await pay.getPaymentIntent(input.paymentIntentId);
  if (!intent || intent.metadata?.slipReservationId !== r.id || intent.metadata?.berthCustomerId !== r.customerId) throw notFound('Payment intent');
  if (input.paymentMethodId && (intent.status === 'requires_payment_method' || intent.status === 'requires_confirmation'))
    intent = await pay.confirmPaymentIntent(intent.id, input.paymentMethodId).catch(paymentFailure);
  if (intent.status === 'requires_capture') intent = await pay.capturePaymentIntent(intent.id).catch(paymentFailure);
  if (intent.status !== 'succeeded')
    throw new ApiError('payment_failed', `The payment is ${intent.status}, not succeeded`, {
      extra: { paymentIntentId: intent.id, providerStatus: intent.status, clientSecret: intent.clientSecret },
    });
  // Recorded once per intent: a second request recording it at the same time gets the first one's payment.
  return await collect(ctx, r, { kind: 'captured', method: 'card', intent }, async (commitMoney) => {
    const again = await recorded();
    if (again) commitMoney.alreadyRecorded();
    return again;
  });
}

type RefundInput = { paymentId?: string; amountCents?: number; reason?: string };

/** A refund of one payment of a reservation: the amount (cents) claimed on it, and whether it goes back at the provider. */
interface SlipRefund {
  r: ReservationRow;
  p: PaymentRow;
  amount: number;
  reason?: string;
  provider: boolean;
}

/** Refunds (part of) a payment of the reservation: claims the amount on the payment, gives the money back and records the refund. */
export async function refundPayment(ctx: Ctx, id: string, input: RefundInput) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
  const { p, amount } = await refundablePayment(ctx, r, input);
  await claimRefund(ctx, { r, p, amount });
  const refund = await sendSlipRefund(ctx, {
    r,
    p,
    amount,
    reason: input.reason,
    provider: !!p.paymentIntentId && (p.method === 'card' || p.method === 'terminal'),
  });
  return {
    refund: paymentOut(refund),
    payment: paymentOut({ ...p, refundedCents: p.refundedCents + amount }),
    reservation: await reservationView(ctx, await getReservationRow(ctx, r.id)),
  };
}

/** The payment to refund (the one named, else the latest with money left) and the amount: what is asked, at most what is left on it. */
async function refundablePayment(ctx: Ctx, r: ReservationRow, input: RefundInput): Promise<{ p: PaymentRow; amount: number }> {
  const list = await ctx.db
    .select()
    .from(slipPayments)
    .where(and(eq(slipPayments.customerId, r.customerId), eq(slipPayments.reservationId, r.id), eq(slipPayments.kind, 'payment')))
    .orderBy(desc(slipPayments.createdAt))
    .all();
  const p = input.paymentId ? list.find((x) => x.id === input.paymentId) : list.find((x) => x.amountCents > x.refundedCents);
  if (!p) throw input.paymentId ? notFound('Payment') : reservationErrors.fail('refund_exceeds_paid', 'Nothing paid is left to refund');
  const left = p.amountCents - p.refundedCents;
  const amount = input.amountCents ?? left;
  if (amount <= 0 || amount > left)
    throw reservationErrors.fail('refund_exceeds_paid', `At most ${left} cents of this payment can be refunded`, { extra: { refundableCents: left } });
  return { p, amount };
}

/** Claims the amount on the payment first: one conditional statement, so racing refunds never exceed the payment. */
async function claimRefund(ctx: Ctx, { r, p, amount }: { r: ReservationRow; p: PaymentRow; amount: number }): Promise<void> {
  const claim = await ctx.db
    .update(slipPayments)
    .set({ refundedCents: sql`${slipPayments.refundedCents} + ${amount}` })
    .where(
      and(eq(slipPayments.id, p.id), eq(slipPayments.customerId, r.customerId), sql`${slipPayments.amountCents} - ${slipPayments.refundedCents} >= ${amount}`),
    )
    .run();
  if (!Number((claim as { meta?: { changes?: number } }).meta?.changes ?? 0))
    throw reservationErrors.fail('refund_exceeds_paid', 'The payment was refunded meanwhile; nothing more can be refunded');
}

/** Frees a claimed amount on the payment again. */
function unclaimRefund(ctx: Ctx, p: PaymentRow, amount: number) {
  return ctx.db
    .update(slipPayments)
    .set({ refundedCents: sql`${slipPayments.refundedCents} - ${amount}` })
    .where(eq(slipPayments.id, p.id))
    .run();
}

/**
 * Gives the money back through the payments service (the provider refund for card payments, and
 * `payment.refunded` in the refund's batch) and records the refund row; answers that row.
 */
async function sendSlipRefund(ctx: Ctx, refund: SlipRefund): Promise<PaymentRow> {
  const { r, p, amount, reason, provider } = refund;
  const data = {
    reservationId: r.id,
    reservationNumber: r.reservationNumber,
    locationId: r.locationId,
    renterId: r.renterId,
    paymentId: p.id,
    reason: reason ?? null,
  };
  try {
    return await refundMoney(
      ctx,
      provider
        ? { mode: 'provider', customerId: r.customerId, kind: 'slip_refund', data, paymentIntentId: p.paymentIntentId!, amount, currency: r.currency, reason }
        : {
            mode: 'offline',
            customerId: r.customerId,
            kind: 'slip_refund',
            data: { ...data, method: p.method },
            method: 'other',
            amount,
            currency: r.currency,
          },
      (done, commitMoney) => recordSlipRefund(ctx, refund, done, commitMoney),
    );
  } catch (err) {
    // Nothing went back at the provider (it refused): the claimed amount is free again. A refund made
    // at the provider whose write failed keeps its claim (the money is gone; the service reported it).
    if (!provider || err instanceof PaymentError) await unclaimRefund(ctx, p, amount);
    paymentFailure(err);
  }
}

/** The refund's batch: a `refund` payment row linked to the payment, the reservation's refunded amount, and the refund's ledger lines. */
async function recordSlipRefund(ctx: Ctx, { r, p, amount, reason }: SlipRefund, done: Refunded, commitMoney: CommitMoney): Promise<PaymentRow> {
  const row: PaymentRow = {
    ...p,
    id: newId('spay'),
    kind: 'refund',
    amountCents: amount,
    refundedCents: 0,
    providerRefundId: done.refundId,
    paymentId: p.id,
    note: reason ?? null,
    recordedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    paymentIntentId: null,
    createdAt: nowIso(ctx),
  };
  await commitMoney(
    [
      ctx.db.insert(slipPayments).values(row),
      ctx.db
        .update(slipReservations)
        .set({ amountRefundedCents: sql`${slipReservations.amountRefundedCents} + ${amount}` })
        .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
      ...refundLedger(ctx, r, amount, done.refundId ?? p.paymentIntentId ?? p.reference),
    ],
    {
      audit: {
        action: 'slip_reservation.refund',
        targetType: 'slip_reservation',
        targetId: r.id,
        details: { paymentId: p.id, refundId: row.id, amountCents: amount, providerRefundId: done.refundId },
      },
    },
  );
  return row;
}

export async function paymentHistory(ctx: Ctx, id: string) {
  const r = await getReservationRow(ctx, id);
  const [rows, money] = await Promise.all([
    ctx.db
      .select()
      .from(slipPayments)
      .where(and(eq(slipPayments.customerId, r.customerId), eq(slipPayments.reservationId, r.id)))
      .orderBy(desc(slipPayments.createdAt))
      .all(),
    reservationMoney(ctx, r),
  ]);
  return { data: rows.map(paymentOut), total: rows.length, paidCents: money.paid, refundedCents: money.refunded, netCents: netPaidOf(money) };
}
