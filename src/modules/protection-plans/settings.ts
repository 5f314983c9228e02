import { nowIso } from '../../lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { protectionSettings } from '../../db/schema/protection-plans';
import { getLocationInTenant } from '../locations/service';
import { BUNDLES, PLANS, bundleOf, planOf, type Industry } from './catalog';

export type SettingsRow = typeof protectionSettings.$inferSelect;
type Overrides = SettingsRow['planOverrides'];

/** The defaults of a location without settings: every active plan and bundle of the industry, no overrides. */
export function defaults(industry: string) {
  return {
    industry,
    enabledPlanCodes: PLANS.filter((p) => p.industry === industry && p.active).map((p) => p.planCode),
    enabledBundleCodes: BUNDLES.filter((b) => b.industry === industry && b.active).map((b) => b.bundleCode),
    planOverrides: {} as Overrides,
  };
}

/** A location's settings (public reads too: unknown locations simply get the defaults). */
export async function effectiveSettings(ctx: Ctx, locationId: string | undefined, industry = 'marine') {
  const row = locationId ? await ctx.db.select().from(protectionSettings).where(eq(protectionSettings.locationId, locationId)).get() : undefined;
  if (row) return { ...row, isDefault: false };
  return { ...defaults(industry), isDefault: true, updatedAt: null as string | null };
}

const settingsOut = (locationId: string, s: Awaited<ReturnType<typeof effectiveSettings>>) => ({
  locationId,
  industry: s.industry,
  enabledPlanCodes: s.enabledPlanCodes,
  enabledBundleCodes: s.enabledBundleCodes,
  planOverrides: s.planOverrides ?? {},
  isDefault: s.isDefault,
  updatedAt: s.updatedAt ?? null,
});

/** GET: the location's settings, or its defaults (`isDefault: true`, still 200). */
export async function getSettings(ctx: Ctx, locationId: string) {
  const loc = await getLocationInTenant(ctx, locationId);
  return settingsOut(loc.id, await effectiveSettings(ctx, loc.id));
}

function checkCodes(industry: string, plans: string[] | undefined, bundles: string[] | undefined, overrides: Record<string, unknown> | undefined) {
  const bad = (field: string, v: string) =>
    new ApiError('bad_request', `Unknown ${field === 'enabledBundleCodes' ? 'bundle' : 'plan'} code "${v}" for industry ${industry}`, {
      details: [{ field, message: `unknown code ${v}` }],
    });
  for (const c of plans ?? []) if (planOf(c)?.industry !== industry) throw bad('enabledPlanCodes', c);
  for (const c of bundles ?? []) if (bundleOf(c)?.industry !== industry) throw bad('enabledBundleCodes', c);
  for (const c of Object.keys(overrides ?? {})) if (planOf(c)?.industry !== industry) throw bad('planOverrides', c);
}

const overrideCents = (o: { percentage?: number; maxCap?: number }) => ({
  ...(o.percentage !== undefined ? { percentage: o.percentage } : {}),
  ...(o.maxCap !== undefined ? { maxCap: o.maxCap } : {}),
});

/** The row exists before a partial change (seeded with the defaults), in the same batch. */
const ensureRow = (ctx: Ctx, customerId: string, locationId: string, industry: string): Stmt => {
  const d = defaults(industry);
  return ctx.db
    .insert(protectionSettings)
    .values({
      id: newId('pset'),
      customerId,
      locationId,
      industry,
      enabledPlanCodes: d.enabledPlanCodes,
      enabledBundleCodes: d.enabledBundleCodes,
      planOverrides: {},
    })
    .onConflictDoNothing();
};

/** PUT settings: replaces the fields given (codes checked against the industry's catalog: 400 for unknown ones). */
export async function putSettings(
  ctx: Ctx,
  locationId: string,
  input: {
    industry?: Industry;
    enabledPlanCodes?: string[];
    enabledBundleCodes?: string[];
    planOverrides?: Record<string, { percentage?: number; maxCap?: number }>;
  },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'settings');
  const loc = await getLocationInTenant(ctx, locationId);
  const current = await effectiveSettings(ctx, loc.id);
  const industry = input.industry ?? current.industry;
  checkCodes(industry, input.enabledPlanCodes, input.enabledBundleCodes, input.planOverrides);
  const base = input.industry && input.industry !== current.industry ? defaults(industry) : current;
  const next = {
    industry,
    enabledPlanCodes: [...new Set(input.enabledPlanCodes ?? base.enabledPlanCodes)],
    enabledBundleCodes: [...new Set(input.enabledBundleCodes ?? base.enabledBundleCodes)],
    planOverrides: input.planOverrides
      ? Object.fromEntries(Object.entries(input.planOverrides).map(([k, v]) => [k, overrideCents(v)]))
      : (base.planOverrides ?? {}),
  };
  await commit(
    ctx,
    [
      ctx.db
        .insert(protectionSettings)
        .values({ id: newId('pset'), customerId, locationId: loc.id, ...next })
        .onConflictDoUpdate({ target: [protectionSettings.customerId, protectionSettings.locationId], set: { ...next, updatedAt: nowIso(ctx) } }),
    ],
    { audit: { action: 'protection.settings.put', targetType: 'location', targetId: loc.id, details: next } },
  );
  return getSettings(ctx, loc.id);
}

const jsonWithout = (col: typeof protectionSettings.enabledPlanCodes, v: string) =>
  sql`(SELECT coalesce(json_group_array(value), '[]') FROM json_each(${col}) WHERE value != ${v})`;
const jsonWith = (col: typeof protectionSettings.enabledPlanCodes, v: string) =>
  sql`(CASE WHEN EXISTS (SELECT 1 FROM json_each(${col}) WHERE value = ${v}) THEN ${col} ELSE json_insert(${col}, '$[#]', ${v}) END)`;

/**
 * Enable or disable one plan or bundle at a location (an unknown code answers 404). The change is
 * one SQL update of the JSON list, so two admins toggling different plans at once both land.
 * Enabling an enabled one, or disabling a disabled one, changes nothing and answers 200.
 */
export async function togglePlan(ctx: Ctx, locationId: string, kind: 'plan' | 'bundle', code: string, enable: boolean) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'settings');
  const loc = await getLocationInTenant(ctx, locationId);
  const current = await effectiveSettings(ctx, loc.id);
  const def = kind === 'plan' ? planOf(code) : bundleOf(code);
  if (!def || def.industry !== current.industry) throw notFound(`Protection ${kind} ${code} (industry ${current.industry})`);
  if (enable && !def.active) throw new ApiError('bad_request', `The ${kind} ${code} is retired and cannot be enabled`);
  const col = kind === 'plan' ? protectionSettings.enabledPlanCodes : protectionSettings.enabledBundleCodes;
  await commit(
    ctx,
    [
      ensureRow(ctx, customerId, loc.id, current.industry),
      ctx.db
        .update(protectionSettings)
        .set({
          [kind === 'plan' ? 'enabledPlanCodes' : 'enabledBundleCodes']: enable ? jsonWith(col, code) : jsonWithout(col, code),
          updatedAt: nowIso(ctx),
        })
        .where(and(eq(protectionSettings.customerId, customerId), eq(protectionSettings.locationId, loc.id))),
    ],
    { audit: { action: `protection.${kind}.${enable ? 'enable' : 'disable'}`, targetType: 'location', targetId: loc.id, details: { code } } },
  );
  return getSettings(ctx, loc.id);
}

/** Set (PUT) or remove (DELETE) a plan's override at a location; unknown plan 404; removing an absent override answers 200 unchanged. */
export async function setOverride(ctx: Ctx, locationId: string, planCode: string, o: { percentage?: number; maxCap?: number } | null) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'settings');
  const loc = await getLocationInTenant(ctx, locationId);
  const current = await effectiveSettings(ctx, loc.id);
  const plan = planOf(planCode);
  if (!plan || plan.industry !== current.industry) throw notFound(`Protection plan ${planCode} (industry ${current.industry})`);
  if (o && o.percentage === undefined && o.maxCap === undefined)
    throw new ApiError('validation_failed', 'Give percentage, maxCap or both', {
      details: [{ field: 'percentage', code: 'required', message: 'percentage or maxCap is required' }],
    });
  const path = `$."${planCode}"`;
  await commit(
    ctx,
    [
      ensureRow(ctx, customerId, loc.id, current.industry),
      ctx.db
        .update(protectionSettings)
        .set({
          planOverrides: o
            ? sql`json_set(${protectionSettings.planOverrides}, ${path}, json(${JSON.stringify(overrideCents(o))}))`
            : sql`json_remove(${protectionSettings.planOverrides}, ${path})`,
          updatedAt: nowIso(ctx),
        })
        .where(and(eq(protectionSettings.customerId, customerId), eq(protectionSettings.locationId, loc.id))),
    ],
    {
      audit: {
        action: o ? 'protection.override.set' : 'protection.override.remove',
        targetType: 'location',
        targetId: loc.id,
        details: { planCode, ...(o ?? {}) },
      },
    },
  );
  return getSettings(ctx, loc.id);
}

/** A plan's effective pricing at a location (cents): the location's override over the catalog. */
export function effectivePricing(planCode: string, overrides: Overrides | undefined) {
  const p = planOf(planCode)!;
  const o = overrides?.[planCode];
  return { percentage: o?.percentage ?? p.percentage, minimum: p.minimum, maxCap: o?.maxCap !== undefined ? toCents(o.maxCap) : p.maxCap };
}

export const dollarsOrNull = (c: number | null) => (c === null ? null : toDollars(c));
