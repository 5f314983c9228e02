// Customers' face: what other code may call, and the operator-account use cases it defines
// (account, payment customer and methods, subscription). Others use it for:
// - the caller's own operator account: getOwnCustomer
// - an operator account for public (renter-facing) reads: getPublicCustomer
// - the payment-provider customer and cards (slips billing, AI audit, seed): ensurePaymentCustomer, listPaymentMethods, addPaymentMethod
// - editing the account (seed): updateCustomer
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { forgetApiKeys } from '../../lib/credentials';
import { customers } from '../../db/schema/accounts';
import { isEmailTaken, ownerUserStmt } from '../users/service';
import { payments, PaymentError, type PaymentMethod } from '../../adapters/payments';
import { customerErrors } from './errors';
import { getOwnCustomer } from './queries';
import { customerOut, subscriptionOut, type CustomerRow } from './views';
import { nowIso } from '../../lib/clock';

export { getOwnCustomer } from './queries';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge for `integrations`: nested objects merge, null removes a key. */
export function mergeObjects(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isPlainObject(v) && isPlainObject(out[k])) out[k] = mergeObjects(out[k] as Record<string, unknown>, v);
    else out[k] = v;
  }
  return out;
}

function paymentFailure(
  err: unknown,
  code: 'payment_provider_error' | 'invalid_payment_method' | 'subscription_change_failed' = 'payment_provider_error',
): never {
  if (err instanceof PaymentError) throw customerErrors.fail(code, err.message);
  throw err;
}

export async function createCustomer(
  ctx: Ctx,
  input: { name: string; email?: string; business_name?: string; affiliateCode?: string; permissions?: Record<string, unknown> },
) {
  const p = ctx.principal;
  if (p.customerId) throw new ApiError('already_exists', `This user already belongs to operator account ${p.customerId}`);
  if (p.kind !== 'user' || !p.subject) throw new ApiError('forbidden', 'Only a signed-in identity can create an operator account');
  const email = input.email ?? p.email;
  if (!email)
    throw new ApiError('validation_failed', 'email is required when the token carries none', { details: [{ field: 'email', message: 'email is required' }] });
  if (await isEmailTaken(ctx, email.toLowerCase())) throw new ApiError('already_exists', 'A user with this e-mail already exists');
  const pay = payments(ctx);
  const id = newId('cus');
  let paymentCustomerId: string;
  let subscriptionId: string;
  try {
    paymentCustomerId = (await pay.createCustomer({ email, name: input.business_name ?? input.name, metadata: { berthCustomerId: id } })).id;
    subscriptionId = (await pay.createSubscription(paymentCustomerId, 'standard', { trialDays: 14 })).id;
  } catch (err) {
    paymentFailure(err);
  }
  const now = nowIso(ctx);
  const row: CustomerRow = {
    id,
    name: input.name,
    email,
    businessName: input.business_name ?? null,
    affiliateCode: input.affiliateCode ?? null,
    permissions: input.permissions ?? {},
    integrations: {},
    settings: {},
    messageTemplateKeys: [],
    plan: 'standard',
    isSandbox: false,
    paymentCustomerId,
    subscriptionId,
    createdAt: now,
    updatedAt: now,
  };
  const userId = newId('usr');
  const actor = { ...ctx, principal: { ...p, customerId: id, userId } };
  await commit(
    actor,
    [ctx.db.insert(customers).values(row), ownerUserStmt(ctx, { id: userId, customerId: id, email, name: p.name ?? input.name, idpSubject: p.subject })],
    { audit: { action: 'customer.create', targetType: 'customer', targetId: id, customerId: id } },
  );
  return customerOut(row);
}

export async function updateCustomer(
  ctx: Ctx,
  input: {
    name?: string;
    email?: string;
    business_name?: string;
    permissions?: Record<string, unknown>;
    integrations?: Record<string, unknown>;
    plan?: 'standard' | 'enterprise';
  },
) {
  const existing = await getOwnCustomer(ctx);
  const patch: Partial<CustomerRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.email !== undefined) patch.email = input.email;
  if (input.business_name !== undefined) patch.businessName = input.business_name;
  if (input.permissions !== undefined) patch.permissions = input.permissions;
  if (input.integrations !== undefined) patch.integrations = mergeObjects(existing.integrations ?? {}, input.integrations);
  if (input.plan !== undefined && input.plan !== existing.plan) {
    if (!existing.subscriptionId) throw customerErrors.fail('subscription_change_failed', 'The account has no subscription to change');
    try {
      await payments(ctx).updateSubscription(existing.subscriptionId, { plan: input.plan });
    } catch (err) {
      paymentFailure(err, 'subscription_change_failed');
    }
    patch.plan = input.plan;
  }
  if (!Object.keys(patch).length && input.plan === undefined)
    throw new ApiError('no_changes', 'No data to update: give name, email, business_name, permissions, integrations or plan');
  if (Object.keys(patch).length) {
    await commit(ctx, [ctx.db.update(customers).set(patch).where(eq(customers.id, existing.id))], {
      audit: { action: 'customer.update', targetType: 'customer', targetId: existing.id, details: { fields: Object.keys(patch) } },
    });
    // API keys carry the operator's plan (their rate limit): every key's rate-limiter object reads it again.
    if (patch.plan) await forgetApiKeys(ctx, { customerId: existing.id });
  }
  return customerOut({ ...existing, ...patch, updatedAt: nowIso(ctx) });
}

/** Creates the payment-provider customer if the account has none. */
export async function ensurePaymentCustomer(ctx: Ctx): Promise<{ row: CustomerRow; created: boolean }> {
  const row = await getOwnCustomer(ctx);
  if (row.paymentCustomerId) return { row, created: false };
  let paymentCustomerId: string;
  try {
    paymentCustomerId = (await payments(ctx).createCustomer({ email: row.email, name: row.businessName ?? row.name, metadata: { berthCustomerId: row.id } }))
      .id;
  } catch (err) {
    paymentFailure(err);
  }
  await commit(ctx, [ctx.db.update(customers).set({ paymentCustomerId }).where(eq(customers.id, row.id))], {
    audit: { action: 'customer.payment_customer_create', targetType: 'customer', targetId: row.id },
  });
  return { row: { ...row, paymentCustomerId }, created: true };
}

export async function createPaymentCustomer(ctx: Ctx) {
  const { row, created } = await ensurePaymentCustomer(ctx);
  return { created, paymentCustomerId: row.paymentCustomerId! };
}

export async function addPaymentMethod(ctx: Ctx, paymentMethodId: string) {
  const { row } = await ensurePaymentCustomer(ctx);
  try {
    const pm = paymentMethodOut(await payments(ctx).attachPaymentMethod(row.paymentCustomerId!, paymentMethodId, { makeDefault: true }));
    await commit(ctx, [], {
      audit: { action: 'customer.payment_method_attach', targetType: 'customer', targetId: row.id, details: { paymentMethodId: pm.id } },
    });
    return pm;
  } catch (err) {
    paymentFailure(err, 'invalid_payment_method');
  }
}

export async function createSetupIntent(ctx: Ctx) {
  const { row } = await ensurePaymentCustomer(ctx);
  try {
    return await payments(ctx).createSetupIntent(row.paymentCustomerId!);
  } catch (err) {
    paymentFailure(err);
  }
}

export async function listPaymentMethods(ctx: Ctx) {
  const row = await getOwnCustomer(ctx);
  if (!row.paymentCustomerId) return { data: [] };
  return { data: (await payments(ctx).listPaymentMethods(row.paymentCustomerId)).map(paymentMethodOut) };
}

/** A card as the API answers it (`PaymentMethod`): never the provider's customer id. */
const paymentMethodOut = (pm: PaymentMethod) => ({
  id: pm.id,
  type: pm.type,
  brand: pm.brand,
  last4: pm.last4,
  expMonth: pm.expMonth,
  expYear: pm.expYear,
  ...(pm.isDefault !== undefined ? { isDefault: pm.isDefault } : {}),
});

async function currentSubscription(ctx: Ctx) {
  const row = await getOwnCustomer(ctx);
  const sub = row.subscriptionId ? await payments(ctx).getSubscription(row.subscriptionId) : null;
  if (!sub) throw notFound('Subscription');
  return { row, sub };
}

export async function getSubscription(ctx: Ctx) {
  return subscriptionOut((await currentSubscription(ctx)).sub);
}

export async function cancelSubscription(ctx: Ctx) {
  const { row, sub } = await currentSubscription(ctx);
  if (sub.status === 'canceled') throw new ApiError('not_found', 'No active subscription');
  const updated = await payments(ctx).updateSubscription(sub.id, { cancelAtPeriodEnd: true });
  await commit(ctx, [], {
    audit: { action: 'subscription.cancel', targetType: 'customer', targetId: row.id, details: { subscriptionId: sub.id, endsAt: sub.currentPeriodEnd } },
  });
  return subscriptionOut(updated);
}

export async function reactivateSubscription(ctx: Ctx) {
  const { row, sub } = await currentSubscription(ctx);
  if (sub.status === 'canceled') throw new ApiError('not_found', 'The subscription has ended; start a new one');
  const updated = await payments(ctx).updateSubscription(sub.id, { cancelAtPeriodEnd: false });
  await commit(ctx, [], { audit: { action: 'subscription.reactivate', targetType: 'customer', targetId: row.id, details: { subscriptionId: sub.id } } });
  return subscriptionOut(updated);
}

/**
 * An operator account by id for public (renter-facing) reads: names, integrations and settings only
 * (callers answer what is meant to be public of them); null when unknown.
 */
export async function getPublicCustomer(ctx: Ctx, customerId: string) {
  const row = await ctx.db
    .select({
      id: customers.id,
      name: customers.name,
      businessName: customers.businessName,
      integrations: customers.integrations,
      settings: customers.settings,
    })
    .from(customers)
    .where(eq(customers.id, customerId))
    .get();
  return row ?? null;
}
