import { nowIso } from '../../lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { notFound } from '../../lib/errors';
import { affiliateEntries, affiliates } from '../../db/schema/affiliates';
import type { AffiliateRow } from './views';

/** The operator's affiliate; another operator's (or an unknown) ID answers 404. */
export async function getAffiliateInTenant(ctx: Ctx, customerId: string, affiliateId: string): Promise<AffiliateRow> {
  const row = await ctx.db
    .select()
    .from(affiliates)
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)))
    .get();
  if (!row) throw notFound('Affiliate');
  return row;
}

export async function findAffiliate(ctx: Ctx, customerId: string, affiliateId: string): Promise<AffiliateRow | undefined> {
  return ctx.db
    .select()
    .from(affiliates)
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)))
    .get();
}

/** Refreshes the cached totals from the entries, inside one UPDATE (parallel changes can never leave them stale). */
export function totalsStmt(ctx: Ctx, customerId: string, affiliateId: string, extra: Partial<AffiliateRow> = {}): Stmt {
  const sum = (kind: 'commission' | 'payout') =>
    sql<number>`(SELECT coalesce(sum(${affiliateEntries.amount}), 0) FROM ${affiliateEntries}
      WHERE ${affiliateEntries.customerId} = ${customerId} AND ${affiliateEntries.affiliateId} = ${affiliateId}
        AND ${affiliateEntries.kind} = ${kind} AND ${affiliateEntries.excluded} = 0)`;
  return ctx.db
    .update(affiliates)
    .set({ commissionTotal: sum('commission'), paidOut: sum('payout'), updatedAt: nowIso(ctx), ...extra })
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)));
}
