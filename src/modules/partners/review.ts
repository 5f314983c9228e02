import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import { requirePlatformStaff, type Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { partnerAccounts, partnerApps } from '../../db/schema/partners';
import { appOut, manifestData, type AppRow } from './views';

const partnerOf = (p: typeof partnerAccounts.$inferSelect) => ({ partnerId: p.id, name: p.name, email: p.email, company: p.company });

export async function listForReview(ctx: Ctx, q: { status: AppRow['status']; limit: number; offset: number }) {
  requirePlatformStaff(ctx);
  const where = and(eq(partnerApps.status, q.status), isNull(partnerApps.deletedAt));
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ app: partnerApps, partner: partnerAccounts })
      .from(partnerApps)
      .innerJoin(partnerAccounts, eq(partnerAccounts.id, partnerApps.partnerId))
      .where(where)
      .orderBy(asc(partnerApps.submittedAt), asc(partnerApps.createdAt))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db.select({ n: count() }).from(partnerApps).where(where).get(),
  ]);
  return { data: rows.map((r) => ({ ...appOut(r.app), partner: partnerOf(r.partner) })), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

async function appForReview(ctx: Ctx, appId: string) {
  requirePlatformStaff(ctx);
  const row = await ctx.db
    .select({ app: partnerApps, partner: partnerAccounts })
    .from(partnerApps)
    .innerJoin(partnerAccounts, eq(partnerAccounts.id, partnerApps.partnerId))
    .where(and(eq(partnerApps.id, appId), isNull(partnerApps.deletedAt)))
    .get();
  if (!row) throw notFound('App');
  return row;
}

export async function getForReview(ctx: Ctx, appId: string) {
  const r = await appForReview(ctx, appId);
  return { ...appOut(r.app), partner: partnerOf(r.partner) };
}

/** in_review -> approved: the current manifest becomes what live installs run. */
export async function approveApp(ctx: Ctx, appId: string, note?: string) {
  const { app, partner } = await appForReview(ctx, appId);
  if (app.status !== 'in_review') throw new ApiError('invalid_state', `Only an app in review can be approved (this one is ${app.status})`);
  const updated = await ctx.db
    .update(partnerApps)
    .set({
      status: 'approved',
      live: manifestData(app),
      reviewReason: note ?? null,
      reviewedAt: nowIso(ctx),
      reviewedBy: ctx.principal.userId ?? ctx.principal.credentialId,
      version: app.version + 1,
    })
    .where(and(eq(partnerApps.id, app.id), eq(partnerApps.version, app.version), eq(partnerApps.status, 'in_review')))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The app changed during the review; reload it and review again');
  await ctx.hooks.emit(ctx, 'app.changed', { appId: app.id, deleted: false });
  return { ...appOut(updated), partner: partnerOf(partner) };
}

/** in_review -> draft with the reason the partner reads (an approved app's live manifest stays in force). */
export async function rejectApp(ctx: Ctx, appId: string, reason: string) {
  const { app, partner } = await appForReview(ctx, appId);
  if (app.status !== 'in_review') throw new ApiError('invalid_state', `Only an app in review can be sent back (this one is ${app.status})`);
  const updated = await ctx.db
    .update(partnerApps)
    .set({
      status: 'draft',
      reviewReason: reason,
      reviewedAt: nowIso(ctx),
      reviewedBy: ctx.principal.userId ?? ctx.principal.credentialId,
      version: app.version + 1,
    })
    .where(and(eq(partnerApps.id, app.id), eq(partnerApps.version, app.version), eq(partnerApps.status, 'in_review')))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The app changed during the review; reload it and review again');
  return { ...appOut(updated), partner: partnerOf(partner) };
}
