/**
 * Money of slip reservations, in one place so it can be routed through a shared payments service:
 * recorded payments (cash, check, transfer, outside card), saved-card charges and card-reader
 * (terminal, tap to pay) charges through the payments adapter, and refunds.
 *
 * Amounts move with single SQL increments (never read-modify-write). A payment that completes the
 * deposit (or the total) of a reservation awaiting payment confirms it: that state change is the
 * reservation's compare-and-swap, and when the bill hold had lapsed the unit is re-taken through
 * its lock before the card is charged. If the write fails after the provider charged, the charge
 * is refunded at once. Refunds first claim the amount on the payment row with a conditional
 * UPDATE (amount - refunded >= claim), so two racing refunds can never give back more than was paid.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { slipPayments, slipReservations } from '../../db/schema/slip-reservations';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { getRenterInTenant } from '../renters/service';
import { SIMULATED_READERS } from '../deposits/service';
import { changeWithLedger, reservationEvent, underSlipLock } from './create';
import { isReservationRace, raceError } from './changes';
import { reservationErrors } from './errors';
import { paymentLedger, refundLedger } from './ledger';
import { getReservationRow, reservationView } from './queries';
import { isBlocking } from './types';
import { balanceOf, netPaid, paymentOut, type PaymentRow, type ReservationRow } from './views';

type Method = PaymentRow['method'];

interface Collected {
  method: Method;
  amountCents: number;
  paymentIntentId?: string | null;
  reference?: string | null;
  note?: string | null;
  card?: { brand: string | null; last4: string | null } | null;
}

function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required')
      throw new ApiError(
        'payment_failed',
        err.code === 'card_declined' ? 'The card was declined; nothing was recorded' : 'The card needs authentication (3-D Secure)',
        {
          extra: {
            declineCode: err.code,
            paymentIntentId: err.intent?.id ?? null,
            ...(err.code === 'authentication_required' ? { clientSecret: err.intent?.clientSecret ?? null } : {}),
          },
        },
      );
    throw new ApiError(err.code === 'invalid_payment_method' ? 'invalid_payment_method' : 'payment_provider_error', err.message);
  }
  throw err;
}

const confirmsWith = (r: ReservationRow, amount: number) =>
  (r.status === 'awaiting_payment' || r.status === 'expired') && netPaid(r) + amount >= (r.depositCents > 0 ? r.depositCents : r.totalCents);

function paymentEvent(r: ReservationRow, p: PaymentRow): DomainEvent {
  return {
    type: 'payment.completed',
    customerId: r.customerId,
    data: {
      kind: 'slip_payment',
      reservationId: r.id,
      reservationNumber: r.reservationNumber,
      locationId: r.locationId,
      renterId: r.renterId,
      paymentId: p.id,
      paymentIntentId: p.paymentIntentId,
      method: p.method,
      amount: toDollars(p.amountCents),
      amountCents: p.amountCents,
      currency: p.currency,
    },
  };
}

/**
 * Checks the amount, takes the unit again when the payment confirms a lapsed hold, runs `charge`
 * (the provider call, if any) and writes the payment in one batch.
 */
async function collect(ctx: Ctx, r: ReservationRow, amount: number, charge: () => Promise<Collected>) {
  if (r.status === 'cancelled') throw new ApiError('invalid_state', 'A cancelled reservation takes no payments');
  if (amount > balanceOf(r))
    throw new ApiError('bad_request', `The amount is above the balance of ${balanceOf(r)} cents`, {
      details: [{ field: 'amountCents', message: 'above the balance' }],
    });
  const confirms = confirmsWith(r, amount);
  const run = async () => {
    const c = await charge();
    try {
      return await writePayment(ctx, r, c, confirms);
    } catch (err) {
      if (c.paymentIntentId && (c.method === 'card' || c.method === 'terminal'))
        await payments(ctx.env)
          .refund(c.paymentIntentId, c.amountCents, 'reservation write failed')
          .catch((e) => ctx.log.error('automatic refund failed', { paymentIntentId: c.paymentIntentId, error: String(e) }));
      throw err;
    }
  };
  if (confirms && !isBlocking(r, Date.now()))
    return await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, run);
  try {
    return await run();
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

async function writePayment(ctx: Ctx, r: ReservationRow, c: Collected, confirms: boolean) {
  const p: PaymentRow = {
    id: newId('spay'),
    customerId: r.customerId,
    reservationId: r.id,
    kind: 'payment',
    method: c.method,
    amountCents: c.amountCents,
    refundedCents: 0,
    currency: r.currency,
    paymentIntentId: c.paymentIntentId ?? null,
    providerRefundId: null,
    paymentId: null,
    reference: c.reference ?? null,
    note: c.note ?? null,
    cardBrand: c.card?.brand ?? null,
    cardLast4: c.card?.last4 ?? null,
    recordedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    createdAt: new Date().toISOString(),
  };
  const stmts: Stmt[] = [
    ctx.db.insert(slipPayments).values(p),
    ctx.db
      .update(slipReservations)
      .set({ amountPaidCents: sql`${slipReservations.amountPaidCents} + ${c.amountCents}` })
      .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
    ...paymentLedger(ctx, r, c.amountCents, c.method, c.paymentIntentId ?? c.reference ?? null),
  ];
  const events: DomainEvent[] = [paymentEvent(r, p)];
  if (confirms) {
    const change = changeWithLedger(ctx, r, { status: 'confirmed', confirmedAt: new Date().toISOString(), holdExpiresAt: null }, 'confirm_by_payment', {
      paymentId: p.id,
    });
    stmts.push(...change.stmts);
    events.push(reservationEvent('booking.status_changed', change.row, { previousStatus: r.status }));
  }
  await commit(ctx, stmts, {
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
  return await collect(ctx, r, input.amountCents, async () => ({
    method: input.method,
    amountCents: input.amountCents,
    reference: input.reference,
    note: input.note,
  }));
}

const meta = (r: ReservationRow) => ({ slipReservationId: r.id, reservationNumber: r.reservationNumber, berthCustomerId: r.customerId });

export async function chargeCard(ctx: Ctx, id: string, input: { amountCents?: number; paymentMethodId?: string }) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
  const amount = input.amountCents ?? balanceOf(r);
  if (amount <= 0) throw reservationErrors.fail('nothing_to_bill', 'The reservation owes nothing');
  const renter = await getRenterInTenant(ctx, r.renterId);
  const pay = payments(ctx.env);
  let pm = input.paymentMethodId;
  if (!pm) {
    const saved = renter.paymentCustomerId ? await pay.listPaymentMethods(renter.paymentCustomerId).catch(() => []) : [];
    pm = (saved.find((m) => m.isDefault) ?? saved[0])?.id;
    if (!pm) throw new ApiError('invalid_payment_method', 'The renter has no saved card: give paymentMethodId');
  }
  return await collect(ctx, r, amount, async () => {
    let intent: PaymentIntent;
    try {
      intent = await pay.createPaymentIntent({
        amount,
        currency: r.currency,
        customerId: renter.paymentCustomerId,
        paymentMethodId: pm,
        confirm: true,
        description: `Slip reservation ${r.reservationNumber}`,
        metadata: meta(r),
      });
    } catch (err) {
      paymentFailure(err);
    }
    if (intent.status !== 'succeeded') throw new ApiError('payment_failed', `The payment is ${intent.status}`, { extra: { paymentIntentId: intent.id } });
    const card = intent.paymentMethodId ? await cardOf(ctx, renter.paymentCustomerId, intent.paymentMethodId) : null;
    return { method: 'card', amountCents: amount, paymentIntentId: intent.id, card };
  });
}

async function cardOf(ctx: Ctx, paymentCustomerId: string | null, pmId: string) {
  if (!paymentCustomerId) return null;
  const list = await payments(ctx.env)
    .listPaymentMethods(paymentCustomerId)
    .catch(() => []);
  const m = list.find((x) => x.id === pmId);
  return m ? { brand: m.brand, last4: m.last4 } : null;
}

export async function terminalCharge(ctx: Ctx, id: string, input: { amountCents?: number; readerId?: string; paymentIntentId?: string }) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
  const pay = payments(ctx.env);
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
    return await collect(ctx, r, done.amountReceived, async () => ({ method: 'terminal', amountCents: done.amountReceived, paymentIntentId: done.id }));
  }
  const amount = input.amountCents ?? balanceOf(r);
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
    if (amount > balanceOf(r)) throw new ApiError('bad_request', `The amount is above the balance of ${balanceOf(r)} cents`);
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
  return await collect(ctx, r, amount, async () => {
    let intent: PaymentIntent;
    try {
      intent = await pay.createPaymentIntent({
        amount,
        currency: r.currency,
        confirm: false,
        paymentMethodTypes: ['card_present'],
        description: `Slip reservation ${r.reservationNumber}`,
        metadata: { ...meta(r), readerId: input.readerId! },
      });
      intent = await pay.confirmPaymentIntent(intent.id, card);
    } catch (err) {
      paymentFailure(err);
    }
    return { method: 'terminal', amountCents: amount, paymentIntentId: intent.id };
  });
}

export async function refundPayment(ctx: Ctx, id: string, input: { paymentId?: string; amountCents?: number; reason?: string }) {
  requirePermission(ctx, 'payments');
  const r = await getReservationRow(ctx, id);
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
  // Claim first: one conditional statement, so racing refunds never exceed the payment.
  const claim = await ctx.db
    .update(slipPayments)
    .set({ refundedCents: sql`${slipPayments.refundedCents} + ${amount}` })
    .where(
      and(eq(slipPayments.id, p.id), eq(slipPayments.customerId, r.customerId), sql`${slipPayments.amountCents} - ${slipPayments.refundedCents} >= ${amount}`),
    )
    .run();
  if (!Number((claim as { meta?: { changes?: number } }).meta?.changes ?? 0))
    throw reservationErrors.fail('refund_exceeds_paid', 'The payment was refunded meanwhile; nothing more can be refunded');
  let providerRefundId: string | null = null;
  if (p.paymentIntentId && (p.method === 'card' || p.method === 'terminal')) {
    try {
      providerRefundId = (await payments(ctx.env).refund(p.paymentIntentId, amount, input.reason)).id;
    } catch (err) {
      await ctx.db
        .update(slipPayments)
        .set({ refundedCents: sql`${slipPayments.refundedCents} - ${amount}` })
        .where(eq(slipPayments.id, p.id));
      paymentFailure(err);
    }
  }
  const refund: PaymentRow = {
    ...p,
    id: newId('spay'),
    kind: 'refund',
    amountCents: amount,
    refundedCents: 0,
    providerRefundId,
    paymentId: p.id,
    note: input.reason ?? null,
    recordedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    paymentIntentId: null,
    createdAt: new Date().toISOString(),
  };
  await commit(
    ctx,
    [
      ctx.db.insert(slipPayments).values(refund),
      ctx.db
        .update(slipReservations)
        .set({ amountRefundedCents: sql`${slipReservations.amountRefundedCents} + ${amount}` })
        .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
      ...refundLedger(ctx, r, amount, providerRefundId ?? p.paymentIntentId ?? p.reference),
    ],
    {
      audit: {
        action: 'slip_reservation.refund',
        targetType: 'slip_reservation',
        targetId: r.id,
        details: { paymentId: p.id, amountCents: amount, providerRefundId },
      },
      events: [
        {
          type: 'payment.refunded',
          customerId: r.customerId,
          data: {
            kind: 'slip_refund',
            reservationId: r.id,
            reservationNumber: r.reservationNumber,
            locationId: r.locationId,
            renterId: r.renterId,
            paymentId: p.id,
            refundId: refund.id,
            providerRefundId,
            paymentIntentId: p.paymentIntentId,
            amount: toDollars(amount),
            amountCents: amount,
            currency: r.currency,
            reason: input.reason ?? null,
          },
        },
      ],
    },
  );
  return {
    refund: paymentOut(refund),
    payment: paymentOut({ ...p, refundedCents: p.refundedCents + amount }),
    reservation: await reservationView(ctx, await getReservationRow(ctx, r.id)),
  };
}

export async function paymentHistory(ctx: Ctx, id: string) {
  const r = await getReservationRow(ctx, id);
  const rows = await ctx.db
    .select()
    .from(slipPayments)
    .where(and(eq(slipPayments.customerId, r.customerId), eq(slipPayments.reservationId, r.id)))
    .orderBy(desc(slipPayments.createdAt))
    .all();
  return { data: rows.map(paymentOut), total: rows.length, paidCents: r.amountPaidCents, refundedCents: r.amountRefundedCents, netCents: netPaid(r) };
}
