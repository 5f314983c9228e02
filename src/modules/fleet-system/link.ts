/**
 * The fleet-software link of an operator: connect (a token fetched with the client credentials and
 * the connection tested before anything is saved), status, disconnect, product mappings, and the
 * calls made with a cached token (refreshed when it expires, or once when the system answers 401).
 * Provider refusals become 400 `fleetsys_refused` (404 when the record is unknown there, 503 when
 * the system is unreachable).
 */
import { eq } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requireAdmin, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { seal, unseal } from '../../lib/sealed';
import { checkOutboundUrl } from '../../adapters/http';
import { defaultApiBase, fleetProvider, type FleetCredentials, type FleetProvider } from '../../adapters/fleet';
import { ProviderError } from '../../adapters/simulators';
import { fleetsysLinks, type FleetProductMapping } from '../../db/schema/fleet-system';
import { getAssetsInTenant } from '../inventory/service';
import { fleetFail } from './errors';
import { linkOf, ownItemIds } from './queries';
import { mappingsOut, statusOut, type LinkRow } from './views';

export function customerOf(ctx: Ctx, customerId: string, write = false) {
  const id = ownCustomer(ctx, customerId);
  if (write) requireAdmin(ctx);
  else requirePermission(ctx, 'integrations');
  return id;
}

function asApiError(err: unknown): unknown {
  if (!(err instanceof ProviderError)) return err;
  if (err.kind === 'not_found') return new ApiError('not_found', `Not found in the fleet system: ${err.message}`);
  if (err.kind === 'transient' || err.kind === 'rate_limited') return new ApiError('service_unavailable', `${err.message}; retry later`);
  if (err.kind === 'auth') return fleetFail('fleetsys_connection_failed', 'The fleet system refused the stored credentials; connect again');
  return fleetFail('fleetsys_refused', err.message);
}

/** GET /fleetsys/status */
export async function status(ctx: Ctx, customerId: string) {
  const id = customerOf(ctx, customerId);
  return statusOut(id, await linkOf(ctx, id), fleetProvider(ctx.env).name);
}

/** POST /fleetsys/connect: nothing is saved unless a token is obtained and a test call succeeds. */
export async function connect(ctx: Ctx, input: { customerId: string; clientId: string; clientSecret: string; tokenUrl: string; apiBaseUrl?: string }) {
  const id = customerOf(ctx, input.customerId, true);
  // The operator's own fleet system: the outbound URL policy, with a local fleet system allowed while developing.
  for (const [field, url] of [['tokenUrl', input.tokenUrl], ...(input.apiBaseUrl ? [['apiBaseUrl', input.apiBaseUrl]] : [])] as const) {
    await checkOutboundUrl(ctx.env, url, { field, localInDevelopment: true });
  }
  const creds: FleetCredentials = {
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    tokenUrl: input.tokenUrl,
    apiBaseUrl: input.apiBaseUrl ?? defaultApiBase(input.tokenUrl),
  };
  const provider = fleetProvider(ctx.env);
  let token;
  try {
    token = await provider.token(creds);
    await provider.inventoryTypes(creds, token.accessToken);
  } catch (err) {
    const reason = err instanceof ProviderError ? err.message : err instanceof ApiError ? err.message : 'the fleet system could not be reached';
    throw fleetFail('fleetsys_connection_failed', `The connection test failed: ${reason}`);
  }
  const existing = await linkOf(ctx, id);
  const now = nowIso(ctx);
  const values = {
    clientId: creds.clientId,
    clientSecret: await seal(ctx.env, creds.clientSecret),
    tokenUrl: creds.tokenUrl,
    apiBaseUrl: creds.apiBaseUrl,
    status: 'active' as const,
    accessToken: await seal(ctx.env, token.accessToken),
    tokenExpiresAt: token.expiresAt,
    lastTestedAt: now,
    lastError: null,
    updatedAt: now,
  };
  await commit(
    ctx,
    [
      existing
        ? ctx.db.update(fleetsysLinks).set(values).where(eq(fleetsysLinks.customerId, id))
        : ctx.db.insert(fleetsysLinks).values({ customerId: id, ...values }),
    ],
    { audit: { action: 'fleetsys.connect', targetType: 'fleetsys', targetId: id, details: { clientId: creds.clientId, tokenUrl: creds.tokenUrl } } },
  );
  return { success: true, ...(await status(ctx, id)) };
}

/** DELETE /fleetsys/disconnect: the credentials and cached token are deleted (sync records stay). Idempotent. */
export async function disconnect(ctx: Ctx, customerId: string) {
  const id = customerOf(ctx, customerId, true);
  const existing = await linkOf(ctx, id);
  if (existing)
    await commit(ctx, [ctx.db.delete(fleetsysLinks).where(eq(fleetsysLinks.customerId, id))], {
      audit: { action: 'fleetsys.disconnect', targetType: 'fleetsys', targetId: id },
    });
  return { success: true, customerId: id, disconnected: !!existing };
}

export interface Session {
  link: LinkRow;
  creds: FleetCredentials;
  provider: FleetProvider;
  call<T>(fn: (token: string) => Promise<T>): Promise<T>;
}

/** The connected link and a caller that handles tokens and maps provider errors. */
export async function session(ctx: Ctx, customerId: string): Promise<Session> {
  const link = await linkOf(ctx, customerId);
  if (!link) throw fleetFail('fleetsys_not_connected', 'The fleet system is not connected');
  const provider = fleetProvider(ctx.env);
  const creds: FleetCredentials = {
    clientId: link.clientId,
    clientSecret: await unseal(ctx.env, link.clientSecret),
    tokenUrl: link.tokenUrl,
    apiBaseUrl: link.apiBaseUrl,
  };
  // The provider's access token expires on the provider's clock: real time.
  let token = link.accessToken && (link.tokenExpiresAt ?? 0) > wallClock.now() + 60_000 ? await unseal(ctx.env, link.accessToken) : null;
  const fresh = async () => {
    const t = await provider.token(creds);
    token = t.accessToken;
    await ctx.db
      .update(fleetsysLinks)
      .set({ accessToken: await seal(ctx.env, t.accessToken), tokenExpiresAt: t.expiresAt, status: 'active', lastError: null })
      .where(eq(fleetsysLinks.customerId, customerId));
    return token;
  };
  return {
    link,
    creds,
    provider,
    async call<T>(fn: (token: string) => Promise<T>): Promise<T> {
      try {
        try {
          return await fn(token ?? (await fresh()));
        } catch (err) {
          if (!(err instanceof ProviderError && err.kind === 'auth')) throw err;
          return await fn(await fresh());
        }
      } catch (err) {
        if (err instanceof ProviderError && err.kind === 'auth')
          await ctx.db
            .update(fleetsysLinks)
            .set({ status: 'error', lastError: err.message.slice(0, 500) })
            .where(eq(fleetsysLinks.customerId, customerId));
        throw asApiError(err);
      }
    },
  };
}

/** GET /fleetsys/product-mappings */
export async function getMappings(ctx: Ctx, customerId: string) {
  const id = customerOf(ctx, customerId);
  return mappingsOut(id, await linkOf(ctx, id));
}

/** PUT /fleetsys/product-mappings: replaces the mappings; items and assets must be the operator's, products the fleet system's. */
export async function setMappings(ctx: Ctx, input: { customerId: string; mappings: { inventoryId: string; assetId?: string | null; productId: string }[] }) {
  const id = customerOf(ctx, input.customerId, true);
  const s = await session(ctx, id);
  const itemIds = [...new Set(input.mappings.map((m) => m.inventoryId))];
  const assetIds = [...new Set(input.mappings.map((m) => m.assetId).filter((a): a is string => !!a))];
  const items = await ownItemIds(ctx, id, itemIds);
  const assets = await getAssetsInTenant(ctx, assetIds);
  const products = new Set((await s.call((t) => s.provider.products(s.creds, t))).map((p) => p.id));
  const problems = input.mappings.flatMap((m, i) => [
    ...(!items.has(m.inventoryId) ? [{ field: `mappings.${i}.inventoryId`, message: 'unknown inventory item' }] : []),
    ...(m.assetId && !assets.some((a) => a.id === m.assetId && a.itemId === m.inventoryId)
      ? [{ field: `mappings.${i}.assetId`, message: 'not an asset of the item' }]
      : []),
    ...(!products.has(m.productId) ? [{ field: `mappings.${i}.productId`, message: 'not a product of the fleet system' }] : []),
  ]);
  if (problems.length)
    throw new ApiError('validation_failed', `Invalid mappings: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, { details: problems });
  const mappings: FleetProductMapping[] = input.mappings.map((m) => ({ inventoryId: m.inventoryId, assetId: m.assetId ?? null, productId: m.productId }));
  await commit(ctx, [ctx.db.update(fleetsysLinks).set({ productMappings: mappings }).where(eq(fleetsysLinks.customerId, id))], {
    audit: { action: 'fleetsys.mappings', targetType: 'fleetsys', targetId: id, details: { count: mappings.length } },
  });
  return getMappings(ctx, id);
}
