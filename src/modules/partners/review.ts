import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv, Ctx, Principal } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { partnerAccounts, partnerApps } from '../../db/schema/partners';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { appOut, manifestData, type AppRow } from './views';

/** Berth's own staff: the only principal that reviews apps (and coverage offerings). */
export function requirePlatform(ctx: Ctx): void {
  if (ctx.principal.kind !== 'platform') throw new ApiError('forbidden', 'Only Berth platform staff may review apps');
}

const PLATFORM: Principal = {
  kind: 'platform',
  credentialId: 'platform:key',
  userId: null,
  customerId: null,
  role: null,
  permissions: [],
  plan: 'enterprise',
  name: 'Berth platform staff',
};

/**
 * Platform staff: the platform key (`x-platform-key`, the PLATFORM_API_KEY secret), or any
 * operator-side credential the app's authenticator resolves to a `platform` principal.
 * Missing credentials 401; anyone else 403.
 */
export async function authenticatePlatform(c: Context<AppEnv>): Promise<Record<string, string>> {
  const key = c.req.header('x-platform-key');
  if (key !== undefined) {
    const expected = c.env.PLATFORM_API_KEY;
    if (!expected || !timingSafeEqual(await sha256Hex(key), await sha256Hex(expected))) throw new ApiError('unauthenticated', 'Invalid platform key');
    c.set('principal', PLATFORM);
    return enforceRateLimit(c, PLATFORM.credentialId, 500);
  }
  const headers = await c.get('authenticate')(c, 'operator');
  if (c.get('principal').kind !== 'platform') throw new ApiError('forbidden', 'Only Berth platform staff may review apps');
  return headers;
}

const partnerOf = (p: typeof partnerAccounts.$inferSelect) => ({ partnerId: p.id, name: p.name, email: p.email, company: p.company });

export async function listForReview(ctx: Ctx, q: { status: AppRow['status']; limit: number; offset: number }) {
  requirePlatform(ctx);
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
  requirePlatform(ctx);
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
      reviewedAt: new Date().toISOString(),
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
      reviewedAt: new Date().toISOString(),
      reviewedBy: ctx.principal.userId ?? ctx.principal.credentialId,
      version: app.version + 1,
    })
    .where(and(eq(partnerApps.id, app.id), eq(partnerApps.version, app.version), eq(partnerApps.status, 'in_review')))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The app changed during the review; reload it and review again');
  return { ...appOut(updated), partner: partnerOf(partner) };
}
