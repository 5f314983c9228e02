/**
 * Tenant payments: saved cards, adding a card (setup intent, or a card the page tokenized), paying a
 * balance with a saved or new card, and card-element intents recorded once confirmed. The money
 * moves through the slip reservations' payment paths, which go through the shared payments service
 * (`payment.completed` in the payment's write; a charge whose write fails is refunded).
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { attachPaymentMethod, listPaymentMethods, paymentSetupIntent } from '../renters/service';
import { cardIntentOf, chargeCardOf, recordCardIntentOf } from '../slip-reservations/service';
import { renterOf } from './auth';
import { ownReservation } from './queries';
import type * as s from './schemas';

const cardOut = (m: { id: string; brand: string; last4: string; expMonth: number; expYear: number; isDefault?: boolean }) => ({
  id: m.id,
  brand: m.brand,
  last4: m.last4,
  expMonth: m.expMonth,
  expYear: m.expYear,
  isDefault: m.isDefault ?? false,
});

export async function savedCards(ctx: Ctx) {
  const list = await listPaymentMethods(ctx, renterOf(ctx));
  return { data: list.data.map(cardOut) };
}

export async function addCard(ctx: Ctx, input: z.output<typeof s.SetupIntentBody>) {
  const renterId = renterOf(ctx);
  if (input.paymentMethodId) {
    const saved = await attachPaymentMethod(ctx, renterId, { payment_method_id: input.paymentMethodId });
    return { setupIntentId: null, clientSecret: null, status: 'succeeded', paymentMethod: cardOut(saved.paymentMethod) };
  }
  const si = await paymentSetupIntent(ctx, renterId);
  return { setupIntentId: si.setupIntentId, clientSecret: si.clientSecret, status: si.status, paymentMethod: null };
}

/** POST .../pay: records a confirmed card-element intent, or charges a saved or given card. */
export async function pay(ctx: Ctx, id: string, input: z.output<typeof s.PayBody>) {
  const r = await ownReservation(ctx, id);
  if (input.paymentIntentId) return recordCardIntentOf(ctx, r, { paymentIntentId: input.paymentIntentId, paymentMethodId: input.paymentMethodId });
  return chargeCardOf(ctx, r, { amountCents: input.amountCents, paymentMethodId: input.paymentMethodId });
}

export async function paymentIntent(ctx: Ctx, id: string, input: z.output<typeof s.IntentBody>) {
  return cardIntentOf(ctx, await ownReservation(ctx, id), input);
}
