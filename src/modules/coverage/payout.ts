/**
 * The partner's payout account: an Express account at the payment provider, onboarded through its
 * hosted link (the offline simulator completes the onboarding at once). Payouts go only to the US,
 * the UK, the EEA, Canada and Switzerland. Once payouts are enabled the account is attached to every
 * offering of the partner automatically; a different account on an approved offering sends it back
 * to review.
 */
import { nowIso } from '../../lib/clock';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { payments, PaymentError } from '../../adapters/payments';
import { coverageOfferings, coveragePayoutAccounts } from '../../db/schema/coverage';
import { getPartner, requirePartner } from '../partners/service';
import { coverageFail } from './errors';
import { PAYOUT_COUNTRIES } from './types';
import { publicOrigin } from '../../lib/public-origin';

type PayoutRow = typeof coveragePayoutAccounts.$inferSelect;

const providerError = (err: unknown): never => {
  if (err instanceof PaymentError) throw new ApiError('payment_provider_error', err.message);
  throw err;
};

const base = (ctx: Ctx) => publicOrigin(ctx);

/** Attaches the account to the partner's offerings; approved offerings that had another account go back to review. */
async function attach(ctx: Ctx, partnerId: string, accountId: string) {
  const now = nowIso(ctx);
  const other = or(isNull(coverageOfferings.payoutAccountId), ne(coverageOfferings.payoutAccountId, accountId));
  const mine = and(eq(coverageOfferings.partnerId, partnerId), isNull(coverageOfferings.deletedAt), other);
  await ctx.db.batch([
    ctx.db
      .update(coverageOfferings)
      .set({ status: 'in_review', submittedAt: now })
      .where(and(mine, eq(coverageOfferings.status, 'approved'))),
    ctx.db.update(coverageOfferings).set({ payoutAccountId: accountId, updatedAt: now }).where(mine),
  ]);
}

/** The partner's payout account; with `refresh`, its onboarding state is read from the provider (and the account attached once active). */
export async function payoutAccountOf(ctx: Ctx, partnerId: string, opts: { refresh?: boolean } = {}): Promise<PayoutRow | null> {
  const row = await ctx.db.select().from(coveragePayoutAccounts).where(eq(coveragePayoutAccounts.partnerId, partnerId)).get();
  if (!row || !opts.refresh) return row ?? null;
  if (row.status === 'onboarding') {
    const acct = await payments(ctx)
      .getAccount(row.accountId)
      .catch(() => null);
    const country = acct?.country.toUpperCase();
    if (acct && country && country !== row.country) {
      // The provider's record wins (an account completed in another country than asked cannot be attached).
      await ctx.db.update(coveragePayoutAccounts).set({ country }).where(eq(coveragePayoutAccounts.partnerId, partnerId));
      row.country = country;
    }
    if (!acct?.payoutsEnabled || !PAYOUT_COUNTRIES.includes(row.country)) return row;
    await ctx.db
      .update(coveragePayoutAccounts)
      .set({ status: 'active', updatedAt: nowIso(ctx) })
      .where(and(eq(coveragePayoutAccounts.partnerId, partnerId), eq(coveragePayoutAccounts.accountId, row.accountId)));
    row.status = 'active';
  }
  await attach(ctx, partnerId, row.accountId);
  return row;
}

async function payoutOut(ctx: Ctx, row: PayoutRow, link: { url: string; expiresAt: string | null } | null) {
  const offerings = await ctx.db
    .select({ id: coverageOfferings.id })
    .from(coverageOfferings)
    .where(and(eq(coverageOfferings.partnerId, row.partnerId), eq(coverageOfferings.payoutAccountId, row.accountId), isNull(coverageOfferings.deletedAt)))
    .all();
  return {
    accountId: row.accountId,
    country: row.country,
    status: row.status,
    payoutsEnabled: row.status === 'active',
    onboardingUrl: link?.url ?? null,
    onboardingExpiresAt: link?.expiresAt ?? null,
    attachedOfferingIds: offerings.map((o) => o.id),
  };
}

async function onboardingLink(ctx: Ctx, accountId: string) {
  const url = `${base(ctx)}/partners/payout-account`;
  return payments(ctx).createAccountLink(accountId, { refreshUrl: url, returnUrl: url }).catch(providerError);
}

/** Connects a payout account in `country` (or continues an unfinished onboarding): answers the onboarding link. */
export async function connectPayoutAccount(ctx: Ctx, input: { country: string }) {
  const partnerId = requirePartner(ctx);
  const country = input.country.toUpperCase();
  if (!PAYOUT_COUNTRIES.includes(country))
    throw coverageFail('payout_country_unsupported', `Payouts go only to the US, the UK, the EEA, Canada and Switzerland; ${country} cannot be attached`, {
      details: [{ field: 'country', message: 'payouts go only to US, GB, the EEA, CA and CH' }],
    });
  const existing = await payoutAccountOf(ctx, partnerId, { refresh: true });
  if (existing && existing.country === country && existing.status === 'active') return payoutOut(ctx, existing, null);
  let row = existing;
  if (!existing || existing.country !== country) {
    const partner = await getPartner(ctx, partnerId);
    const acct = await payments(ctx)
      .createAccount({ country, email: partner?.email ?? null, type: 'express', metadata: { berthPartnerId: partnerId, purpose: 'coverage_payouts' } })
      .catch(providerError);
    const now = nowIso(ctx);
    row = { partnerId, accountId: acct.id, country, status: 'onboarding', createdAt: now, updatedAt: now };
    await ctx.db
      .insert(coveragePayoutAccounts)
      .values(row)
      .onConflictDoUpdate({ target: coveragePayoutAccounts.partnerId, set: { accountId: acct.id, country, status: 'onboarding', updatedAt: now } });
  }
  const link = await onboardingLink(ctx, row!.accountId);
  const fresh = (await payoutAccountOf(ctx, partnerId, { refresh: true }))!;
  return payoutOut(ctx, fresh, link);
}

/** The payout account as the provider reports it now (a fresh onboarding link while unfinished); 404 before one was connected. */
export async function getPayoutAccount(ctx: Ctx) {
  const partnerId = requirePartner(ctx);
  const row = await payoutAccountOf(ctx, partnerId, { refresh: true });
  if (!row) throw new ApiError('not_found', 'No payout account yet: connect one with POST /partners/payout-account');
  return payoutOut(ctx, row, row.status === 'active' ? null : await onboardingLink(ctx, row.accountId));
}
