/**
 * The operator's side of offerings: which ones it may use (approved ones; a sandbox operator also
 * drafts and offerings in review) and at which locations it offers them to renters.
 */
import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requireAdmin, tenantOf } from '../../lib/context';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { commit } from '../../lib/commit';
import { coverageEnablements } from '../../db/schema/coverage';
import { getLocationInTenant } from '../locations/service';
import { enablementsOf, getOffering, operatorAccount, usableOfferings } from './queries';
import { enablementOut, operatorOfferingOut, type OfferingRow } from './views';

/** May this operator use this offering (live: approved; sandbox: any status)? */
export const usableBy = (o: OfferingRow, sandbox: boolean) => !o.deletedAt && (sandbox || o.status === 'approved');

export async function listAvailableOfferings(ctx: Ctx) {
  const customerId = tenantOf(ctx);
  const account = await operatorAccount(ctx, customerId);
  const [offerings, enabled] = await Promise.all([usableOfferings(ctx, account.isSandbox), enablementsOf(ctx, customerId)]);
  return {
    data: offerings.map((o) =>
      operatorOfferingOut(
        o,
        enabled.filter((e) => e.offeringId === o.id).map((e) => e.locationId),
      ),
    ),
  };
}

export async function listEnablements(ctx: Ctx, q: { locationId?: string }) {
  const customerId = tenantOf(ctx);
  const rows = await enablementsOf(ctx, customerId, q.locationId);
  const names = new Map<string, string>();
  for (const r of rows) if (!names.has(r.offeringId)) names.set(r.offeringId, (await getOffering(ctx, r.offeringId))?.name ?? '(deleted offering)');
  return { data: rows.map((r) => enablementOut(r, names.get(r.offeringId)!)) };
}

export async function enableOffering(ctx: Ctx, input: { locationId: string; offeringId: string }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const account = await operatorAccount(ctx, customerId);
  const offering = await getOffering(ctx, input.offeringId);
  if (!offering || !usableBy(offering, account.isSandbox)) throw notFound('Offering');
  const row = { id: newId('cen'), customerId, locationId: input.locationId, offeringId: offering.id, createdAt: nowIso(ctx) };
  try {
    await commit(ctx, [ctx.db.insert(coverageEnablements).values(row)], {
      audit: { action: 'coverage.enable', targetType: 'coverage_offering', targetId: offering.id, details: { locationId: input.locationId } },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'This offering is already enabled at this location');
    throw err;
  }
  return enablementOut(row, offering.name);
}

/** Stops offering the coverage at that location: no new quotes, and the underwriter's message requests about its policies stop at once. */
export async function disableOffering(ctx: Ctx, enablementId: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const row = await ctx.db
    .select()
    .from(coverageEnablements)
    .where(and(eq(coverageEnablements.id, enablementId), eq(coverageEnablements.customerId, customerId)))
    .get();
  if (!row) throw notFound('Enablement');
  await commit(ctx, [ctx.db.delete(coverageEnablements).where(and(eq(coverageEnablements.id, row.id), eq(coverageEnablements.customerId, customerId)))], {
    audit: { action: 'coverage.disable', targetType: 'coverage_offering', targetId: row.offeringId, details: { locationId: row.locationId } },
  });
  return { success: true, enablementId: row.id };
}
