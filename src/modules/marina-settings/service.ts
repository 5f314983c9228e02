/**
 * The marina-settings module's face. Other modules use it for:
 * - a location's effective marina settings (the slip modules, haul services, meter readings): getSlipSettings, SlipSettings.
 * - the setting values and lines they name: RATE_TYPES, RateType, HAUL_SERVICE_TYPES, HaulServiceType, ChargeLine, UtilityRates.
 * - writing a location's settings (the seed): updateSlipSettings.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { slipSettings } from '../../db/schema/marina-settings';
import { getLocationInTenant } from '../locations/service';
import { DEFAULT_SLIP_SETTINGS, type SlipSettings } from './types';

export { HAUL_SERVICE_TYPES, RATE_TYPES, type ChargeLine, type HaulServiceType, type RateType, type SlipSettings, type UtilityRates } from './types';

type Stored = Partial<Record<keyof typeof DEFAULT_SLIP_SETTINGS, unknown>>;
const NESTED = ['deposit', 'clearances', 'rates', 'utilityRates', 'haulRates'] as const;

function merge(stored: Stored): Omit<SlipSettings, 'locationId' | 'isCustomized' | 'updatedAt'> {
  const out: Record<string, unknown> = { ...DEFAULT_SLIP_SETTINGS, ...stored };
  for (const k of NESTED) out[k] = { ...DEFAULT_SLIP_SETTINGS[k], ...((stored[k] as object | undefined) ?? {}) };
  return out as Omit<SlipSettings, 'locationId' | 'isCustomized' | 'updatedAt'>;
}

/**
 * The effective marina settings of a location of the caller (defaults merged with what the
 * operator changed). Another operator's location answers 404. Read by slips (clearances), slip
 * reservations (rates, deposit, bill hold) and contracts (default template).
 */
export async function getSlipSettings(ctx: Ctx, locationId: string): Promise<SlipSettings> {
  const loc = await getLocationInTenant(ctx, locationId);
  const row = await ctx.db
    .select()
    .from(slipSettings)
    .where(and(eq(slipSettings.customerId, loc.customerId), eq(slipSettings.locationId, loc.id)))
    .get();
  return { locationId: loc.id, ...merge((row?.settings ?? {}) as Stored), isCustomized: !!row, updatedAt: row?.updatedAt ?? null };
}

/** PUT: a partial change; nested objects (deposit, clearances, rates) merge field by field, lists replace. */
export async function updateSlipSettings(ctx: Ctx, locationId: string, patch: Stored) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  const current = await getSlipSettings(ctx, locationId);
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one setting to change');
  const row = await ctx.db
    .select()
    .from(slipSettings)
    .where(and(eq(slipSettings.customerId, customerId), eq(slipSettings.locationId, locationId)))
    .get();
  const stored: Stored = { ...((row?.settings ?? {}) as Stored) };
  for (const [k, v] of Object.entries(patch) as [keyof Stored, unknown][]) {
    if (v === undefined) continue;
    stored[k] = (NESTED as readonly string[]).includes(k) ? { ...((stored[k] as object | undefined) ?? {}), ...(v as object) } : v;
  }
  const merged = merge(stored);
  if (merged.deposit.policy === 'percent' && !(merged.deposit.percent > 0))
    throw new ApiError('validation_failed', 'A percent deposit needs deposit.percent above 0', {
      details: [{ field: 'deposit.percent', message: 'must be above 0 when policy is percent' }],
    });
  if (merged.deposit.policy === 'fixed' && !(merged.deposit.amountCents > 0))
    throw new ApiError('validation_failed', 'A fixed deposit needs deposit.amountCents above 0', {
      details: [{ field: 'deposit.amountCents', message: 'must be above 0 when policy is fixed' }],
    });
  const now = nowIso(ctx);
  const stmt = ctx.db
    .insert(slipSettings)
    .values({ id: newId('sset'), customerId, locationId, settings: stored as Record<string, unknown> })
    .onConflictDoUpdate({ target: [slipSettings.customerId, slipSettings.locationId], set: { settings: stored as Record<string, unknown>, updatedAt: now } });
  await commit(ctx, [stmt], {
    audit: { action: 'slip_settings.update', targetType: 'location', targetId: locationId, details: { fields: Object.keys(patch) } },
  });
  return { ...current, ...merged, isCustomized: true, updatedAt: now };
}

/** Back to the defaults (the stored changes are deleted). */
export async function resetSlipSettings(ctx: Ctx, locationId: string) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  await commit(ctx, [ctx.db.delete(slipSettings).where(and(eq(slipSettings.customerId, customerId), eq(slipSettings.locationId, locationId)))], {
    audit: { action: 'slip_settings.reset', targetType: 'location', targetId: locationId },
  });
  return getSlipSettings(ctx, locationId);
}
