/**
 * `PATCH /analytics/revenue-target`: a location's revenue target for a year and, for an operator
 * whose history predates Berth, the previous year's revenue to compare with. Dollars in, cents
 * stored; one row per location and year, written with an upsert of the fields given.
 */
import { and, eq } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { toCents, toDollars } from '../../lib/money';
import { nowIso, todayIn } from '../../lib/clock';
import { analyticsRevenueTargets } from '../../db/schema/analytics';
import { locationsInTenant } from './queries';
import type { RevenueTarget } from './schemas';

type TargetRow = typeof analyticsRevenueTargets.$inferSelect;

export function targetOut(r: TargetRow): z.output<typeof RevenueTarget> {
  return {
    locationId: r.locationId,
    year: r.year,
    revenueTarget: r.revenueTarget == null ? null : toDollars(r.revenueTarget),
    revenueTargetCents: r.revenueTarget,
    previousYearRevenueOverride: r.previousYearRevenueOverride == null ? null : toDollars(r.previousYearRevenueOverride),
    previousYearRevenueOverrideCents: r.previousYearRevenueOverride,
    updatedAt: r.updatedAt,
  };
}

function positiveCents(field: string, dollars: number | null | undefined): number | null | undefined {
  if (dollars == null) return dollars;
  const cents = toCents(dollars);
  if (cents < 1)
    throw new ApiError('validation_failed', `Invalid request: ${field} must be at least 0.01`, {
      details: [{ field, location: 'body', code: 'too_small', message: 'must be at least 0.01' }],
    });
  return cents;
}

export async function setRevenueTarget(
  ctx: Ctx,
  input: { locationId: string; revenueTarget?: number | null; previousYearRevenueOverride?: number | null; year?: number },
) {
  requirePermission(ctx, 'analytics');
  const customerId = tenantOf(ctx);
  const [loc] = await locationsInTenant(ctx, [input.locationId]);
  if (input.revenueTarget === undefined && input.previousYearRevenueOverride === undefined)
    throw new ApiError('no_changes', 'Give revenueTarget and/or previousYearRevenueOverride');
  const year = input.year ?? Number(todayIn(ctx, loc.timezone).slice(0, 4));
  const set: Partial<TargetRow> = {};
  const target = positiveCents('revenueTarget', input.revenueTarget);
  const override = positiveCents('previousYearRevenueOverride', input.previousYearRevenueOverride);
  if (target !== undefined) set.revenueTarget = target;
  if (override !== undefined) set.previousYearRevenueOverride = override;
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .insert(analyticsRevenueTargets)
        .values({
          locationId: loc.locationId,
          year,
          customerId,
          revenueTarget: target ?? null,
          previousYearRevenueOverride: override ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({ target: [analyticsRevenueTargets.locationId, analyticsRevenueTargets.year], set: { ...set, updatedAt: now } }),
    ],
    { audit: { action: 'analytics.revenue_target', targetType: 'location', targetId: loc.locationId, details: { year, ...set } } },
  );
  const row = await ctx.db
    .select()
    .from(analyticsRevenueTargets)
    .where(
      and(eq(analyticsRevenueTargets.locationId, loc.locationId), eq(analyticsRevenueTargets.year, year), eq(analyticsRevenueTargets.customerId, customerId)),
    )
    .get();
  return targetOut(row!);
}
