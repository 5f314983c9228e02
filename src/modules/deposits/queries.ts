import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { bookings, deposits } from '../../db/schema/bookings';
import type { PaymentIntent, PaymentsPort } from '../../adapters/payments';
import type { BookingRow, DepositRow } from './views';

/** Tenant-scoped read of a rental; another operator's rental answers 404. */
export async function rentalInTenant(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Rental');
  return row;
}

/** The caller's deposit of a payment intent, if Berth recorded one. */
export async function depositByIntent(ctx: Ctx, paymentIntentId: string): Promise<DepositRow | undefined> {
  return ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.paymentIntentId, paymentIntentId), eq(deposits.customerId, tenantOf(ctx))))
    .get();
}

/** Reads an intent at the provider; 404 when it does not exist or belongs to another operator. */
export async function intentOfTenant(ctx: Ctx, pay: PaymentsPort, paymentIntentId: string): Promise<PaymentIntent> {
  const pi = await pay.getPaymentIntent(paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  // Intents Berth creates name the operator account (`customerId`, and `berthCustomerId` for deposits).
  const owner = pi.metadata?.berthCustomerId ?? pi.metadata?.customerId;
  if (owner && owner !== tenantOf(ctx)) throw notFound('Payment intent');
  return pi;
}
