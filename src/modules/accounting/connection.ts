/**
 * The accounting link of an operator (`businessId` in the API is the operator's customerId):
 * OAuth connection with a signed, expiring `state`, tokens stored sealed, the provider business,
 * the bank account and the GL mappings. Disconnecting revokes the tokens and forgets the business
 * but keeps the GL mappings for a later reconnection.
 */
import { eq } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requireAdmin, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { seal, signToken, unseal, verifyToken } from '../../lib/sealed';
import { accountingProvider, type AccountingProvider } from '../../adapters/accounting';
import { ProviderError } from '../../adapters/simulators';
import { acctLinks } from '../../db/schema/accounting';
import { acctFail } from './errors';
import { GL_ACCOUNTS, GL_KEYS, missingMappings } from './journal';
import { linkOut, type LinkRow } from './views';
import { linkOf } from './queries';

const STATE_TTL_MS = 10 * 60_000;
const STATE_PURPOSE = 'acct.state';

export function providerOf(ctx: Ctx): AccountingProvider {
  const p = accountingProvider(ctx.env);
  if (!p) throw new ApiError('service_unavailable', 'The accounting integration is not configured on this service (ACCOUNTING_CLIENT_ID and _SECRET)');
  return p;
}

const frontendUrl = (ctx: Ctx) => (ctx.env.FRONTEND_URL ?? 'http://localhost:5173').replace(/\/$/, '');
const callbackUrl = (ctx: Ctx, origin: string) => `${(ctx.env.PUBLIC_BASE_URL ?? origin).replace(/\/$/, '')}/auth/acct/callback`;

/** The caller's business: `businessId` must be the caller's operator (403 otherwise). */
function business(ctx: Ctx, businessId: string, write = false): string {
  const id = ownCustomer(ctx, businessId);
  if (write) requireAdmin(ctx);
  else requirePermission(ctx, 'accounting');
  return id;
}

/** GET /auth/acct/connect */
export async function connect(ctx: Ctx, input: { businessId: string; origin: string }) {
  const customerId = business(ctx, input.businessId, true);
  const provider = providerOf(ctx);
  const redirectUri = callbackUrl(ctx, input.origin);
  const state = await signToken(ctx.env, STATE_PURPOSE, { customerId, redirectUri, userId: ctx.principal.userId }, STATE_TTL_MS);
  return {
    authorizationUrl: await provider.authorizationUrl({ state, redirectUri }),
    state,
    // The signed state's lifetime runs on real time (lib/sealed checks it so).
    expiresAt: new Date(wallClock.now() + STATE_TTL_MS).toISOString(),
    provider: provider.name,
  };
}

/**
 * GET /auth/acct/callback: a missing, forged or expired state answers 400; otherwise a 302 to the
 * dashboard with `status=connected`, `denied` or `error`.
 */
export async function callback(ctx: Ctx, q: { code?: string; state?: string; error?: string }): Promise<string> {
  const checked = await verifyToken<{ customerId: string; redirectUri: string; userId: string | null }>(ctx.env, STATE_PURPOSE, q.state);
  if (!checked.ok)
    throw new ApiError('bad_request', q.state ? `The state is ${checked.reason === 'expired' ? 'expired' : 'invalid'}; connect again` : 'state is required', {
      details: [{ field: 'state', message: q.state ? checked.reason : 'required' }],
    });
  const { customerId, redirectUri, userId } = checked.data;
  const to = (status: string, extra: Record<string, string> = {}) =>
    `${frontendUrl(ctx)}/settings/integrations?${new URLSearchParams({ integration: 'accounting', status, ...extra })}`;
  if (q.error) return to('denied', { reason: q.error.slice(0, 100) });
  if (!q.code)
    throw new ApiError('validation_failed', 'code is required', {
      details: [{ field: 'code', location: 'query', code: 'required', message: 'code is required' }],
    });
  const provider = providerOf(ctx);
  let tokens;
  try {
    tokens = await provider.exchangeCode(q.code, redirectUri);
  } catch (err) {
    if (err instanceof ProviderError) return to('error', { reason: err.kind === 'auth' ? 'invalid_grant' : 'provider_error' });
    throw err;
  }
  // The operator is known from the state: its clock stamps the connection.
  const tctx: Ctx = await onOperatorClock({ ...ctx, principal: { ...ctx.principal, customerId, userId } }, customerId);
  const existing = await linkOf(tctx, customerId);
  const now = nowIso(tctx);
  const values = {
    provider: provider.name,
    status: 'connected' as const,
    accessToken: await seal(ctx.env, tokens.accessToken),
    refreshToken: tokens.refreshToken ? await seal(ctx.env, tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
    connectedAt: now,
    lastError: null,
    updatedAt: now,
  };
  await commit(
    tctx,
    [existing ? ctx.db.update(acctLinks).set(values).where(eq(acctLinks.customerId, customerId)) : ctx.db.insert(acctLinks).values({ customerId, ...values })],
    { audit: { action: 'accounting.connect', targetType: 'accounting', targetId: customerId, customerId, details: { provider: provider.name } } },
  );
  return to('connected');
}

/** A usable access token (refreshed when about to expire); 400 when not connected. */
export async function tokenOf(ctx: Ctx, link: LinkRow | undefined, provider: AccountingProvider): Promise<{ link: LinkRow; token: string }> {
  if (!link || link.status !== 'connected' || !link.accessToken) throw acctFail('accounting_not_connected', 'The accounting system is not connected');
  // The provider's access token expires on the provider's clock: real time.
  if ((link.tokenExpiresAt ?? 0) > wallClock.now() + 60_000) return { link, token: await unseal(ctx.env, link.accessToken) };
  if (!link.refreshToken) throw acctFail('accounting_not_connected', 'The accounting access expired; connect again');
  try {
    const t = await provider.refresh(await unseal(ctx.env, link.refreshToken));
    const patch = {
      accessToken: await seal(ctx.env, t.accessToken),
      refreshToken: t.refreshToken ? await seal(ctx.env, t.refreshToken) : link.refreshToken,
      tokenExpiresAt: t.expiresAt,
    };
    await ctx.db.update(acctLinks).set(patch).where(eq(acctLinks.customerId, link.customerId));
    return { link: { ...link, ...patch }, token: t.accessToken };
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'auth') {
      await ctx.db
        .update(acctLinks)
        .set({ status: 'error', lastError: 'The accounting provider refused the stored credentials; connect again' })
        .where(eq(acctLinks.customerId, link.customerId));
      throw acctFail('accounting_not_connected', 'The accounting provider refused the stored credentials; connect again');
    }
    throw err;
  }
}

/** GET /acct/integration-status */
export async function integrationStatus(ctx: Ctx, businessId: string) {
  const customerId = business(ctx, businessId);
  return linkOut(customerId, await linkOf(ctx, customerId));
}

/** DELETE /acct/disconnect: tokens revoked, business and bank forgotten, GL mappings kept. */
export async function disconnect(ctx: Ctx, businessId: string) {
  const customerId = business(ctx, businessId, true);
  const link = await linkOf(ctx, customerId);
  let revoked = false;
  if (link?.accessToken) {
    const provider = accountingProvider(ctx.env);
    try {
      if (provider) {
        if (link.refreshToken) await provider.revoke(await unseal(ctx.env, link.refreshToken));
        await provider.revoke(await unseal(ctx.env, link.accessToken));
        revoked = true;
      }
    } catch (err) {
      ctx.log.warn('accounting token revocation failed', { error: String(err) });
    }
  }
  if (link) {
    await commit(
      ctx,
      [
        ctx.db
          .update(acctLinks)
          .set({
            status: 'disconnected',
            accessToken: null,
            refreshToken: null,
            tokenExpiresAt: null,
            acctBusinessId: null,
            acctBusinessName: null,
            bankAccountId: null,
          })
          .where(eq(acctLinks.customerId, customerId)),
      ],
      { audit: { action: 'accounting.disconnect', targetType: 'accounting', targetId: customerId, details: { revoked } } },
    );
  }
  return { success: true, businessId: customerId, revoked, glMappingsKept: Object.keys(link?.glMappings ?? {}).length };
}

/** GET /acct/businesses */
export async function businesses(ctx: Ctx, businessId: string) {
  const customerId = business(ctx, businessId);
  const provider = providerOf(ctx);
  const { token, link } = await tokenOf(ctx, await linkOf(ctx, customerId), provider);
  const list = await provider.businesses(token);
  return { data: list.map((b) => ({ ...b, selected: b.id === link.acctBusinessId })) };
}

/** GET /acct/chart-of-accounts (of the selected business) */
export async function chartOfAccounts(ctx: Ctx, businessId: string) {
  const customerId = business(ctx, businessId);
  const provider = providerOf(ctx);
  const { token, link } = await tokenOf(ctx, await linkOf(ctx, customerId), provider);
  if (!link.acctBusinessId) throw acctFail('accounting_not_ready', 'Select the business first (PUT /acct/select-business)');
  return { acctBusinessId: link.acctBusinessId, data: await provider.accounts(token, link.acctBusinessId) };
}

/** PUT /acct/select-business: must be one of the connected account's businesses. */
export async function selectBusiness(ctx: Ctx, input: { businessId: string; acctBusinessId: string; acctBusinessName: string }) {
  const customerId = business(ctx, input.businessId, true);
  const provider = providerOf(ctx);
  const { token, link } = await tokenOf(ctx, await linkOf(ctx, customerId), provider);
  const found = (await provider.businesses(token)).find((b) => b.id === input.acctBusinessId);
  if (!found)
    throw new ApiError('bad_request', 'Unknown business: pick one from GET /acct/businesses', {
      details: [{ field: 'acctBusinessId', message: 'not a business of the account' }],
    });
  const changed = link.acctBusinessId !== found.id;
  await commit(
    ctx,
    [
      ctx.db
        .update(acctLinks)
        .set({ acctBusinessId: found.id, acctBusinessName: input.acctBusinessName, ...(changed ? { bankAccountId: null } : {}) })
        .where(eq(acctLinks.customerId, customerId)),
    ],
    { audit: { action: 'accounting.select_business', targetType: 'accounting', targetId: customerId, details: { acctBusinessId: found.id } } },
  );
  return linkOut(customerId, { ...link, acctBusinessId: found.id, acctBusinessName: input.acctBusinessName, ...(changed ? { bankAccountId: null } : {}) });
}

/** PUT /acct/bank-account: a bank or cash account of the selected business. */
export async function setBankAccount(ctx: Ctx, input: { businessId: string; bankAccountId: string }) {
  const customerId = business(ctx, input.businessId, true);
  const provider = providerOf(ctx);
  const { token, link } = await tokenOf(ctx, await linkOf(ctx, customerId), provider);
  if (!link.acctBusinessId) throw acctFail('accounting_not_ready', 'Select the business first (PUT /acct/select-business)');
  const account = (await provider.accounts(token, link.acctBusinessId)).find((a) => a.id === input.bankAccountId);
  if (!account?.isBank)
    throw new ApiError('bad_request', 'Not a bank or cash account of the business', {
      details: [{ field: 'bankAccountId', message: 'must be a bank account' }],
    });
  await commit(ctx, [ctx.db.update(acctLinks).set({ bankAccountId: account.id }).where(eq(acctLinks.customerId, customerId))], {
    audit: { action: 'accounting.bank_account', targetType: 'accounting', targetId: customerId, details: { bankAccountId: account.id } },
  });
  return linkOut(customerId, { ...link, bankAccountId: account.id });
}

/** GET /acct/gl-mappings */
export async function getGlMappings(ctx: Ctx, businessId: string) {
  const customerId = business(ctx, businessId);
  const link = await linkOf(ctx, customerId);
  const mappings = link?.glMappings ?? {};
  return {
    businessId: customerId,
    glMappings: mappings,
    accounts: GL_KEYS.map((key) => ({ key, description: GL_ACCOUNTS[key], accountId: mappings[key] ?? null })),
    missing: missingMappings({ glMappings: mappings, bankAccountId: link?.bankAccountId ?? null }),
  };
}

/** PUT /acct/gl-mappings: replaces the mappings (GL key to provider account id); checked against the chart when connected. */
export async function setGlMappings(ctx: Ctx, input: { businessId: string; glMappings: Record<string, string> }) {
  const customerId = business(ctx, input.businessId, true);
  const unknown = Object.keys(input.glMappings).filter((k) => !(GL_KEYS as string[]).includes(k));
  if (unknown.length)
    throw new ApiError('validation_failed', `Unknown GL keys: ${unknown.join(', ')}; known: ${GL_KEYS.join(', ')}`, {
      details: unknown.map((k) => ({ field: `glMappings.${k}`, message: 'unknown GL key' })),
    });
  const link = await linkOf(ctx, customerId);
  if (link?.status === 'connected' && link.acctBusinessId) {
    const provider = providerOf(ctx);
    const { token } = await tokenOf(ctx, link, provider);
    const ids = new Set((await provider.accounts(token, link.acctBusinessId)).map((a) => a.id));
    const bad = Object.entries(input.glMappings).filter(([, id]) => !ids.has(id));
    if (bad.length)
      throw new ApiError('validation_failed', 'Some accounts are not in the chart of accounts of the selected business', {
        details: bad.map(([k]) => ({ field: `glMappings.${k}`, message: 'unknown account' })),
      });
  }
  await commit(
    ctx,
    [
      link
        ? ctx.db.update(acctLinks).set({ glMappings: input.glMappings }).where(eq(acctLinks.customerId, customerId))
        : ctx.db.insert(acctLinks).values({ customerId, status: 'disconnected', glMappings: input.glMappings }),
    ],
    { audit: { action: 'accounting.gl_mappings', targetType: 'accounting', targetId: customerId, details: { keys: Object.keys(input.glMappings) } } },
  );
  return getGlMappings(ctx, customerId);
}
