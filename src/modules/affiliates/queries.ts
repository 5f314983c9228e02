import { nowIso } from '../../lib/clock';
import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { notFound } from '../../lib/errors';
import { affiliateEntries, affiliates } from '../../db/schema/affiliates';
import { promoUses } from '../../db/schema/promo-codes';
import type { AffiliateRow } from './views';

/**
 * An affiliate's commission, the one figure every answer shows (issue 31): its commission entries
 * that are not excluded (referred and promo-coded bookings, reversed when the booking is cancelled;
 * manual commissions) and the commission recorded on the other uses of its codes that are still
 * active (`POST /promoGiftCards/use`, a gift card spent on a booking). A promo code's booking use is
 * left out here: that sale is the `promo_booking` entry.
 */
export function commissionSql(customerId: SQL | string, affiliateId: SQL | string): SQL<number> {
  return sql<number>`((SELECT coalesce(sum(e.amount), 0) FROM ${affiliateEntries} e
      WHERE e.customer_id = ${customerId} AND e.affiliate_id = ${affiliateId} AND e.kind = 'commission' AND e.excluded = 0)
    + (SELECT coalesce(sum(u.commission), 0) FROM ${promoUses} u
      WHERE u.customer_id = ${customerId} AND u.affiliate_id = ${affiliateId} AND u.status = 'active' AND NOT (u.source = 'booking' AND u.kind = 'promo')))`;
}

const paidOutSql = (customerId: SQL | string, affiliateId: SQL | string) =>
  sql<number>`(SELECT coalesce(sum(e.amount), 0) FROM ${affiliateEntries} e
    WHERE e.customer_id = ${customerId} AND e.affiliate_id = ${affiliateId} AND e.kind = 'payout' AND e.excluded = 0)`;

/** Affiliate rows with their totals read from the entries and uses now (never a stale cached figure). */
const withTotals = (ctx: Ctx) =>
  ctx.db
    .select({
      ...getTableColumns(affiliates),
      commissionTotal: commissionSql(sql`${affiliates.customerId}`, sql`${affiliates.id}`),
      paidOut: paidOutSql(sql`${affiliates.customerId}`, sql`${affiliates.id}`),
    })
    .from(affiliates);

/** The operator's affiliate; another operator's (or an unknown) ID answers 404. */
export async function getAffiliateInTenant(ctx: Ctx, customerId: string, affiliateId: string): Promise<AffiliateRow> {
  const row = await withTotals(ctx)
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)))
    .get();
  if (!row) throw notFound('Affiliate');
  return row;
}

export async function findAffiliate(ctx: Ctx, customerId: string, affiliateId: string): Promise<AffiliateRow | undefined> {
  return withTotals(ctx)
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)))
    .get();
}

/** The operator's affiliates by name, with their totals. */
export async function affiliatesOf(ctx: Ctx, customerId: string): Promise<AffiliateRow[]> {
  return withTotals(ctx).where(eq(affiliates.customerId, customerId)).orderBy(asc(affiliates.name)).all();
}

/** Refreshes the stored totals (the same figures as the reads), inside one UPDATE (parallel changes can never leave them stale). */
export function totalsStmt(ctx: Ctx, customerId: string, affiliateId: string, extra: Partial<AffiliateRow> = {}): Stmt {
  return ctx.db
    .update(affiliates)
    .set({ commissionTotal: commissionSql(customerId, affiliateId), paidOut: paidOutSql(customerId, affiliateId), updatedAt: nowIso(ctx), ...extra })
    .where(and(eq(affiliates.id, affiliateId), eq(affiliates.customerId, customerId)));
}
