/**
 * Review of offerings by Berth's platform staff (the only role that may approve or send back):
 * approving fixes how date changes reach `/reschedule` (spec rule 9: within the hour by default,
 * immediately, or not at all).
 */
import { nowIso } from '../../lib/clock';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { requirePlatformStaff, type Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { partnerAccounts } from '../../db/schema/partners';
import { coverageOfferings } from '../../db/schema/coverage';
import { secretInfo } from './secrets';
import { offeringOut, type OfferingRow } from './views';
import type { RescheduleDelivery } from './types';

type PartnerRow = typeof partnerAccounts.$inferSelect;
const partnerOf = (p: PartnerRow) => ({ partnerId: p.id, name: p.name, email: p.email, company: p.company });

async function reviewView(ctx: Ctx, o: OfferingRow, p: PartnerRow) {
  return { ...offeringOut(o, await secretInfo(ctx, o.id)), partner: partnerOf(p) };
}

export async function listForReview(ctx: Ctx, q: { status: OfferingRow['status']; limit: number; offset: number }) {
  requirePlatformStaff(ctx);
  const where = and(eq(coverageOfferings.status, q.status), isNull(coverageOfferings.deletedAt));
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ o: coverageOfferings, p: partnerAccounts })
      .from(coverageOfferings)
      .innerJoin(partnerAccounts, eq(partnerAccounts.id, coverageOfferings.partnerId))
      .where(where)
      .orderBy(asc(coverageOfferings.submittedAt), asc(coverageOfferings.createdAt))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db.select({ n: count() }).from(coverageOfferings).where(where).get(),
  ]);
  return { data: await Promise.all(rows.map((r) => reviewView(ctx, r.o, r.p))), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

async function forReview(ctx: Ctx, offeringId: string) {
  requirePlatformStaff(ctx);
  const row = await ctx.db
    .select({ o: coverageOfferings, p: partnerAccounts })
    .from(coverageOfferings)
    .innerJoin(partnerAccounts, eq(partnerAccounts.id, coverageOfferings.partnerId))
    .where(and(eq(coverageOfferings.id, offeringId), isNull(coverageOfferings.deletedAt)))
    .get();
  if (!row) throw notFound('Offering');
  return row;
}

export async function getForReview(ctx: Ctx, offeringId: string) {
  const r = await forReview(ctx, offeringId);
  return reviewView(ctx, r.o, r.p);
}

async function decide(ctx: Ctx, offeringId: string, set: Partial<OfferingRow>, what: string) {
  const { o, p } = await forReview(ctx, offeringId);
  if (o.status !== 'in_review') throw new ApiError('invalid_state', `Only an offering in review can be ${what} (this one is ${o.status})`);
  const updated = await ctx.db
    .update(coverageOfferings)
    .set({ ...set, reviewedAt: nowIso(ctx), version: o.version + 1 })
    .where(and(eq(coverageOfferings.id, o.id), eq(coverageOfferings.version, o.version), eq(coverageOfferings.status, 'in_review')))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The offering changed during the review; reload it and review again');
  return reviewView(ctx, updated, p);
}

/** in_review -> approved; live operators may enable it from now on. */
export const approveOffering = (ctx: Ctx, offeringId: string, input: { rescheduleDelivery: RescheduleDelivery; note?: string }) =>
  decide(
    ctx,
    offeringId,
    {
      status: 'approved',
      rescheduleDelivery: input.rescheduleDelivery,
      reviewNote: input.note ?? null,
      reviewReasons: null,
      approvedAt: nowIso(ctx),
    },
    'approved',
  );

/** in_review -> draft with the reasons the partner reads. */
export const rejectOffering = (ctx: Ctx, offeringId: string, input: { reasons: string[] }) =>
  decide(ctx, offeringId, { status: 'draft', reviewReasons: input.reasons, reviewNote: null }, 'sent back');
