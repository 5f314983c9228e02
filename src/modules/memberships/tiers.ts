/** Membership tiers: CRUD. A tier with memberships that are not canceled cannot be deleted (deactivate it instead). */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { memberships, membershipTiers } from '../../db/schema/memberships';
import { membershipErrors } from './errors';
import { requireManage } from './access';
import { getTierInTenant } from './queries';
import { LIVE_STATUSES } from './types';
import { tierOut, type TierRow } from './views';
import { nowIso } from '../../lib/clock';

interface TierFields {
  name?: string;
  description?: string;
  scope?: 'all_locations' | 'selected_locations';
  locationIds?: string[];
  pricing?: { monthly?: number | null; yearly?: number | null; currency?: string };
  benefits?: { discountPercentage?: number; creditsPerPeriod?: number; perks?: string[] };
  pausePolicy?: { enabled?: boolean; maxPausesPerYear?: number; maxPauseDays?: number };
  familyOptions?: { enabled?: boolean; maxMembers?: number };
  allowedMemberTypes?: ('individual' | 'family' | 'organization')[];
  displayOrder?: number;
  isActive?: boolean;
  isPublic?: boolean;
}

const bad = (message: string, field: string) => new ApiError('bad_request', message, { details: [{ field, message }] });

function checkScope(scope: string, locationIds: string[]) {
  if (scope === 'selected_locations' && !locationIds.length) throw bad('A tier scoped to selected locations needs locationIds', 'locationIds');
}

export async function listTiers(ctx: Ctx, q: { customerId: string; activeOnly?: boolean }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const conds = [eq(membershipTiers.customerId, customerId), isNull(membershipTiers.deletedAt)];
  if (q.activeOnly) conds.push(eq(membershipTiers.isActive, true));
  const rows = await ctx.db
    .select()
    .from(membershipTiers)
    .where(and(...conds))
    .orderBy(asc(membershipTiers.displayOrder), asc(membershipTiers.createdAt))
    .all();
  return { data: rows.map(tierOut) };
}

export async function getTier(ctx: Ctx, tierId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  return tierOut(await getTierInTenant(ctx, customerId, tierId));
}

export async function createTier(ctx: Ctx, input: TierFields & { customerId: string; name: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const scope = input.scope ?? 'all_locations';
  const locationIds = [...new Set(input.locationIds ?? [])];
  checkScope(scope, locationIds);
  const now = nowIso(ctx);
  const row: TierRow = {
    id: newId('mtr'),
    customerId,
    name: input.name,
    description: input.description ?? null,
    scope,
    locationIds,
    monthlyPrice: input.pricing?.monthly ?? null,
    yearlyPrice: input.pricing?.yearly ?? null,
    currency: input.pricing?.currency ?? 'usd',
    benefits: { discountPercentage: 0, creditsPerPeriod: 0, perks: [], ...(input.benefits ?? {}) },
    pausePolicy: { enabled: false, maxPausesPerYear: 1, maxPauseDays: 90, ...(input.pausePolicy ?? {}) },
    familyOptions: { enabled: false, maxMembers: 4, ...(input.familyOptions ?? {}) },
    allowedMemberTypes: [...new Set(input.allowedMemberTypes ?? ['individual'])],
    displayOrder: input.displayOrder ?? 0,
    isActive: input.isActive ?? true,
    isPublic: input.isPublic ?? false,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(membershipTiers).values(row)], {
    audit: { action: 'membership_tier.create', targetType: 'membership_tier', targetId: row.id, details: { name: row.name } },
  });
  return tierOut(row);
}

/** PATCH: the given fields replace the stored ones; the objects (pricing, benefits, pausePolicy, familyOptions) are merged key by key. */
export async function updateTier(ctx: Ctx, tierId: string, input: TierFields & { customerId: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const t = await getTierInTenant(ctx, customerId, tierId);
  const patch: Partial<TierRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  if (input.scope !== undefined) patch.scope = input.scope;
  if (input.locationIds !== undefined) patch.locationIds = [...new Set(input.locationIds)];
  if (input.pricing) {
    if (input.pricing.monthly !== undefined) patch.monthlyPrice = input.pricing.monthly;
    if (input.pricing.yearly !== undefined) patch.yearlyPrice = input.pricing.yearly;
    if (input.pricing.currency !== undefined) patch.currency = input.pricing.currency;
  }
  if (input.benefits) patch.benefits = { ...(t.benefits ?? {}), ...input.benefits };
  if (input.pausePolicy) patch.pausePolicy = { ...(t.pausePolicy ?? {}), ...input.pausePolicy };
  if (input.familyOptions) patch.familyOptions = { ...(t.familyOptions ?? {}), ...input.familyOptions };
  if (input.allowedMemberTypes) patch.allowedMemberTypes = [...new Set(input.allowedMemberTypes)];
  if (input.displayOrder !== undefined) patch.displayOrder = input.displayOrder;
  if (input.isActive !== undefined) patch.isActive = input.isActive;
  if (input.isPublic !== undefined) patch.isPublic = input.isPublic;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to update');
  checkScope(patch.scope ?? t.scope, patch.locationIds ?? t.locationIds ?? []);
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(membershipTiers)
        .set({ ...patch, updatedAt: now })
        .where(and(eq(membershipTiers.id, t.id), eq(membershipTiers.customerId, customerId), isNull(membershipTiers.deletedAt))),
    ],
    { audit: { action: 'membership_tier.update', targetType: 'membership_tier', targetId: t.id, details: { fields: Object.keys(patch) } } },
  );
  return tierOut({ ...t, ...patch, updatedAt: now });
}

const inUseError = () =>
  membershipErrors.fail('tier_in_use', 'The tier has memberships that are not canceled; deactivate it with PATCH (isActive: false) instead');

/**
 * DELETE: refused with 400 `tier_in_use` while any membership of the tier is not canceled. The
 * delete itself is a conditional UPDATE that re-checks this in SQL, so a membership created at the
 * same moment cannot be orphaned. Canceled memberships keep the tier in their history.
 */
export async function deleteTier(ctx: Ctx, tierId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requireManage(ctx);
  const t = await getTierInTenant(ctx, customerId, tierId);
  const inUse = await ctx.db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.tierId, t.id), inArray(memberships.status, [...LIVE_STATUSES])))
    .get();
  if (inUse) throw inUseError();
  const live = sql`EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.customerId} = ${customerId} AND ${memberships.tierId} = ${t.id} AND ${inArray(memberships.status, [...LIVE_STATUSES])})`;
  const res = await commit(
    ctx,
    [
      ctx.db
        .update(membershipTiers)
        .set({ deletedAt: nowIso(ctx), isActive: false, isPublic: false })
        .where(and(eq(membershipTiers.id, t.id), eq(membershipTiers.customerId, customerId), isNull(membershipTiers.deletedAt), sql`NOT ${live}`)),
    ],
    { audit: { action: 'membership_tier.delete', targetType: 'membership_tier', targetId: t.id } },
  );
  const changes = (res.results[0] as { meta?: { changes?: number } })?.meta?.changes ?? 0;
  if (changes === 0) throw inUseError();
  return { tierId: t.id, deleted: true };
}
