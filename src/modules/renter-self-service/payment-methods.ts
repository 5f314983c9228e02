/**
 * GET /public/payment-methods?stripeCustomerId=: the cards stored at the payment provider for a
 * renter's provider customer id, masked (brand, last four digits, expiry, default). Only ids that
 * belong to a renter are answered (an operator's own billing customer, or any other id, answers an
 * empty list, never an error that would tell which ids exist); no payment-method ids are answered.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { limitIp } from '../../lib/ip-limit';
import { renters } from '../../db/schema/bookings';
import { payments } from '../../adapters/payments';

export async function maskedPaymentMethods(ctx: Ctx, stripeCustomerId: string, ip: string | null) {
  await limitIp(ctx, { kind: 'payment-methods', ip, limit: 30, windowMs: 60_000 });
  const owner = await ctx.db.select({ id: renters.id }).from(renters).where(eq(renters.paymentCustomerId, stripeCustomerId)).limit(1).get();
  const methods = owner
    ? await payments(ctx)
        .listPaymentMethods(stripeCustomerId)
        .catch(() => [])
    : [];
  return {
    stripeCustomerId,
    data: methods.map((m) => ({
      type: m.type,
      brand: m.brand,
      last4: m.last4,
      expMonth: m.expMonth,
      expYear: m.expYear,
      isDefault: m.isDefault ?? false,
    })),
  };
}
