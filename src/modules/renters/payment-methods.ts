import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { renters } from '../../db/schema/bookings';
import { ApiError } from '../../lib/errors';
import { payments, PaymentError } from '../../adapters/payments';
import { getRenterInTenant } from './queries';
import type { RenterRow } from './views';

/** A payment-provider failure as the API's error (`payment_provider_error` or `invalid_payment_method`). */
export function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) throw new ApiError(err.code === 'provider_error' ? 'payment_provider_error' : 'invalid_payment_method', err.message);
  throw err;
}

/** A renter's saved card at the payment provider: its method, the provider's customer it belongs to, brand and last digits. */
export interface RenterCard {
  paymentMethodId: string;
  customerId: string;
  brand: string;
  last4: string;
}

/** The renter's default saved card (else the first saved one), or null when the renter has none or no customer at the payment provider yet. */
export async function renterDefaultCard(ctx: Ctx, r: { paymentCustomerId: string | null }): Promise<RenterCard | null> {
  if (!r.paymentCustomerId) return null;
  const cards = await payments(ctx).listPaymentMethods(r.paymentCustomerId);
  const card = cards.find((c) => c.isDefault) ?? cards[0];
  return card ? { paymentMethodId: card.id, customerId: r.paymentCustomerId, brand: card.brand, last4: card.last4 } : null;
}

/** The renter's customer at the payment provider, created on first use (a racing creation keeps the first one). */
async function ensurePaymentCustomer(ctx: Ctx, r: RenterRow): Promise<string> {
  if (r.paymentCustomerId) return r.paymentCustomerId;
  const pay = payments(ctx);
  let created: string;
  try {
    created = (
      await pay.createCustomer({ email: r.email, name: `${r.firstName} ${r.lastName}`, metadata: { berthRenterId: r.id, berthCustomerId: r.customerId } })
    ).id;
  } catch (err) {
    paymentFailure(err);
  }
  await commit(
    ctx,
    [
      ctx.db
        .update(renters)
        .set({ paymentCustomerId: created })
        .where(and(eq(renters.id, r.id), eq(renters.customerId, r.customerId), isNull(renters.paymentCustomerId))),
    ],
    {
      audit: { action: 'renter.payment_customer_create', targetType: 'renter', targetId: r.id, details: { paymentCustomerId: created } },
    },
  );
  const after = await getRenterInTenant(ctx, r.id);
  if (after.paymentCustomerId !== created) {
    await pay.deleteCustomer(created).catch(() => undefined);
    return after.paymentCustomerId!;
  }
  return created;
}

export async function attachPaymentMethod(ctx: Ctx, id: string, input: { payment_method_id: string }) {
  const r = await getRenterInTenant(ctx, id);
  const paymentCustomerId = await ensurePaymentCustomer(ctx, r);
  let pm;
  try {
    pm = await payments(ctx).attachPaymentMethod(paymentCustomerId, input.payment_method_id, { makeDefault: true });
  } catch (err) {
    paymentFailure(err);
  }
  await commit(ctx, [], {
    audit: {
      action: 'renter.payment_method_attach',
      targetType: 'renter',
      targetId: r.id,
      details: { paymentMethodId: pm.id, brand: pm.brand, last4: pm.last4 },
    },
  });
  return { renterId: r.id, payment_customer_id: paymentCustomerId, paymentMethod: { ...pm, isDefault: true } };
}

export async function listPaymentMethods(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id);
  if (!r.paymentCustomerId) return { renterId: r.id, payment_customer_id: null, data: [] };
  try {
    return { renterId: r.id, payment_customer_id: r.paymentCustomerId, data: await payments(ctx).listPaymentMethods(r.paymentCustomerId) };
  } catch (err) {
    paymentFailure(err);
  }
}

/** A setup intent at the payment provider for the renter's card form (the renter's provider customer is created on first use). */
export async function paymentSetupIntent(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id);
  const paymentCustomerId = await ensurePaymentCustomer(ctx, r);
  try {
    const si = await payments(ctx).createSetupIntent(paymentCustomerId);
    return { renterId: r.id, paymentCustomerId, setupIntentId: si.id, clientSecret: si.clientSecret, status: si.status };
  } catch (err) {
    paymentFailure(err);
  }
}
