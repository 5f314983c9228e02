import type { Ctx } from '../../lib/context';
import { isAdmin, isPlatformStaff } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import { BUNDLES, PLANS, bundleOf, planOf, type BundleDef, type PlanDef } from './catalog';
import { effectivePricing, effectiveSettings } from './settings';

type Settings = Awaited<ReturnType<typeof effectiveSettings>>;

function planOut(p: PlanDef, s: Settings | null) {
  const eff = effectivePricing(p.planCode, s?.planOverrides);
  return {
    planCode: p.planCode,
    industry: p.industry,
    name: p.name,
    description: p.description,
    category: p.category,
    percentage: eff.percentage,
    minimum: toDollars(eff.minimum),
    maxCap: eff.maxCap === null ? null : toDollars(eff.maxCap),
    coverage: p.coverage,
    active: p.active,
    enabled: p.active && (s ? s.enabledPlanCodes.includes(p.planCode) : true),
    overridden: Boolean(s?.planOverrides?.[p.planCode]),
  };
}

function bundleOut(b: BundleDef, s: Settings | null, withPlans = false) {
  return {
    bundleCode: b.bundleCode,
    industry: b.industry,
    name: b.name,
    description: b.description,
    planCodes: b.planCodes,
    discountPercentage: b.discountPercentage,
    active: b.active,
    enabled: b.active && (s ? s.enabledBundleCodes.includes(b.bundleCode) : true),
    ...(withPlans ? { plans: b.planCodes.map((c) => planOut(planOf(c)!, s)) } : {}),
  };
}

/**
 * GET /api/v2/protection-plans: the industry's plans; with `locationId`, each marked `enabled` as that
 * location offers it and priced with its overrides. `includeInactive` lists retired plans too and is
 * for operator admins (and platform staff) only: 403 otherwise.
 */
export async function listPlans(ctx: Ctx, q: { industry: string; locationId?: string; includeInactive?: boolean }) {
  if (q.includeInactive && !(isAdmin(ctx.principal) || isPlatformStaff(ctx.principal)))
    throw new ApiError('forbidden', 'includeInactive is for admins: send admin credentials');
  const s = q.locationId ? await effectiveSettings(ctx, q.locationId, q.industry) : null;
  return {
    industry: q.industry,
    locationId: q.locationId ?? null,
    data: PLANS.filter((p) => p.industry === q.industry && (p.active || q.includeInactive)).map((p) => planOut(p, s)),
  };
}

export async function listBundles(ctx: Ctx, q: { industry: string; locationId?: string }) {
  const s = q.locationId ? await effectiveSettings(ctx, q.locationId, q.industry) : null;
  return {
    industry: q.industry,
    locationId: q.locationId ?? null,
    data: BUNDLES.filter((b) => b.industry === q.industry && b.active).map((b) => bundleOut(b, s)),
  };
}

/** One plan (a retired one only for admins; 404 otherwise). */
export async function getPlan(ctx: Ctx, planCode: string) {
  const p = planOf(planCode);
  if (!p || (!p.active && !(isAdmin(ctx.principal) || isPlatformStaff(ctx.principal)))) throw notFound('Protection plan');
  return planOut(p, null);
}

export async function getBundle(_ctx: Ctx, bundleCode: string) {
  const b = bundleOf(bundleCode);
  if (!b || !b.active) throw notFound('Protection bundle');
  return bundleOut(b, null, true);
}
