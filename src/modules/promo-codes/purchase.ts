/**
 * Gift cards bought online (public endpoints): a payment intent is created with the card's code and
 * value; the card is issued exactly once per payment intent, by POST /public/gift-card/confirm-payment
 * or by the payment provider's webhook, whichever comes first (the card row is unique per payment
 * intent, so the second path finds the first one's card). A saved card can buy a card directly.
 */
import { nowIso } from '../../lib/clock';
import { formatCalendarDate } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { customers } from '../../db/schema/accounts';
import { giftCardEntries, giftCardPurchases, promoCodes } from '../../db/schema/promo-codes';
import { emailStmt } from '../../adapters/messages';
import { payments, PaymentError, verifyWebhookSignature, type PaymentIntent } from '../../adapters/payments';
import { collectPayment, refundPayment } from '../payments/service';
import { promoFail } from './errors';
import { codeKey, findCode } from './queries';
import { expiryOf } from './codes';
import { promoOut, type PromoRow } from './views';
import { CODE_ALPHABET } from './types';
import { issueCurrency } from './currency';

type PurchaseRow = typeof giftCardPurchases.$inferSelect;

/** A new gift-card code: 16 characters of an unambiguous alphabet in groups of four (`7KQM-2XRT-...`). */
export function generateCode(): string {
  return (randomString(16, CODE_ALPHABET).match(/.{4}/g) ?? []).join('-');
}

export async function operatorOf(ctx: Ctx, customerId: string) {
  const row = await ctx.db
    .select({ id: customers.id, name: customers.name, businessName: customers.businessName })
    .from(customers)
    .where(eq(customers.id, customerId))
    .get();
  if (!row) throw new ApiError('bad_request', `Unknown customerId "${customerId}"`, { details: [{ field: 'customerId', message: 'unknown operator' }] });
  return row;
}

function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required')
      throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, paymentIntentId: err.intent?.id ?? null } });
    throw new ApiError('payment_provider_error', err.message);
  }
  throw err;
}

/** POST /public/gift-card/create-payment-intent */
export async function createGiftCardIntent(
  ctx: Ctx,
  input: {
    amount: number;
    customerId: string;
    giftCardCode: string;
    giftCardAmount?: number;
    recipientName?: string;
    recipientEmail?: string;
    message?: string;
    expiryDate?: string;
    currency?: string;
    connectAccountId?: string;
    applicationFeeAmount?: number;
    paymentMethodId?: string;
  },
) {
  await operatorOf(ctx, input.customerId);
  ctx = await onOperatorClock(ctx, input.customerId);
  const amount = toCents(input.amount);
  const value = toCents(input.giftCardAmount ?? input.amount);
  if (value > amount)
    throw new ApiError('bad_request', 'giftCardAmount cannot exceed amount (the total charged)', {
      details: [{ field: 'giftCardAmount', message: 'above amount' }],
    });
  if (input.applicationFeeAmount !== undefined && input.applicationFeeAmount > amount)
    throw new ApiError('bad_request', 'applicationFeeAmount (cents) cannot exceed the amount', {
      details: [{ field: 'applicationFeeAmount', message: 'above amount' }],
    });
  if (input.giftCardCode.trim().length < 6)
    throw new ApiError('validation_failed', 'giftCardCode must be at least 6 characters', {
      details: [{ field: 'giftCardCode', message: 'at least 6 characters' }],
    });
  if (await findCode(ctx, input.customerId, input.giftCardCode))
    throw promoFail('gift_card_code_taken', 'This gift-card code is already in use; choose another', {
      details: [{ field: 'giftCardCode', message: 'in use' }],
    });
  // The card holds the currency it is paid in: one the operator sells in.
  const currency = await issueCurrency(ctx, input.customerId, { requested: input.currency });
  const purchaseId = newId('gcp');
  let intent: PaymentIntent;
  try {
    intent = await payments(ctx).createPaymentIntent({
      amount,
      currency,
      captureMethod: 'automatic',
      confirm: Boolean(input.paymentMethodId),
      paymentMethodId: input.paymentMethodId ?? null,
      description: `Gift card ${input.giftCardCode.trim()}`,
      metadata: { kind: 'gift_card', berthCustomerId: input.customerId, customerId: input.customerId, purchaseId, giftCardCode: input.giftCardCode.trim() },
      applicationFeeAmount: input.applicationFeeAmount,
      transferDestination: input.connectAccountId,
    });
  } catch (err) {
    paymentFailure(err);
  }
  await commit(
    ctx,
    [
      ctx.db.insert(giftCardPurchases).values({
        id: purchaseId,
        customerId: input.customerId,
        paymentIntentId: intent.id,
        code: input.giftCardCode.trim(),
        giftCardAmount: value,
        amount,
        currency,
        recipientName: input.recipientName ?? null,
        recipientEmail: input.recipientEmail ?? null,
        message: input.message ?? null,
        expiryDate: expiryOf(input.expiryDate),
      }),
    ],
    {
      audit: {
        action: 'gift_card.intent',
        targetType: 'gift_card_purchase',
        targetId: purchaseId,
        customerId: input.customerId,
        details: { paymentIntentId: intent.id, amount },
      },
    },
  );
  return {
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    status: intent.status,
    amount: toDollars(amount),
    currency,
    giftCardCode: input.giftCardCode.trim(),
    giftCardAmount: toDollars(value),
  };
}

const isUnique = (err: unknown, column: string) => isUniqueViolation(err) && String(err).includes(column);

async function cardOfIntent(ctx: Ctx, paymentIntentId: string): Promise<PromoRow | undefined> {
  return ctx.db.select().from(promoCodes).where(eq(promoCodes.paymentIntentId, paymentIntentId)).get();
}

/**
 * Issues the card of a paid purchase, exactly once: the card row is unique per payment intent, so a
 * racing second path (confirm vs webhook, or a replayed confirm) gets the first one's card. A code
 * taken meanwhile by another card answers 409 and the payment is refunded.
 */
async function completePurchase(ctx: Ctx, purchase: PurchaseRow, intent: PaymentIntent): Promise<{ card: PromoRow; created: boolean }> {
  const existing = await cardOfIntent(ctx, intent.id);
  if (existing) return { card: existing, created: false };
  if (purchase.status === 'refunded') throw new ApiError('already_exists', `The code "${purchase.code}" was taken by another card; this payment was refunded`);
  const card = giftCardOf(purchase, intent, nowIso(ctx));
  const lost = await issueCard(ctx, { purchase, intent, card });
  if (lost === 'intent') return { card: (await cardOfIntent(ctx, intent.id))!, created: false };
  if (lost === 'code') await refundTakenCode(ctx, purchase, intent);
  return { card, created: true };
}

/** The gift card a purchase issues: its code, value (as balance and amount off), currency, recipient and expiry. */
function giftCardOf(purchase: PurchaseRow, intent: PaymentIntent, now: string): PromoRow {
  return {
    id: newId('promo'),
    customerId: purchase.customerId,
    code: purchase.code,
    codeKey: codeKey(purchase.code),
    kind: 'gift_card',
    details: { $Discount: toDollars(purchase.giftCardAmount), type: 'gift_card' },
    percentOff: null,
    amountOff: purchase.giftCardAmount,
    expiryDate: purchase.expiryDate,
    inventoryIds: [],
    locationId: null,
    affiliateId: null,
    usageLimit: null,
    timesUsed: 0,
    balance: purchase.giftCardAmount,
    currency: purchase.currency,
    active: true,
    recipientName: purchase.recipientName,
    recipientEmail: purchase.recipientEmail,
    message: purchase.message,
    paymentIntentId: intent.id,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Records the captured payment with the card, its purchase entry and the completed purchase in one
 * batch; answers which unique key a racing write took first (`intent`: the card exists, `code`: the
 * code is another card's), or null when this card was issued.
 */
async function issueCard(
  ctx: Ctx,
  { purchase, intent, card }: { purchase: PurchaseRow; intent: PaymentIntent; card: PromoRow },
): Promise<'intent' | 'code' | null> {
  let lost: 'intent' | 'code' | null = null;
  await collectPayment(
    ctx,
    {
      mode: 'captured',
      intent,
      // The card holds the purchase's currency: an intent paid in another one is refused.
      currency: purchase.currency,
      customerId: purchase.customerId,
      kind: 'gift_card',
      data: { giftCardCode: purchase.code, purchaseId: purchase.id },
    },
    async (_paid, commitMoney) => {
      try {
        await commitMoney(
          [
            ctx.db.insert(promoCodes).values(card),
            ctx.db.insert(giftCardEntries).values({
              id: newId('gce'),
              customerId: card.customerId,
              promoCodeId: card.id,
              kind: 'purchase',
              amount: card.balance,
              reference: intent.id,
            }),
            ctx.db
              .update(giftCardPurchases)
              .set({ status: 'completed', promoCodeId: card.id })
              .where(and(eq(giftCardPurchases.id, purchase.id), eq(giftCardPurchases.status, 'pending'))),
          ],
          {
            audit: {
              action: 'gift_card.issue',
              targetType: 'promo_code',
              targetId: card.id,
              customerId: card.customerId,
              details: { paymentIntentId: intent.id },
            },
          },
        );
      } catch (err) {
        lost = isUnique(err, 'promo_codes.payment_intent_id') ? 'intent' : isUnique(err, 'promo_codes.code_key') ? 'code' : null;
        if (!lost) throw err;
        commitMoney.alreadyRecorded();
      }
    },
  );
  return lost;
}

/** The purchase's code was taken by another card: marks the purchase refunded (once), gives the payment back, and answers 409 `already_exists`. */
async function refundTakenCode(ctx: Ctx, purchase: PurchaseRow, intent: PaymentIntent): Promise<never> {
  const taken = await ctx.db
    .update(giftCardPurchases)
    .set({ status: 'refunded' })
    .where(and(eq(giftCardPurchases.id, purchase.id), eq(giftCardPurchases.status, 'pending')))
    .run();
  if ((taken.meta.changes ?? 0) === 1) {
    await refundPayment(
      ctx,
      {
        mode: 'provider',
        customerId: purchase.customerId,
        kind: 'gift_card',
        paymentIntentId: intent.id,
        amount: intent.amountReceived || intent.amount,
        currency: intent.currency,
        reason: 'duplicate',
        data: { giftCardCode: purchase.code, purchaseId: purchase.id },
      },
      (refund, commitMoney) =>
        commitMoney([], {
          audit: {
            action: 'gift_card.refund',
            targetType: 'gift_card_purchase',
            targetId: purchase.id,
            customerId: purchase.customerId,
            details: { refundId: refund.refundId, reason: 'code taken' },
          },
        }),
    );
  }
  throw new ApiError('already_exists', `The code "${purchase.code}" was taken by another card; the payment was refunded`);
}

async function purchaseOfIntent(ctx: Ctx, paymentIntentId: string) {
  return ctx.db.select().from(giftCardPurchases).where(eq(giftCardPurchases.paymentIntentId, paymentIntentId)).get();
}

const issued = (r: { card: PromoRow; created: boolean }, intent: PaymentIntent, now: number) => ({
  giftCard: promoOut(r.card, now),
  paymentIntentId: intent.id,
  amountCharged: toDollars(intent.amountReceived || intent.amount),
  created: r.created,
});

/** POST /public/gift-card/confirm-payment */
export async function confirmGiftCardPayment(ctx: Ctx, input: { paymentIntentId: string }) {
  const purchase = await purchaseOfIntent(ctx, input.paymentIntentId);
  if (!purchase) throw notFound('Gift-card payment');
  ctx = await onOperatorClock(ctx, purchase.customerId);
  const intent = await payments(ctx).getPaymentIntent(purchase.paymentIntentId);
  if (!intent) throw notFound('Payment intent');
  if (intent.status !== 'succeeded')
    throw promoFail('payment_not_completed', `The payment is ${intent.status}; confirm it with the client secret first`, {
      extra: { providerStatus: intent.status },
    });
  return issued(await completePurchase(ctx, purchase, intent), intent, ctx.clock.now());
}

/** POST /public/gift-card/webhook: the provider's event, signature-checked; `payment_intent.succeeded` of a gift card issues it. */
export async function giftCardWebhook(ctx: Ctx, payload: string, signature: string | undefined) {
  const secret = ctx.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) throw promoFail('webhook_not_configured', 'No webhook signing secret (STRIPE_WEBHOOK_SECRET) is configured');
  const check = await verifyWebhookSignature(payload, signature, secret);
  if (!check.ok) throw promoFail('invalid_signature', `Invalid webhook signature: ${check.reason}`);
  let event: { id?: string; type?: string; data?: { object?: { id?: string; object?: string; metadata?: Record<string, string> } } };
  try {
    event = JSON.parse(payload);
  } catch {
    throw new ApiError('invalid_json', 'The webhook body is not JSON');
  }
  const obj = event.data?.object;
  if (event.type !== 'payment_intent.succeeded' || !obj?.id || obj.metadata?.kind !== 'gift_card')
    return { received: true, handled: false, eventId: event.id ?? null };
  const purchase = await purchaseOfIntent(ctx, obj.id);
  if (!purchase) return { received: true, handled: false, eventId: event.id ?? null };
  ctx = await onOperatorClock(ctx, purchase.customerId);
  const intent = await payments(ctx).getPaymentIntent(obj.id);
  if (!intent || intent.status !== 'succeeded') return { received: true, handled: false, eventId: event.id ?? null };
  try {
    const r = await completePurchase(ctx, purchase, intent);
    return { received: true, handled: true, eventId: event.id ?? null, giftCardCode: r.card.code, created: r.created };
  } catch (err) {
    // A code taken by another card was refunded above: the provider must not retry.
    if (err instanceof ApiError && err.code === 'already_exists') return { received: true, handled: true, eventId: event.id ?? null, refunded: true };
    throw err;
  }
}

/**
 * The gift e-mail to a card's recipient (the code, the value, the expiry), as an outbox statement for
 * the caller's batch: sent the same way for a card bought online and one sold at the counter.
 */
export function giftCardEmailStmt(
  ctx: Ctx,
  o: {
    from: string;
    card: Pick<PromoRow, 'id' | 'customerId' | 'code' | 'currency'>;
    to: string;
    recipientName?: string | null;
    message?: string | null;
    value: number;
    expiryDate: string | null;
  },
) {
  return emailStmt(ctx, {
    customerId: o.card.customerId,
    to: o.to,
    subject: `${o.recipientName ? `${o.recipientName}, you` : 'You'} received a gift card from ${o.from}`,
    body: `${o.message ? `${o.message}\n\n` : ''}Your gift card code: ${o.card.code}\nValue: ${toDollars(o.value).toFixed(2)} ${o.card.currency.toUpperCase()}${
      o.expiryDate ? `\nValid until: ${formatCalendarDate(o.expiryDate.slice(0, 10))}` : ''
    }\n\nUse it when you book with ${o.from}.`,
    template: 'gift_card.delivery',
    metadata: { promoCodeId: o.card.id },
  });
}

/** POST /public/gift-card/send-email: queues the gift e-mail of an existing card to the outbox. */
export async function sendGiftCardEmail(
  ctx: Ctx,
  input: {
    giftCardCode: string;
    giftCardAmount: number;
    recipientEmail: string;
    customerId: string;
    recipientName?: string;
    message?: string;
    expiryDate?: string;
  },
) {
  const op = await operatorOf(ctx, input.customerId);
  ctx = await onOperatorClock(ctx, input.customerId);
  const card = await findCode(ctx, input.customerId, input.giftCardCode);
  if (!card || card.kind !== 'gift_card' || card.amountOff !== toCents(input.giftCardAmount))
    throw new ApiError('bad_request', 'No gift card with this code and amount', { details: [{ field: 'giftCardCode', message: 'unknown gift card' }] });
  const msg = giftCardEmailStmt(ctx, {
    from: op.businessName ?? op.name,
    card,
    to: input.recipientEmail,
    recipientName: input.recipientName,
    message: input.message,
    value: toCents(input.giftCardAmount),
    expiryDate: card.expiryDate ?? input.expiryDate ?? null,
  });
  await commit(ctx, [msg.stmt], {
    audit: { action: 'gift_card.email', targetType: 'promo_code', targetId: card.id, customerId: input.customerId, details: { to: input.recipientEmail } },
  });
  return { success: true, messageId: msg.id, to: input.recipientEmail };
}

/**
 * POST /public/gift-card/charge-saved-card: buys a gift card with a saved payment method. The card's
 * value is `metadata.giftCardAmount` (dollars) or `amount`; its code is `metadata.giftCardCode` or
 * a generated one; `metadata.recipientEmail` / `recipientName` / `message` are kept on the card.
 */
export async function chargeSavedCard(
  ctx: Ctx,
  input: {
    paymentMethodId: string;
    amount: number;
    customerId: string;
    currency?: string;
    stripeCustomerId?: string;
    description?: string;
    metadata?: Record<string, string | number | boolean>;
    connectAccountId?: string;
    applicationFeeAmount?: number;
  },
) {
  await operatorOf(ctx, input.customerId);
  ctx = await onOperatorClock(ctx, input.customerId);
  const md = input.metadata ?? {};
  const amount = toCents(input.amount);
  const value = md.giftCardAmount !== undefined ? toCents(Number(md.giftCardAmount)) : amount;
  if (!Number.isFinite(value) || value <= 0 || value > amount)
    throw new ApiError('bad_request', 'metadata.giftCardAmount must be above zero and at most amount', {
      details: [{ field: 'metadata.giftCardAmount', message: 'out of range' }],
    });
  const code = typeof md.giftCardCode === 'string' && md.giftCardCode.trim().length >= 6 ? md.giftCardCode.trim() : generateCode();
  if (await findCode(ctx, input.customerId, code)) throw promoFail('gift_card_code_taken', 'This gift-card code is already in use; choose another');
  const purchaseId = newId('gcp');
  // The card holds the currency it is paid in: one the operator sells in.
  const currency = await issueCurrency(ctx, input.customerId, { requested: input.currency });
  let intent: PaymentIntent;
  try {
    intent = await payments(ctx).createPaymentIntent({
      amount,
      currency,
      confirm: true,
      captureMethod: 'automatic',
      customerId: input.stripeCustomerId ?? null,
      paymentMethodId: input.paymentMethodId,
      description: input.description ?? `Gift card ${code}`,
      metadata: {
        ...Object.fromEntries(Object.entries(md).map(([k, v]) => [k, String(v)])),
        kind: 'gift_card',
        berthCustomerId: input.customerId,
        customerId: input.customerId,
        purchaseId,
        giftCardCode: code,
      },
      applicationFeeAmount: input.applicationFeeAmount,
      transferDestination: input.connectAccountId,
    });
  } catch (err) {
    paymentFailure(err);
  }
  if (intent.status !== 'succeeded')
    throw new ApiError('payment_failed', `The payment is ${intent.status}`, { extra: { paymentIntentId: intent.id, providerStatus: intent.status } });
  await ctx.db.insert(giftCardPurchases).values({
    id: purchaseId,
    customerId: input.customerId,
    paymentIntentId: intent.id,
    code,
    giftCardAmount: value,
    amount,
    currency,
    recipientName: typeof md.recipientName === 'string' ? md.recipientName : null,
    recipientEmail: typeof md.recipientEmail === 'string' ? md.recipientEmail : null,
    message: typeof md.message === 'string' ? md.message : null,
    expiryDate: typeof md.expiryDate === 'string' && !Number.isNaN(Date.parse(md.expiryDate)) ? expiryOf(md.expiryDate) : null,
  });
  const purchase = (await purchaseOfIntent(ctx, intent.id))!;
  const r = await completePurchase(ctx, purchase, intent);
  return { ...issued(r, intent, ctx.clock.now()), status: intent.status };
}
