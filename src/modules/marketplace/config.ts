/**
 * The operator's marketplace configuration (POST /ota/admin/configure, admins only) and the
 * principal the marketplace acts under. The inbound key is stored as a SHA-256 (unique
 * across operators), the outbound key sealed with AES-GCM; neither is ever returned.
 */
import { and, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx, Principal } from '../../lib/context';
import { ownCustomer, requireAdmin } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { seal } from '../../lib/sealed';
import { marketplaceConfigs } from '../../db/schema/marketplace';
import type { ConfigRow } from './types';
import { configOut } from './views';
import { configOf } from './queries';

/** POST /ota/admin/configure: creates or replaces the configuration. */
export async function configure(
  ctx: Ctx,
  input: { customerId: string; supplierId: string; apiKey: string; outboundApiKey?: string; currency?: string; isActive?: boolean },
) {
  requireAdmin(ctx);
  const customerId = ownCustomer(ctx, input.customerId);
  const existing = await configOf(ctx);
  const apiKeyHash = await sha256Hex(input.apiKey);
  const clash = await ctx.db
    .select({ customerId: marketplaceConfigs.customerId })
    .from(marketplaceConfigs)
    .where(eq(marketplaceConfigs.apiKeyHash, apiKeyHash))
    .get();
  if (clash && clash.customerId !== customerId) throw new ApiError('already_exists', 'This apiKey is already used by another configuration; choose another');
  const now = nowIso(ctx);
  const row: ConfigRow = {
    id: existing?.id ?? newId('mkc'),
    customerId,
    supplierId: input.supplierId,
    apiKeyHash,
    apiKeyLast4: input.apiKey.slice(-4),
    outboundApiKey: input.outboundApiKey ? await seal(ctx.env, input.outboundApiKey) : (existing?.outboundApiKey ?? null),
    currency: input.currency ?? existing?.currency ?? 'usd',
    isActive: input.isActive ?? existing?.isActive ?? true,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  const { id: _id, customerId: _c, createdAt: _created, ...changes } = row;
  try {
    await commit(
      ctx,
      [
        existing
          ? ctx.db
              .update(marketplaceConfigs)
              .set(changes)
              .where(and(eq(marketplaceConfigs.id, existing.id), eq(marketplaceConfigs.customerId, customerId)))
          : ctx.db.insert(marketplaceConfigs).values(row),
      ],
      {
        audit: {
          action: existing ? 'marketplace.reconfigure' : 'marketplace.configure',
          targetType: 'marketplace_config',
          targetId: row.id,
          details: { supplierId: row.supplierId, currency: row.currency, isActive: row.isActive, outboundKeyChanged: !!input.outboundApiKey },
        },
      },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'This apiKey is already used by another configuration; choose another');
    throw err;
  }
  return configOut(row);
}

/** GET /ota/admin/configuration */
export async function getConfiguration(ctx: Ctx) {
  requireAdmin(ctx);
  const c = await configOf(ctx);
  if (!c) throw notFound('Marketplace configuration');
  return configOut(c);
}

/** The marketplace acting for the operator it sells. */
export function marketplacePrincipal(cfg: ConfigRow): Principal {
  return {
    kind: 'system',
    credentialId: `marketplace:${cfg.id}`,
    userId: null,
    customerId: cfg.customerId,
    role: 'admin',
    permissions: ['marketplace'],
    plan: 'enterprise',
    name: 'Tour marketplace',
  };
}
