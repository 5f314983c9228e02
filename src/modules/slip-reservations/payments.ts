/**
 * The building blocks of slip money that every path shares (charging.ts for payments on existing
 * reservations, create.ts for a payment collected while a new reservation is written): the
 * provider call for a card, the statements that record a collected payment, the automatic refund
 * when the write after a charge fails, and the mapping of provider refusals to API errors.
 * Together with charging.ts this is the one place where slip money moves.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { slipPayments, slipReservations } from '../../db/schema/slip-reservations';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { paymentLedger } from './ledger';
import type { PaymentRow, ReservationRow } from './views';

export type PaymentMethodKind = PaymentRow['method'];

/** Money received (or confirmed by the provider) and not yet written. */
export interface CollectedPayment {
  method: PaymentMethodKind;
  amountCents: number;
  paymentIntentId?: string | null;
  reference?: string | null;
  note?: string | null;
  card?: { brand: string | null; last4: string | null } | null;
}

export function paymentFailure(err: unknown): never {
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

export function paymentEvent(r: ReservationRow, p: PaymentRow): DomainEvent {
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

/** The payment row, the increment of the amount paid, the ledger entry and the `payment.completed` event of a collected payment. */
export function paymentWrite(ctx: Ctx, r: ReservationRow, c: CollectedPayment): { payment: PaymentRow; stmts: Stmt[]; events: DomainEvent[] } {
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
  return {
    payment: p,
    stmts: [
      ctx.db.insert(slipPayments).values(p),
      ctx.db
        .update(slipReservations)
        .set({ amountPaidCents: sql`${slipReservations.amountPaidCents} + ${c.amountCents}` })
        .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
      ...paymentLedger(ctx, r, c.amountCents, c.method, c.paymentIntentId ?? c.reference ?? null),
    ],
    events: [paymentEvent(r, p)],
  };
}

/** Gives a provider charge back when the write that should record it failed (never throws; a failure is logged). */
export async function refundCollected(ctx: Ctx, c: CollectedPayment, reason: string): Promise<void> {
  if (!c.paymentIntentId || (c.method !== 'card' && c.method !== 'terminal')) return;
  await payments(ctx.env)
    .refund(c.paymentIntentId, c.amountCents, reason)
    .catch((e) => ctx.log.error('automatic refund failed', { paymentIntentId: c.paymentIntentId, error: String(e) }));
}

/**
 * Charges a card now through the payments adapter (a saved card of the renter's provider customer,
 * or a payment method the client just created). A refusal answers 402 `payment_failed`.
 */
export async function chargeCardNow(
  ctx: Ctx,
  input: {
    amountCents: number;
    currency: string;
    paymentMethodId: string;
    paymentCustomerId?: string | null;
    description: string;
    metadata: Record<string, string>;
  },
): Promise<CollectedPayment> {
  const pay = payments(ctx.env);
  let intent: PaymentIntent;
  try {
    intent = await pay.createPaymentIntent({
      amount: input.amountCents,
      currency: input.currency,
      customerId: input.paymentCustomerId ?? null,
      paymentMethodId: input.paymentMethodId,
      confirm: true,
      description: input.description,
      metadata: input.metadata,
    });
  } catch (err) {
    paymentFailure(err);
  }
  if (intent.status !== 'succeeded') throw new ApiError('payment_failed', `The payment is ${intent.status}`, { extra: { paymentIntentId: intent.id } });
  let card: CollectedPayment['card'] = null;
  if (input.paymentCustomerId && intent.paymentMethodId) {
    const m = (await pay.listPaymentMethods(input.paymentCustomerId).catch(() => [])).find((x) => x.id === intent.paymentMethodId);
    card = m ? { brand: m.brand, last4: m.last4 } : null;
  }
  return { method: 'card', amountCents: input.amountCents, paymentIntentId: intent.id, card };
}
