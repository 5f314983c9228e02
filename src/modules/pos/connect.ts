/**
 * The payment provider's connected accounts and card readers for the point of sale: terminal
 * payments and payment intents (destination charges with an application fee), off-session charges
 * of a saved card, connected accounts with their onboarding link, embedded session and dashboard
 * login link, and reader connection tokens. `stripeRegion` (US or CA) picks the platform account.
 * With a provider secret these call the provider's SDK; offline the simulator answers the same shapes.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { posConnectedAccounts } from '../../db/schema/pos';
import { locations } from '../../db/schema/locations';
import { payments, PaymentError, type PaymentIntent, type PaymentRegion } from '../../adapters/payments';
import { collectPayment } from '../payments/service';
import { publicOrigin } from '../../lib/public-origin';

function providerFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required')
      throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, paymentIntentId: err.intent?.id ?? null } });
    throw new ApiError('payment_provider_error', err.message);
  }
  throw err;
}

const intentOut = (pi: PaymentIntent) => ({
  id: pi.id,
  paymentIntentId: pi.id,
  client_secret: pi.clientSecret,
  clientSecret: pi.clientSecret,
  status: pi.status,
  amount: pi.amount,
  currency: pi.currency,
  application_fee_amount: pi.applicationFeeAmount ?? null,
  transfer_destination: pi.transferDestination ?? null,
});

/** A connected account of the caller's operator: one it created here, or a location's `connectId`; 404 otherwise. */
async function ownAccount(ctx: Ctx, accountId: string): Promise<PaymentRegion | undefined> {
  const customerId = tenantOf(ctx);
  const created = await ctx.db
    .select()
    .from(posConnectedAccounts)
    .where(and(eq(posConnectedAccounts.accountId, accountId), eq(posConnectedAccounts.customerId, customerId)))
    .get();
  if (created) return created.region;
  const loc = await ctx.db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.customerId, customerId), eq(locations.connectId, accountId)))
    .get();
  if (!loc) throw notFound('Connected account');
  return undefined;
}

/** POST /pos/create_payment: a card-present payment intent for the reader (cents). */
export async function createTerminalPayment(ctx: Ctx, input: { amount: number; currency?: string; description?: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  try {
    const pi = await payments(ctx).createPaymentIntent({
      amount: input.amount,
      currency: input.currency ?? 'usd',
      captureMethod: 'automatic',
      paymentMethodTypes: ['card_present'],
      description: input.description ?? 'Point of sale',
      metadata: { kind: 'pos_terminal', berthCustomerId: customerId, customerId },
    });
    return intentOut(pi);
  } catch (err) {
    providerFailure(err);
  }
}

/** POST /pos/create_payment_intent: an intent for the client or reader; on a connected account with a destination charge or a direct charge. */
export async function createPosPaymentIntent(
  ctx: Ctx,
  input: { amount: number; currency?: string; connected_account_id?: string; fee_in_cents?: number; use_destination_charges?: boolean },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  if (input.fee_in_cents !== undefined && input.fee_in_cents > input.amount)
    throw new ApiError('bad_request', 'fee_in_cents cannot exceed amount', { details: [{ field: 'fee_in_cents', message: 'above amount' }] });
  if (input.fee_in_cents && !input.connected_account_id)
    throw new ApiError('bad_request', 'An application fee needs connected_account_id', {
      details: [{ field: 'connected_account_id', message: 'required with a fee' }],
    });
  if (input.connected_account_id) await ownAccount(ctx, input.connected_account_id);
  const destination = input.use_destination_charges !== false;
  try {
    const pi = await payments(ctx).createPaymentIntent({
      amount: input.amount,
      currency: input.currency ?? 'usd',
      captureMethod: 'automatic',
      description: 'Point of sale',
      metadata: { kind: 'pos_intent', berthCustomerId: customerId, customerId },
      applicationFeeAmount: input.fee_in_cents,
      ...(input.connected_account_id
        ? destination
          ? { transferDestination: input.connected_account_id }
          : { onBehalfOfAccount: input.connected_account_id }
        : {}),
    });
    return intentOut(pi);
  } catch (err) {
    providerFailure(err);
  }
}

/** POST /pos/charge_customer: charges a saved card off-session now (through the payments service: payment.completed). */
export async function chargeCustomer(
  ctx: Ctx,
  input: { amount: number; stripe_customer_id: string; payment_method: string; currency?: string; fee_amount?: number; connect_id?: string },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  if (input.fee_amount !== undefined && input.fee_amount > input.amount)
    throw new ApiError('bad_request', 'fee_amount cannot exceed amount', { details: [{ field: 'fee_amount', message: 'above amount' }] });
  if (input.connect_id) await ownAccount(ctx, input.connect_id);
  const chargeId = newId('pchg');
  try {
    return await collectPayment(
      ctx,
      {
        mode: 'charge',
        customerId,
        kind: 'pos_charge',
        data: { chargeId, stripeCustomerId: input.stripe_customer_id },
        intent: {
          amount: input.amount,
          currency: input.currency ?? 'usd',
          customerId: input.stripe_customer_id,
          paymentMethodId: input.payment_method,
          description: 'Point of sale charge',
          metadata: { kind: 'pos_charge', berthCustomerId: customerId, customerId, chargeId },
          applicationFeeAmount: input.fee_amount,
          transferDestination: input.connect_id,
          idempotencyKey: chargeId,
        },
      },
      async (paid, commitMoney) => {
        await commitMoney([], {
          audit: {
            action: 'pos.charge_customer',
            targetType: 'payment',
            targetId: paid!.reference,
            details: { amount: input.amount, stripeCustomerId: input.stripe_customer_id },
          },
        });
        return intentOut(paid!.intent!);
      },
    );
  } catch (err) {
    providerFailure(err);
  }
}

export async function createAccount(ctx: Ctx, input: { country?: string; stripeRegion?: PaymentRegion }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'payments');
  const region = input.stripeRegion ?? 'US';
  try {
    const a = await payments(ctx, region).createAccount({ country: input.country ?? region, type: 'express', metadata: { berthCustomerId: customerId } });
    await commit(ctx, [ctx.db.insert(posConnectedAccounts).values({ accountId: a.id, customerId, region, country: a.country })], {
      audit: { action: 'pos.account.create', targetType: 'connected_account', targetId: a.id, details: { region, country: a.country } },
    });
    return {
      id: a.id,
      type: a.type,
      country: a.country,
      charges_enabled: a.chargesEnabled,
      payouts_enabled: a.payoutsEnabled,
      details_submitted: a.detailsSubmitted,
      stripeRegion: region,
    };
  } catch (err) {
    providerFailure(err);
  }
}

const base = (ctx: Ctx) => publicOrigin(ctx);

export async function accountLink(ctx: Ctx, input: { account: string; stripeRegion?: PaymentRegion }) {
  requirePermission(ctx, 'payments');
  const region = input.stripeRegion ?? (await ownAccount(ctx, input.account)) ?? 'US';
  if (input.stripeRegion) await ownAccount(ctx, input.account);
  try {
    const l = await payments(ctx, region).createAccountLink(input.account, {
      refreshUrl: `${base(ctx)}/pos/account_link/refresh?account=${encodeURIComponent(input.account)}`,
      returnUrl: `${base(ctx)}/pos/account_link/return?account=${encodeURIComponent(input.account)}`,
    });
    return { url: l.url, expires_at: l.expiresAt };
  } catch (err) {
    providerFailure(err);
  }
}

export async function accountSession(ctx: Ctx, input: { account: string; stripeRegion?: PaymentRegion }) {
  requirePermission(ctx, 'payments');
  const region = input.stripeRegion ?? (await ownAccount(ctx, input.account)) ?? 'US';
  if (input.stripeRegion) await ownAccount(ctx, input.account);
  try {
    const s = await payments(ctx, region).createAccountSession(input.account);
    return { client_secret: s.clientSecret, expires_at: s.expiresAt };
  } catch (err) {
    providerFailure(err);
  }
}

export async function dashboardLink(ctx: Ctx, input: { account: string; stripeRegion?: PaymentRegion }) {
  requirePermission(ctx, 'payments');
  const region = input.stripeRegion ?? (await ownAccount(ctx, input.account)) ?? 'US';
  if (input.stripeRegion) await ownAccount(ctx, input.account);
  try {
    const l = await payments(ctx, region).createLoginLink(input.account);
    return { url: l.url, expires_at: l.expiresAt };
  } catch (err) {
    providerFailure(err);
  }
}

/** POST /pos/connection_token: a card-reader SDK connection token. */
export async function connectionToken(ctx: Ctx) {
  tenantOf(ctx);
  requirePermission(ctx, 'pos');
  try {
    return { secret: (await payments(ctx).createConnectionToken()).secret };
  } catch (err) {
    providerFailure(err);
  }
}
