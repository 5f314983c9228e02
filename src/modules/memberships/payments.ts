/**
 * The one place where memberships move money: every charge (first period, renewal, dunning retry,
 * proration, reactivation, public enrollment) goes through `chargeCard`, every refund through
 * `refundCard`, and the `payment.completed` / `payment.refunded` events are built here. When the
 * platform's shared payments service lands, these two functions route through it.
 */
import type { Ctx } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import { toDollars } from '../../lib/money';
import { payments, PaymentError, type PaymentIntent, type Refund } from '../../adapters/payments';
import { membershipErrors } from './errors';

export type ChargeKind = 'membership' | 'membership_renewal' | 'membership_proration' | 'membership_reactivation';

export interface ChargeRequest {
  customerId: string;
  membershipId: string;
  invoiceId: string;
  renterId: string | null;
  kind: ChargeKind;
  /** Cents, > 0. */
  amount: number;
  currency: string;
  paymentCustomerId: string | null;
  paymentMethodId: string;
  description: string;
  /** The provider deduplicates on it: a retried run with the same key never charges twice. */
  idempotencyKey: string;
  /** A card given now (not the one on file): keep it at the provider for later charges without the cardholder. */
  saveCard?: boolean;
}

export type ChargeOutcome =
  | { ok: true; intent: PaymentIntent }
  | { ok: false; code: 'card_declined' | 'authentication_required' | 'invalid_payment_method' | 'provider_error'; message: string; intentId: string | null };

/** Charges a card now. Declines come back as an outcome; other failures throw. */
export async function chargeCard(ctx: Ctx, req: ChargeRequest): Promise<ChargeOutcome> {
  try {
    const intent = await payments(ctx).createPaymentIntent({
      amount: req.amount,
      currency: req.currency,
      customerId: req.paymentCustomerId,
      paymentMethodId: req.paymentMethodId,
      captureMethod: 'automatic',
      confirm: true,
      // A new card is saved for the renewals; the card on file is charged without the cardholder (off-session).
      ...(req.saveCard ? { setupFutureUsage: 'off_session' as const } : {}),
      description: req.description,
      metadata: { customerId: req.customerId, membershipId: req.membershipId, invoiceId: req.invoiceId, kind: req.kind },
      idempotencyKey: req.idempotencyKey,
    });
    if (intent.status !== 'succeeded') {
      return {
        ok: false,
        code: intent.lastError === 'authentication_required' ? 'authentication_required' : 'card_declined',
        message: 'The payment did not complete',
        intentId: intent.id,
      };
    }
    return { ok: true, intent };
  } catch (err) {
    if (err instanceof PaymentError) return { ok: false, code: err.code, message: err.message, intentId: err.intent?.id ?? null };
    throw err;
  }
}

/** The 400 a caller answers for a declined charge (nothing was written). */
export function declined(outcome: Extract<ChargeOutcome, { ok: false }>) {
  return membershipErrors.fail('payment_declined', outcome.message, { extra: { declineCode: outcome.code } });
}

export function paymentCompletedEvent(req: ChargeRequest, intent: PaymentIntent): DomainEvent {
  return {
    type: 'payment.completed',
    customerId: req.customerId,
    data: {
      paymentIntentId: intent.id,
      amount: toDollars(intent.amount),
      amountCents: intent.amount,
      currency: req.currency,
      kind: req.kind,
      membershipId: req.membershipId,
      invoiceId: req.invoiceId,
      renterId: req.renterId,
    },
  };
}

/** Refunds part or all of a captured membership payment; a provider refusal throws PaymentError. */
export async function refundCard(ctx: Ctx, paymentIntentId: string, amount: number, reason: string): Promise<Refund> {
  return payments(ctx).refund(paymentIntentId, amount, reason);
}

export function paymentRefundedEvent(o: {
  customerId: string;
  membershipId: string;
  invoiceId: string;
  renterId: string | null;
  paymentIntentId: string;
  refund: Refund;
  currency: string;
}): DomainEvent {
  return {
    type: 'payment.refunded',
    customerId: o.customerId,
    data: {
      paymentIntentId: o.paymentIntentId,
      refundId: o.refund.id,
      amount: toDollars(o.refund.amount),
      amountCents: o.refund.amount,
      currency: o.currency,
      kind: 'membership',
      membershipId: o.membershipId,
      invoiceId: o.invoiceId,
      renterId: o.renterId,
    },
  };
}
