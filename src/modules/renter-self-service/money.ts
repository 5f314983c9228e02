/**
 * The money of the renter's self-service, in ONE place: the tip charge and the refund of a renter's
 * cancellation. Each takes or gives back money through the payment provider and commits, in one
 * D1 batch, its ledger entries, the booking's amounts and its webhook event (`payment.completed` /
 * `payment.refunded`).
 * Both go through the shared payments service (collectPayment / refundPayment), which puts the
 * payment event in the batch of the ledger write.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import { renters } from '../../db/schema/bookings';
import { bookingTips } from '../../db/schema/renter-self-service';
import { payments, PaymentError } from '../../adapters/payments';
import { bookingTipPaidStmt, insertLedger, keptStmts, memoEntry, payBack, scopeOf, type BookingRow, type RefundPlan } from '../bookings/service';
import { collectPayment } from '../payments/service';
import { renterDefaultCard } from '../renters/service';
import { nowIso } from '../../lib/clock';

export interface StoredCard {
  paymentMethodId: string;
  /** The provider's customer the card belongs to (null for a card used once). */
  customer: string | null;
  brand: string;
  last4: string;
}

/** The card to charge after a booking's commit: the renter's default stored card, else the card that paid the booking. */
export async function storedCard(ctx: Ctx, b: BookingRow): Promise<StoredCard | null> {
  const pay = payments(ctx);
  if (b.renterId) {
    const r = await ctx.db
      .select({ paymentCustomerId: renters.paymentCustomerId })
      .from(renters)
      .where(and(eq(renters.id, b.renterId), eq(renters.customerId, b.customerId)))
      .get();
    // The provider unreachable: the booking's own card below.
    const m = r ? await renterDefaultCard(ctx, r).catch(() => null) : null;
    if (m) return { paymentMethodId: m.paymentMethodId, customer: m.customerId, brand: m.brand, last4: m.last4 };
  }
  if (b.paymentIntentId) {
    const pi = await pay.getPaymentIntent(b.paymentIntentId).catch(() => null);
    if (pi?.paymentMethodId) return { paymentMethodId: pi.paymentMethodId, customer: pi.customerId, brand: 'card', last4: '' };
  }
  return null;
}

const paymentFailed = (err: PaymentError) =>
  err.code === 'card_declined' || err.code === 'authentication_required'
    ? new ApiError('payment_failed', err.message, { extra: { declineCode: err.code } })
    : new ApiError('payment_provider_error', err.message);

/**
 * Charges a claimed tip on the stored card through the payments service and records it in the same
 * batch as its `payment.completed`: ledger `tip` and `payment`, the booking's tip, total and amount
 * paid, the tip row. A write that fails after the charge is refunded by the payments service.
 */
export async function chargeTip(ctx: Ctx, b: BookingRow, tip: { id: string; amount: number }, card: StoredCard, extra: Stmt[] = []) {
  try {
    return await collectPayment(
      ctx,
      {
        mode: 'charge',
        customerId: b.customerId,
        kind: 'tip',
        data: { rentalId: b.id, transactionId: b.transactionId, renterId: b.renterId, tipId: tip.id },
        intent: {
          amount: tip.amount,
          currency: b.currency,
          customerId: card.customer,
          paymentMethodId: card.paymentMethodId,
          description: `Tip for booking ${b.id}`,
          metadata: { kind: 'tip', rentalId: b.id, transactionId: b.transactionId, customerId: b.customerId },
          idempotencyKey: `tip_${tip.id}`,
        },
      },
      async (paid, commitMoney) => {
        const reference = paid!.reference;
        const now = nowIso(ctx);
        await commitMoney(
          [
            ...insertLedger(ctx, [
              memoEntry(scopeOf(b), { entryType: 'tip', amount: tip.amount, affectsBalance: true, description: 'Tip', source: 'card', reference }),
              memoEntry(scopeOf(b), { entryType: 'payment', amount: -tip.amount, affectsBalance: true, description: 'Tip payment', source: 'card', reference }),
            ]),
            bookingTipPaidStmt(ctx, { customerId: b.customerId, rentalId: b.id, amount: tip.amount, updatedAt: now }),
            ctx.db
              .update(bookingTips)
              .set({ status: 'paid', paymentIntentId: reference, updatedAt: now })
              .where(and(eq(bookingTips.id, tip.id), eq(bookingTips.status, 'charging'))),
            ...extra,
          ],
          {
            audit: {
              action: 'booking.tip',
              targetType: 'booking',
              targetId: b.id,
              customerId: b.customerId,
              details: { amount: toDollars(tip.amount), paymentIntentId: reference },
            },
          },
        );
        return { id: reference as string };
      },
    );
  } catch (err) {
    if (err instanceof PaymentError) throw paymentFailed(err);
    throw err;
  }
}

export interface CancellationRefund {
  status: 'succeeded' | 'failed' | 'none';
  amount: number;
  refundId: string | null;
  refundIds: string[];
  fee: number;
}

/**
 * After a renter's cancellation (the booking is cancelled with its payment kept): writes what the
 * refund plan keeps (the rental's cancellation fee, a cancellation cover's premium) with the session
 * used up, then gives the rest back payment by payment through the payments service
 * (`payment.refunded` in the batch of each refund's ledger entry), so the renter's balance on the
 * rental ends at zero. A refund the provider refuses is audited (`booking.refund_failed`) so the
 * operator hears of it, and the balance shows it owed; the booking stays cancelled.
 */
export async function refundCancellation(ctx: Ctx, b: BookingRow, plan: RefundPlan, extra: Stmt[] = []): Promise<CancellationRefund> {
  await commit(ctx, [...keptStmts(ctx, b, plan), ...extra], {
    audit: {
      action: 'booking.renter_cancellation_settled',
      targetType: 'booking',
      targetId: b.id,
      customerId: b.customerId,
      details: { refund: toDollars(plan.refund), kept: toDollars(plan.kept), lines: plan.lines },
    },
  });
  const back = await payBack(ctx, b, plan, { kind: 'renter_cancellation', description: 'Refund (renter cancellation)', audit: 'booking.refund' });
  return { status: back.status, amount: toDollars(back.amount), refundId: back.refundIds[0] ?? null, refundIds: back.refundIds, fee: toDollars(plan.kept) };
}
