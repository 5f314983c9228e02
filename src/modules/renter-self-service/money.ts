/**
 * The money of the renter's self-service, in ONE place: the tip charge and the refund of a renter's
 * cancellation. Each takes or gives back money through the payment provider and commits, in one
 * D1 batch, its ledger entries, the booking's amounts and its webhook event (`payment.completed` /
 * `payment.refunded`). A charge whose write fails is refunded; a refund whose write fails is
 * audited so the operator hears of it.
 *
 * When the shared payments service (issue 11: `collectPayment` / `refundPayment` in
 * src/modules/payments/service.ts, with `bookingChargeStmts` / `bookingPaymentStmts` of bookings)
 * is on the branch, `chargeTip` and `refundCancellation` route through it: the provider calls
 * below become its requests and `ledgerAndAmounts` its `record` callback.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import { bookings, renters } from '../../db/schema/bookings';
import { bookingTips } from '../../db/schema/renter-self-service';
import { payments, PaymentError } from '../../adapters/payments';
import { insertLedger, memoEntry, scopeOf, type BookingRow } from '../bookings/service';

export interface StoredCard {
  paymentMethodId: string;
  /** The provider's customer the card belongs to (null for a card used once). */
  customer: string | null;
  brand: string;
  last4: string;
}

/** The card to charge after a booking's commit: the renter's default stored card, else the card that paid the booking. */
export async function storedCard(ctx: Ctx, b: BookingRow): Promise<StoredCard | null> {
  const pay = payments(ctx.env);
  if (b.renterId) {
    const r = await ctx.db
      .select({ paymentCustomerId: renters.paymentCustomerId })
      .from(renters)
      .where(and(eq(renters.id, b.renterId), eq(renters.customerId, b.customerId)))
      .get();
    if (r?.paymentCustomerId) {
      const methods = await pay.listPaymentMethods(r.paymentCustomerId).catch(() => []);
      const m = methods.find((x) => x.isDefault) ?? methods[0];
      if (m) return { paymentMethodId: m.id, customer: r.paymentCustomerId, brand: m.brand, last4: m.last4 };
    }
  }
  if (b.paymentIntentId) {
    const pi = await pay.getPaymentIntent(b.paymentIntentId).catch(() => null);
    if (pi?.paymentMethodId) return { paymentMethodId: pi.paymentMethodId, customer: pi.customerId, brand: 'card', last4: '' };
  }
  return null;
}

const paymentFailed = (err: PaymentError) => new ApiError('payment_failed', err.message, { extra: { declineCode: err.code } });

/** Charges a claimed tip on the stored card and records it: ledger `tip` and `payment`, the booking's tip, total and amount paid, `payment.completed`. */
export async function chargeTip(ctx: Ctx, b: BookingRow, tip: { id: string; amount: number }, card: StoredCard, extra: Stmt[] = []) {
  const pay = payments(ctx.env);
  let intent;
  try {
    intent = await pay.createPaymentIntent({
      amount: tip.amount,
      currency: b.currency,
      customerId: card.customer,
      paymentMethodId: card.paymentMethodId,
      captureMethod: 'automatic',
      confirm: true,
      description: `Tip for booking ${b.id}`,
      metadata: { kind: 'tip', rentalId: b.id, transactionId: b.transactionId, customerId: b.customerId },
      idempotencyKey: `tip_${tip.id}`,
    });
    if (intent.status !== 'succeeded') throw new PaymentError('card_declined', 'The tip payment did not complete', intent);
  } catch (err) {
    if (err instanceof PaymentError) throw paymentFailed(err);
    throw err;
  }
  const scope = scopeOf(b);
  const now = new Date().toISOString();
  try {
    await commit(
      ctx,
      [
        ...insertLedger(ctx, [
          memoEntry(scope, { entryType: 'tip', amount: tip.amount, affectsBalance: true, description: 'Tip', source: 'card', reference: intent.id }),
          memoEntry(scope, {
            entryType: 'payment',
            amount: -tip.amount,
            affectsBalance: true,
            description: 'Tip payment',
            source: 'card',
            reference: intent.id,
          }),
        ]),
        ctx.db
          .update(bookings)
          .set({
            tipTotal: sql`${bookings.tipTotal} + ${tip.amount}`,
            total: sql`${bookings.total} + ${tip.amount}`,
            amountPaid: sql`${bookings.amountPaid} + ${tip.amount}`,
            updatedAt: now,
          })
          .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
        ctx.db
          .update(bookingTips)
          .set({ status: 'paid', paymentIntentId: intent.id, updatedAt: now })
          .where(and(eq(bookingTips.id, tip.id), eq(bookingTips.status, 'charging'))),
        ...extra,
      ],
      {
        audit: {
          action: 'booking.tip',
          targetType: 'booking',
          targetId: b.id,
          customerId: b.customerId,
          details: { amount: toDollars(tip.amount), paymentIntentId: intent.id },
        },
        events: [
          {
            type: 'payment.completed',
            customerId: b.customerId,
            data: {
              kind: 'tip',
              method: 'card',
              rentalId: b.id,
              transactionId: b.transactionId,
              renterId: b.renterId,
              paymentIntentId: intent.id,
              amount: toDollars(tip.amount),
              amountCents: tip.amount,
              currency: b.currency,
            },
          },
        ],
      },
    );
  } catch (err) {
    await pay
      .refund(intent.id, undefined, 'not_recorded')
      .catch((e) => ctx.log.error('compensating tip refund failed', { paymentIntentId: intent.id, error: String(e) }));
    throw err;
  }
  return intent;
}

export interface CancellationRefund {
  status: 'succeeded' | 'failed' | 'none';
  amount: number;
  refundId: string | null;
  fee: number;
}

/**
 * After a renter's cancellation (the booking is cancelled with its payment kept): gives back
 * `refundCents` of the card payment and keeps the rest as a cancellation fee, so the renter's
 * balance on the rental ends at zero. Fires `payment.refunded` with the refund.
 */
export async function refundCancellation(ctx: Ctx, b: BookingRow, refundCents: number, feeCents: number, extra: Stmt[] = []): Promise<CancellationRefund> {
  const scope = scopeOf(b);
  let refundId: string | null = null;
  if (refundCents > 0) {
    try {
      if (!b.paymentIntentId) throw new Error('the booking has no card payment to refund');
      refundId = (await payments(ctx.env).refund(b.paymentIntentId, refundCents, 'requested_by_customer')).id;
    } catch (err) {
      ctx.log.error('refund after a renter cancellation failed', { rentalId: b.id, error: String(err) });
      await commit(ctx, extra, {
        audit: {
          action: 'booking.refund_failed',
          targetType: 'booking',
          targetId: b.id,
          customerId: b.customerId,
          details: { amount: toDollars(refundCents), error: err instanceof PaymentError ? err.message : String(err) },
        },
      });
      return { status: 'failed', amount: toDollars(refundCents), refundId: null, fee: 0 };
    }
  }
  const refunded = refundId ? refundCents : 0;
  const entries = [
    ...(refunded
      ? [
          memoEntry(scope, {
            entryType: 'refund',
            amount: refunded,
            affectsBalance: true,
            description: 'Refund (renter cancellation)',
            source: 'card',
            reference: refundId,
          }),
        ]
      : []),
    ...(feeCents > 0
      ? [
          memoEntry(scope, {
            entryType: 'cancellation_fee',
            amount: feeCents,
            affectsBalance: true,
            description: 'Cancellation fee (policy)',
            source: 'policy',
          }),
        ]
      : []),
  ];
  const statements: Stmt[] = [...insertLedger(ctx, entries), ...extra];
  if (refunded)
    statements.push(
      ctx.db
        .update(bookings)
        .set({ amountPaid: sql`max(0, ${bookings.amountPaid} - ${refunded})` })
        .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
    );
  await commit(ctx, statements, {
    audit: {
      action: 'booking.renter_cancellation_settled',
      targetType: 'booking',
      targetId: b.id,
      customerId: b.customerId,
      details: { refund: toDollars(refunded), fee: toDollars(feeCents), refundId },
    },
    events: refunded
      ? [
          {
            type: 'payment.refunded',
            customerId: b.customerId,
            data: {
              kind: 'renter_cancellation',
              method: 'card',
              rentalId: b.id,
              transactionId: b.transactionId,
              renterId: b.renterId,
              paymentIntentId: b.paymentIntentId,
              refundId,
              amount: toDollars(refunded),
              amountCents: refunded,
              currency: b.currency,
            },
          },
        ]
      : [],
  });
  return { status: refunded ? 'succeeded' : 'none', amount: toDollars(refunded), refundId, fee: toDollars(feeCents) };
}
