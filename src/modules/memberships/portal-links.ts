/**
 * Member-portal credentials. A LINK token (`mpl_...`, 30 minutes, single use) is e-mailed to the
 * member; the portal page exchanges it once for a SESSION token (`mps_...`, 2 hours) that the
 * portal sends as `Authorization: Bearer mps_...`. Only SHA-256 hashes are stored; a link is
 * consumed with a conditional UPDATE (`used_at IS NULL AND expires_at > now`), so it opens at most
 * one session even when used twice at once.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { sha256Hex } from '../../lib/crypto';
import { publicOrigin } from '../../lib/public-origin';
import { newId, randomString } from '../../lib/ids';
import { fromNowIso, nowIso, type Clock } from '../../lib/clock';
import { loadOperatorClock, onOperatorClock } from '../../lib/operator-clock';
import { membershipPortalTokens } from '../../db/schema/memberships';
import { getOwnCustomer } from '../customers/service';

export const LINK_MINUTES = 30;
export const SESSION_MINUTES = 120;

/**
 * The e-mailed link: the operator's `settings.memberPortalUrl` with `?token=`, else Berth's page `/member-portal` on the
 * public origin (PUBLIC_BASE_URL, else the request's: lib/public-origin.ts) with `?token=` and the operator
 * (`&customer=`: the page shows the operator's name and look, and asks it for a new link when this one has expired).
 */
async function portalUrlOf(ctx: Ctx, o: { customerId: string; token: string }): Promise<string> {
  const settings = ((await getOwnCustomer(ctx).catch(() => null))?.settings ?? {}) as Record<string, unknown>;
  const own = typeof settings.memberPortalUrl === 'string' && /^https?:\/\//.test(settings.memberPortalUrl) ? settings.memberPortalUrl : null;
  if (own) return `${own}${own.includes('?') ? '&' : '?'}token=${o.token}`;
  return `${publicOrigin(ctx)}/member-portal?token=${o.token}&customer=${encodeURIComponent(o.customerId)}`;
}

/** A new single-use link for a membership: the INSERT (for the caller's batch) and the URL to e-mail. */
export async function portalLinkStatements(ctx: Ctx, o: { customerId: string; membershipId: string }) {
  const token = `mpl_${randomString(40)}`;
  const url = await portalUrlOf(ctx, { customerId: o.customerId, token });
  const stmt: Stmt = ctx.db.insert(membershipPortalTokens).values({
    id: newId('mpt'),
    customerId: o.customerId,
    membershipId: o.membershipId,
    kind: 'link',
    tokenHash: await sha256Hex(token),
    expiresAt: fromNowIso(ctx, LINK_MINUTES * 60_000),
  });
  return { stmt, url, token, validMinutes: LINK_MINUTES };
}

export type LinkUse = { ok: true; customerId: string; membershipId: string; ctx: Ctx } | { ok: false; reason: 'unknown' | 'used_or_expired' };

/**
 * Consumes a link token (single use, conditional UPDATE), at the time of the link's operator (its
 * clock is learned from the token): the answer carries `ctx` on that clock.
 */
export async function consumeLink(ctx0: Ctx, token: string): Promise<LinkUse> {
  const hash = await sha256Hex(token);
  const row = await ctx0.db
    .select()
    .from(membershipPortalTokens)
    .where(and(eq(membershipPortalTokens.tokenHash, hash), eq(membershipPortalTokens.kind, 'link')))
    .get();
  if (!row) return { ok: false, reason: 'unknown' };
  const ctx = await onOperatorClock(ctx0, row.customerId);
  const now = nowIso(ctx);
  const res = await ctx.db
    .update(membershipPortalTokens)
    .set({ usedAt: now })
    .where(and(eq(membershipPortalTokens.id, row.id), isNull(membershipPortalTokens.usedAt), gt(membershipPortalTokens.expiresAt, now)))
    .run();
  if (!(res.meta?.changes ?? 0)) return { ok: false, reason: 'used_or_expired' };
  return { ok: true, customerId: row.customerId, membershipId: row.membershipId, ctx };
}

export async function newSession(ctx: Ctx, o: { customerId: string; membershipId: string }) {
  const token = `mps_${randomString(48)}`;
  const expiresAt = fromNowIso(ctx, SESSION_MINUTES * 60_000);
  await ctx.db.insert(membershipPortalTokens).values({
    id: newId('mpt'),
    customerId: o.customerId,
    membershipId: o.membershipId,
    kind: 'session',
    tokenHash: await sha256Hex(token),
    expiresAt,
  });
  return { token, expiresAt };
}

/** Ends a session at once (sign-out): it expires now, on the operator's clock. */
export async function endSession(ctx: Ctx, o: { customerId: string; sessionId: string }) {
  await ctx.db
    .update(membershipPortalTokens)
    .set({ expiresAt: nowIso(ctx) })
    .where(
      and(
        eq(membershipPortalTokens.id, o.sessionId),
        eq(membershipPortalTokens.customerId, o.customerId),
        eq(membershipPortalTokens.kind, 'session'),
        gt(membershipPortalTokens.expiresAt, nowIso(ctx)),
      ),
    )
    .run();
}

/**
 * The membership a live session token belongs to (null when unknown or expired), with the clock of
 * its operator (the session expires on that clock).
 */
export async function sessionOf(
  ctx: Pick<Ctx, 'db'>,
  token: string,
): Promise<{ customerId: string; membershipId: string; sessionId: string; clock: Clock } | null> {
  const hash = await sha256Hex(token);
  const row = await ctx.db
    .select()
    .from(membershipPortalTokens)
    .where(and(eq(membershipPortalTokens.tokenHash, hash), eq(membershipPortalTokens.kind, 'session')))
    .get();
  if (!row) return null;
  const clock = await loadOperatorClock(ctx.db, row.customerId);
  if (Date.parse(row.expiresAt) <= clock.now()) return null;
  return { customerId: row.customerId, membershipId: row.membershipId, sessionId: row.id, clock };
}
