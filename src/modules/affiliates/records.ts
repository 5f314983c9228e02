/** Affiliates: ID availability, create, list, delete and the PATCH actions (payout, rate, manual commission). */
import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import { affiliateEntries, affiliates } from '../../db/schema/affiliates';
import { affiliatesOf, getAffiliateInTenant, totalsStmt } from './queries';
import { affiliateOut, type AffiliateRow } from './views';

export const PERMISSION = 'affiliates';

const taken = (id: string) =>
  new ApiError('already_exists', `The affiliate ID "${id}" is taken`, { details: [{ field: 'customAffiliateId', message: 'taken' }] });
const isIdConflict = (err: unknown) =>
  /UNIQUE constraint failed: affiliates\.(id|customer_id)|affiliates_custom_id_uq/i.test(
    String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''),
  );

/** Affiliate IDs are one namespace across the platform (they appear in referral links): only whether it is free is answered. */
export async function checkAvailability(ctx: Ctx, q: { affiliateId: string }) {
  ownCustomer(ctx);
  const row = await ctx.db.select({ id: affiliates.id }).from(affiliates).where(eq(affiliates.id, q.affiliateId)).get();
  return { affiliateId: q.affiliateId, available: !row };
}

export async function createAffiliate(
  ctx: Ctx,
  input: { customerId: string; name: string; email: string; percentageEarned?: number; customAffiliateId?: string },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, PERMISSION);
  const now = nowIso(ctx);
  const row: AffiliateRow = {
    id: input.customAffiliateId ?? newId('aff'),
    customerId,
    name: input.name,
    email: input.email,
    percentageEarned: input.percentageEarned ?? 0,
    customAffiliateId: input.customAffiliateId ?? null,
    paidOut: 0,
    commissionTotal: 0,
    recalculatedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await commit(ctx, [ctx.db.insert(affiliates).values(row)], {
      audit: { action: 'affiliate.create', targetType: 'affiliate', targetId: row.id, details: { name: row.name, percentageEarned: row.percentageEarned } },
    });
  } catch (err) {
    if (isIdConflict(err)) throw taken(row.id);
    throw err;
  }
  return affiliateOut(row);
}

export async function listAffiliates(ctx: Ctx, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  return { data: (await affiliatesOf(ctx, customerId)).map(affiliateOut) };
}

/** Deletes the affiliate and its earnings and payouts (promo codes naming it keep their code, without commission). */
export async function deleteAffiliate(ctx: Ctx, q: { affiliateId: string; customerId?: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requirePermission(ctx, PERMISSION);
  const a = await getAffiliateInTenant(ctx, customerId, q.affiliateId);
  await commit(
    ctx,
    [
      ctx.db.delete(affiliateEntries).where(and(eq(affiliateEntries.customerId, customerId), eq(affiliateEntries.affiliateId, a.id))),
      ctx.db.delete(affiliates).where(and(eq(affiliates.id, a.id), eq(affiliates.customerId, customerId))),
    ],
    { audit: { action: 'affiliate.delete', targetType: 'affiliate', targetId: a.id, details: { name: a.name } } },
  );
  return { affiliateId: a.id, deleted: true };
}

const missing = (field: string, action: string) =>
  new ApiError('bad_request', `${field} is required for action ${action}`, { details: [{ field, message: 'required' }] });

/**
 * PATCH /affiliate?action=: `addPayout` records a payment to the affiliate (`paidOut` dollars),
 * `editPercentage` sets the rate for what is earned from now on (`percentageEarned`),
 * `addACommission` adds a manual commission (`totalAmount` dollars). Totals are refreshed in SQL.
 */
export async function updateAffiliate(
  ctx: Ctx,
  action: 'addPayout' | 'editPercentage' | 'addACommission',
  input: { affiliateId: string; customerId?: string; paidOut?: number; percentageEarned?: number; totalAmount?: number; note?: string },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, PERMISSION);
  const a = await getAffiliateInTenant(ctx, customerId, input.affiliateId);
  const now = nowIso(ctx);
  const entry = (kind: 'commission' | 'payout', source: 'manual' | 'payout', amount: number) =>
    ctx.db.insert(affiliateEntries).values({
      id: newId('affe'),
      customerId,
      affiliateId: a.id,
      kind,
      source,
      sourceId: newId(source === 'payout' ? 'pay' : 'man'),
      basis: 0,
      rate: null,
      amount,
      excluded: false,
      earnedAt: now,
    });
  let statements;
  let details: Record<string, unknown>;
  if (action === 'addPayout') {
    if (input.paidOut == null) throw missing('paidOut', action);
    statements = [entry('payout', 'payout', toCents(input.paidOut)), totalsStmt(ctx, customerId, a.id)];
    details = { paidOut: input.paidOut, note: input.note ?? null };
  } else if (action === 'addACommission') {
    if (input.totalAmount == null) throw missing('totalAmount', action);
    statements = [entry('commission', 'manual', toCents(input.totalAmount)), totalsStmt(ctx, customerId, a.id)];
    details = { totalAmount: input.totalAmount, note: input.note ?? null };
  } else {
    if (input.percentageEarned == null) throw missing('percentageEarned', action);
    statements = [totalsStmt(ctx, customerId, a.id, { percentageEarned: input.percentageEarned })];
    details = { from: a.percentageEarned, to: input.percentageEarned };
  }
  await commit(ctx, statements, { audit: { action: `affiliate.${action}`, targetType: 'affiliate', targetId: a.id, details } });
  return affiliateOut(await getAffiliateInTenant(ctx, customerId, a.id));
}
