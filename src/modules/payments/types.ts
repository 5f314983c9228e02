import type { PaymentIntent } from '../../adapters/payments';

/** How money was taken or given back: through the payment provider, or recorded at the counter. */
export type MoneyMethod = 'card' | 'terminal' | 'cash' | 'account' | 'gift_card' | 'check' | 'other';

/** What the caller's ledger write sees of a collected payment. */
export interface Collected {
  /** The provider's intent (null for money recorded without a provider call). */
  intent: PaymentIntent | null;
  /** Cents. */
  amount: number;
  currency: string;
  method: MoneyMethod;
  /** The provider id (payment intent) or the counter's own reference. */
  reference: string | null;
}

export interface Refunded {
  refundId: string | null;
  /** Cents. */
  amount: number;
  currency: string;
  method: MoneyMethod;
  paymentIntentId: string | null;
}
