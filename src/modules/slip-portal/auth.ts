/**
 * Tenant-portal sign-in. A magic link (`spl_...`, 20 minutes, single use) is e-mailed to the renter
 * of a slip reservation, either on request (POST /slip-portal/magic-link with the e-mail and the
 * location) or by staff (POST /slip-portal/invite); the portal page exchanges it once (POST
 * /slip-portal/session) for a tenant session token (`sps_...`, 12 hours) sent as
 * `Authorization: Bearer sps_...`. Only SHA-256 hashes are stored. The link is consumed with a
 * conditional UPDATE (`used_at IS NULL AND expires_at > now`): used twice, even at once, it opens one
 * session. The session acts for the operator as the renter: every portal call reads only that
 * renter's reservations (another tenant's reservation answers 404).
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { ANONYMOUS, requirePermission, type AppEnv, type Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { loadOperatorClock, onOperatorClock } from '../../lib/operator-clock';
import { commit } from '../../lib/commit';
import { sha256Hex } from '../../lib/crypto';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { getDb } from '../../db/client';
import { slipPortalLinks as LK, slipPortalSessions as SS } from '../../db/schema/slip-portal';
import { emailStmt } from '../../adapters/messages';
import { publicOrigin } from '../../lib/public-origin';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { locationRowAnyOperator } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { findRenterByEmail, getRenterInTenant } from '../renters/service';
import { getReservationRow, listReservations } from '../slip-reservations/service';
import { LINK_MINUTES, LINK_PREFIX, LINK_REQUESTS_PER_IP, SESSION_HOURS, SESSION_PREFIX, SESSION_RATE_LIMIT } from './types';
import { clientIp } from '../../lib/ip-limit';

/**
 * The same context acting for one operator (public calls act for the operator of the location or
 * link), on that operator's clock.
 */
export const forTenant = async (ctx: Ctx, customerId: string): Promise<Ctx> =>
  onOperatorClock(ctx.principal.customerId === customerId ? ctx : { ...ctx, principal: { ...ctx.principal, customerId } }, customerId);

const LINK_ANSWER = {
  sent: true as const,
  message: `If the address belongs to a tenant of this marina, a sign-in link was e-mailed to it. It works once, for ${LINK_MINUTES} minutes.`,
};

/** The link e-mail to the renter (a statement for the caller's batch) and its expiry. */
async function linkMail(ctx: Ctx, o: { customerId: string; locationId: string; renterId: string; email: string; firstName: string; via: string }) {
  const token = `${LINK_PREFIX}${randomString(40)}`;
  const settings = await getSlipSettings(ctx, o.locationId);
  // The location's own portal page gets the token; Berth's page also the operator and the location (its name and look, and
  // where a new link is asked when this one has expired).
  const own = settings.portalUrl?.replace(/\/$/, '');
  const url = own
    ? `${own}${own.includes('?') ? '&' : '?'}token=${token}`
    : `${publicOrigin(ctx)}/slip-portal?${new URLSearchParams({ token, customer: o.customerId, location: o.locationId })}`;
  const expiresAt = ctx.clock.now() + LINK_MINUTES * 60_000;
  const stmts = [
    ctx.db.insert(LK).values({
      id: newId('spl'),
      customerId: o.customerId,
      renterId: o.renterId,
      email: o.email,
      tokenHash: await sha256Hex(token),
      expiresAt,
      requestedVia: o.via,
    }),
    emailStmt(ctx, {
      customerId: o.customerId,
      to: o.email,
      subject: 'Your marina tenant portal link',
      body: `Hello ${o.firstName},\n\nopen your tenant portal: ${url}\n\nThe link works once and expires in ${LINK_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
      template: 'slip_portal.magic_link',
      metadata: { renterId: o.renterId, locationId: o.locationId },
    }).stmt,
  ];
  return { stmts, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * POST /slip-portal/magic-link: e-mails a link to a renter with a reservation at the location.
 * Always the same answer (no account discovery); limited per IP address.
 */
export async function requestLink(c: Context<AppEnv>, ctx: Ctx, input: { email: string; locationId: string }) {
  await enforceRateLimit(c, `slip-portal-link:${clientIp(c)}`, LINK_REQUESTS_PER_IP);
  const loc = await locationRowAnyOperator(ctx, input.locationId);
  if (!loc || loc.status !== 'active') throw notFound('Location');
  if (ctx.principal.customerId && ctx.principal.customerId !== loc.customerId) throw notFound('Location');
  const tctx = await forTenant(ctx, loc.customerId);
  const renter = await findRenterByEmail(tctx, loc.customerId, input.email);
  if (!renter) return LINK_ANSWER;
  const own = await listReservations(tctx, { locationId: loc.id, renterId: renter.id, limit: 1, offset: 0 });
  if (!own.total) return LINK_ANSWER;
  const { stmts } = await linkMail(tctx, {
    customerId: loc.customerId,
    locationId: loc.id,
    renterId: renter.id,
    email: renter.email,
    firstName: renter.firstName,
    via: 'request',
  });
  await commit(tctx, stmts, {
    audit: { action: 'slip_portal.link', targetType: 'renter', targetId: renter.id, customerId: loc.customerId, details: { via: 'request' } },
  });
  return LINK_ANSWER;
}

/** POST /slip-portal/invite (staff): e-mails the reservation's renter a portal link. */
export async function inviteRenter(ctx: Ctx, input: { reservationId: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, input.reservationId);
  const renter = await getRenterInTenant(ctx, r.renterId);
  const { stmts, expiresAt } = await linkMail(ctx, {
    customerId: r.customerId,
    locationId: r.locationId,
    renterId: renter.id,
    email: renter.email,
    firstName: renter.firstName,
    via: 'staff',
  });
  await commit(ctx, stmts, { audit: { action: 'slip_portal.invite', targetType: 'slip_reservation', targetId: r.id, details: { renterId: renter.id } } });
  return { reservationId: r.id, renterId: renter.id, sentTo: renter.email, linkExpiresAt: expiresAt };
}

/** POST /slip-portal/session: exchanges a link token, once, for a session token. */
export async function openSession(ctx: Ctx, input: { token: string }) {
  const hash = await sha256Hex(input.token);
  const link = await ctx.db.select().from(LK).where(eq(LK.tokenHash, hash)).get();
  if (!link) throw notFound('Portal link');
  // The link's operator is known from here: its clock says whether the link has expired.
  const tctx = await forTenant(ctx, link.customerId);
  const sessionId = newId('sps');
  const now = tctx.clock.now();
  const used = await ctx.db
    .update(LK)
    .set({ usedAt: new Date(now).toISOString(), sessionId })
    .where(and(eq(LK.id, link.id), isNull(LK.usedAt), gt(LK.expiresAt, now)))
    .run();
  if (!(used.meta?.changes ?? 0)) throw new ApiError('expired', 'This portal link was already used or has expired; ask for a new one');
  const token = `${SESSION_PREFIX}${randomString(48)}`;
  const expiresAt = now + SESSION_HOURS * 3_600_000;
  await commit(
    tctx,
    [ctx.db.insert(SS).values({ id: sessionId, customerId: link.customerId, renterId: link.renterId, tokenHash: await sha256Hex(token), expiresAt })],
    { audit: { action: 'slip_portal.session', targetType: 'renter', targetId: link.renterId, customerId: link.customerId, details: { linkId: link.id } } },
  );
  const renter = await getRenterInTenant(tctx, link.renterId);
  return {
    sessionToken: token,
    expiresAt: new Date(expiresAt).toISOString(),
    renter: { id: renter.id, firstName: renter.firstName, lastName: renter.lastName, email: renter.email },
  };
}

/** The renter of the tenant session (401 without one). */
export function renterOf(ctx: Ctx): string {
  const p = ctx.principal;
  if (!p.credentialId.startsWith('tenant:') || !p.subject || !p.customerId) throw new ApiError('unauthenticated', 'No tenant-portal session');
  return p.subject;
}

export const sessionIdOf = (ctx: Ctx) => ctx.principal.credentialId.slice('tenant:'.length);

/** GET /slip-portal/session. */
export async function sessionInfo(ctx: Ctx) {
  const renterId = renterOf(ctx);
  const [renter, session, own] = await Promise.all([
    getRenterInTenant(ctx, renterId),
    ctx.db
      .select()
      .from(SS)
      .where(eq(SS.id, sessionIdOf(ctx)))
      .get(),
    listReservations(ctx, { renterId, limit: 1, offset: 0 }),
  ]);
  return {
    sessionId: session!.id,
    expiresAt: new Date(session!.expiresAt).toISOString(),
    customerId: renter.customerId,
    renter: { id: renter.id, firstName: renter.firstName, lastName: renter.lastName, email: renter.email, phone: renter.phone },
    reservations: own.total,
  };
}

/** DELETE /slip-portal/session: signs out (the token stops working at once). */
export async function closeSession(ctx: Ctx) {
  renterOf(ctx);
  const id = sessionIdOf(ctx);
  await ctx.db
    .update(SS)
    .set({ revokedAt: nowIso(ctx) })
    .where(and(eq(SS.id, id), isNull(SS.revokedAt)))
    .run();
  return { signedOut: true as const };
}

/** `Authorization: Bearer sps_...`: the tenant's session; the principal acts for the operator as the renter, with no staff permission. */
export const tenantSessionAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const authz = c.req.header('authorization');
  const token = authz ? /^Bearer\s+(sps_[A-Za-z0-9]{20,120})$/i.exec(authz.trim())?.[1] : undefined;
  if (!token) throw new ApiError('unauthenticated', 'Send the tenant-portal session as "Authorization: Bearer sps_..." (POST /slip-portal/session)');
  const db = getDb(c.env.DB);
  const row = await db
    .select()
    .from(SS)
    .where(and(eq(SS.tokenHash, await sha256Hex(token)), isNull(SS.revokedAt)))
    .get();
  // A session lasts SESSION_HOURS on its operator's clock (a sandbox test clock's operator: its frozen time).
  if (!row || row.expiresAt <= (await loadOperatorClock(db, row.customerId)).now())
    throw new ApiError('unauthenticated', 'The tenant-portal session is unknown, signed out or expired; open a new portal link');
  c.set('principal', { ...ANONYMOUS, customerId: row.customerId, credentialId: `tenant:${row.id}`, subject: row.renterId });
  const headers = await enforceRateLimit(c, `slip-portal:${row.id}`, SESSION_RATE_LIMIT);
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

export const TENANT_AUTH = { security: [{ TenantPortalSession: [] }], middleware: tenantSessionAuth };
