import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { InventoryData } from './model';
import { detail, invalid } from './errors';
import { assetsOf, getItemInTenant, locationOf } from './queries';
import { isAllYear, isRemoved, pricingView } from './views';
import { checkExpected, dataUpdateStmt, withVersionRetry } from './version';
import { checkBlockAssets, checkRules } from './rules';

export async function getPricing(ctx: Ctx, q: { inventory_id?: string; inventoryId?: string }) {
  const item = await getItemInTenant(ctx, (q.inventory_id ?? q.inventoryId)!);
  return pricingView(item, await locationOf(ctx, item));
}

const REPLACED_PRICING_FIELDS = [
  'seasons',
  'tourPricing',
  'addons',
  'taxes',
  'scheduleExceptions',
  'capacityOverrides',
  'maintenanceBlocks',
  'deposit',
  'turnaroundBufferMinutes',
] as const;

export interface PricingInput {
  inventory_id?: string;
  inventoryId?: string;
  expectedVersion?: number;
  seasons?: unknown[];
  hourlyPrices?: Record<string, unknown>;
  dailyPrices?: Record<string, number>;
  tourPricing?: unknown;
  addons?: unknown[];
  taxes?: unknown[];
  scheduleExceptions?: unknown[];
  capacityOverrides?: unknown[];
  maintenanceBlocks?: unknown[];
  deposit?: unknown;
  turnaroundBufferMinutes?: number;
}

export async function updatePricing(ctx: Ctx, input: PricingInput) {
  requirePermission(ctx, 'inventory');
  const id = (input.inventory_id ?? input.inventoryId)!;
  const given = REPLACED_PRICING_FIELDS.filter((k) => input[k] !== undefined);
  if (!given.length && !input.hourlyPrices && !input.dailyPrices) {
    throw new ApiError(
      'no_changes',
      'Give at least one pricing field: seasons, hourlyPrices, dailyPrices, tourPricing, addons, taxes, scheduleExceptions, capacityOverrides, ' +
        'maintenanceBlocks, deposit or turnaroundBufferMinutes',
    );
  }
  return withVersionRetry(input.expectedVersion, async () => {
    const item = await getItemInTenant(ctx, id);
    checkExpected(item, input.expectedVersion);
    const next: Record<string, unknown> = { name: item.name, type: item.kind, locationId: item.locationId, ...(item.data ?? {}) };
    for (const k of given) {
      if (input[k] === null) delete next[k];
      else next[k] = input[k];
    }
    if (input.hourlyPrices || input.dailyPrices) {
      const seasons = [...((next.seasons as Record<string, unknown>[] | undefined) ?? [])];
      let i = seasons.findIndex((s) => isAllYear(s as { startDate?: string; endDate?: string }));
      if (i < 0) {
        seasons.push({ name: 'Default', dailyPrices: {}, hourlyPrices: {} });
        i = seasons.length - 1;
      }
      const s = seasons[i];
      seasons[i] = {
        ...s,
        hourlyPrices: { ...((s.hourlyPrices as object) ?? {}), ...(input.hourlyPrices ?? {}) },
        dailyPrices: { ...((s.dailyPrices as object) ?? {}), ...(input.dailyPrices ?? {}) },
      };
      next.seasons = seasons;
    }
    const parsed = InventoryData.safeParse(next);
    if (!parsed.success) {
      throw invalid(parsed.error.issues.map((iss) => detail(`data.${iss.path.map(String).join('.')}`, iss.message, iss.code)));
    }
    checkRules(parsed.data);
    const assets = await assetsOf(ctx, item);
    checkBlockAssets(parsed.data, new Set(assets.filter((a) => !isRemoved(a)).map((a) => a.id)));
    await commit(ctx, [dataUpdateStmt(ctx, item, parsed.data as Record<string, unknown>)], {
      audit: {
        action: 'inventory.pricing_update',
        targetType: 'inventory_item',
        targetId: item.id,
        details: {
          fields: [...given, ...(input.hourlyPrices ? ['hourlyPrices'] : []), ...(input.dailyPrices ? ['dailyPrices'] : [])],
          version: item.version + 1,
        },
      },
    });
    const fresh = await getItemInTenant(ctx, id);
    return { success: true, ...pricingView(fresh, await locationOf(ctx, fresh)) };
  });
}
