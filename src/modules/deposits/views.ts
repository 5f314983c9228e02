import type { z } from '@hono/zod-openapi';
import { toDollars } from '../../lib/money';
import type { bookings, deposits } from '../../db/schema/bookings';
import type { PaymentIntent } from '../../adapters/payments';
import type { Deposit, ProviderState } from './schemas';

export type DepositRow = typeof deposits.$inferSelect;
export type DepositStatus = DepositRow['status'];
export type BookingRow = typeof bookings.$inferSelect;

/** The provider's view of an intent (`ProviderIntentState`), amounts in dollars. */
export const intentState = (pi: PaymentIntent): z.output<typeof ProviderState> => ({
  status: pi.status,
  amount: toDollars(pi.amount),
  amountCapturable: toDollars(pi.amountCapturable),
  amountReceived: toDollars(pi.amountReceived),
  captureMethod: pi.captureMethod,
  lastError: pi.lastError,
});

/** A deposit as the API answers it (`Deposit`), amounts in dollars. */
export function depositOut(d: DepositRow): z.output<typeof Deposit> {
  return {
    depositId: d.id,
    rentalId: d.rentalId,
    locationId: d.locationId ?? null,
    paymentIntentId: d.paymentIntentId,
    method: d.method,
    readerId: d.readerId ?? null,
    status: d.status,
    amount: toDollars(d.amount),
    capturedAmount: toDollars(d.capturedAmount),
    currency: d.currency,
    notes: d.notes ?? null,
    claimType: d.claimType ?? null,
    releasedAt: d.releasedAt ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/** The Berth deposit status an intent's provider state corresponds to. */
export function statusFromIntent(pi: PaymentIntent): DepositStatus {
  switch (pi.status) {
    case 'requires_capture':
      return 'authorized';
    case 'succeeded':
      return pi.amountReceived < pi.amount ? 'partially_captured' : 'captured';
    case 'canceled':
      return pi.amountReceived > 0 ? 'partially_captured' : 'released';
    default:
      return 'pending';
  }
}
