/**
 * Public enrollment and the member portal (the spec's "not shown" membership endpoints).
 *
 * - GET /public/memberships/tiers?customerId=: the operator's active tiers marked `isPublic`.
 * - POST /public/memberships/enroll: a renter joins a public tier from the widget, paying the first
 *   period with a card (payments adapter); the renter is created or updated by e-mail; the welcome
 *   e-mail carries a single-use portal link.
 * - POST /public/memberships/portal/link: e-mails a single-use link (30 minutes) to the member with
 *   that e-mail; always answers the same, whether a membership exists or not.
 * - POST /public/memberships/portal/session: the portal page exchanges the link token (once) for a
 *   session token (2 hours) sent as `Authorization: Bearer mps_...` to the routes below.
 * - DELETE /public/memberships/portal/session: signs out (the session stops working at once).
 * - GET /public/memberships/portal, GET .../portal/invoices, POST .../portal/pause | resume |
 *   cancel | card: the member's own membership. Members pause within the tier's policy only
 *   (`force` answers 403), cancel at the period end, and a new card retries an unpaid renewal.
 */
import { and, asc, desc, eq, isNull, ne } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { ANONYMOUS, type AppEnv, type Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { getDb } from '../../db/client';
import { bindAmbientClock } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { emailStmt } from '../../adapters/messages';
import { payments, PaymentError } from '../../adapters/payments';
import { memberships, membershipTiers } from '../../db/schema/memberships';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { getOwnCustomer } from '../customers/service';
import { findRenterByEmail } from '../renters/service';
import { membershipErrors } from './errors';
import { forTenant, requireStaffOverride } from './access';
import { assertBillingIdle, changeStmts, commitChange } from './change';
import { openMembership, type MemberRef } from './create';
import { cancelMembershipRow, pauseMembershipRow, resumeMembershipRow } from './lifecycle';
import { consumeLink, endSession, LINK_MINUTES, newSession, portalLinkStatements, sessionOf } from './portal-links';
import { findTier, getMembershipInTenant, getTierInTenant, invoiceCount, invoicesOf, membershipView } from './queries';
import { renewOne } from './renewals';
import { LIVE_STATUSES, type BillingCycle } from './types';
import { portalMembershipOut, publicTierOut, type MembershipRow } from './views';

export const PORTAL_RATE_LIMIT = 100;

/** The operator of a public call; an authenticated operator may only act for itself (403 otherwise). */
async function operatorCtx(ctx: Ctx, customerId: string): Promise<Ctx> {
  if (ctx.principal.customerId && ctx.principal.customerId !== customerId)
    throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  // The operator is known now: the rest of the call runs on its clock.
  const tctx = forTenant(await onOperatorClock(ctx, customerId), customerId);
  await getOwnCustomer(tctx).catch(() => {
    throw notFound('Operator');
  });
  return tctx;
}

async function cardOf(ctx: Ctx, m: MembershipRow): Promise<{ brand: string; last4: string } | null> {
  if (!m.paymentCustomerId || !m.paymentMethodId) return null;
  const list = await payments(ctx)
    .listPaymentMethods(m.paymentCustomerId)
    .catch(() => []);
  const pm = list.find((p) => p.id === m.paymentMethodId);
  return pm ? { brand: pm.brand, last4: pm.last4 } : null;
}

async function portalView(ctx: Ctx, m: MembershipRow) {
  const [view, tier, card] = await Promise.all([membershipView(ctx, m), findTier(ctx, m.customerId, m.tierId), cardOf(ctx, m)]);
  return portalMembershipOut(view, tier ?? null, card);
}

// ------------------------------------------------------------------------------------------------
// Public enrollment

export async function publicTiers(ctx: Ctx, q: { customerId: string }) {
  const tctx = await operatorCtx(ctx, q.customerId);
  const rows = await tctx.db
    .select()
    .from(membershipTiers)
    .where(
      and(
        eq(membershipTiers.customerId, q.customerId),
        eq(membershipTiers.isActive, true),
        eq(membershipTiers.isPublic, true),
        isNull(membershipTiers.deletedAt),
      ),
    )
    .orderBy(asc(membershipTiers.displayOrder), asc(membershipTiers.createdAt))
    .all();
  return { data: rows.map(publicTierOut) };
}

export async function enroll(
  ctx: Ctx,
  input: {
    customerId: string;
    tierId: string;
    billingCycle?: BillingCycle;
    firstName: string;
    lastName: string;
    email: string;
    phone?: string;
    paymentMethodId: string;
  },
) {
  const tctx = await operatorCtx(ctx, input.customerId);
  const tier = await getTierInTenant(tctx, input.customerId, input.tierId);
  if (!tier.isPublic || !tier.isActive) throw notFound('Membership tier');
  const found = await findRenterByEmail(tctx, input.customerId, input.email);
  const upsert = { customerId: input.customerId, firstName: input.firstName, lastName: input.lastName, email: input.email, phone: input.phone ?? undefined };
  const member: MemberRef = found && !found.deletedAt ? { kind: 'renter', renter: found, upsert } : { kind: 'new_renter', upsert };
  const out = await openMembership(tctx, {
    customerId: input.customerId,
    tier,
    billingCycle: input.billingCycle ?? (tier.monthlyPrice != null ? 'monthly' : 'yearly'),
    memberType: 'individual',
    member,
    memberEmail: input.email,
    memberName: `${input.firstName} ${input.lastName}`,
    memberPhone: input.phone ?? null,
    paymentMethodId: input.paymentMethodId,
    portalLink: true,
    via: 'public',
  });
  return { membership: await portalView(tctx, out.membership), portalLinkSent: out.portalLinkSent, customerCreated: out.customerCreated };
}

// ------------------------------------------------------------------------------------------------
// Portal links and sessions

const LINK_ANSWER = { sent: true, message: 'If a membership exists for this e-mail, a sign-in link has been sent to it.' };

export async function requestPortalLink(ctx: Ctx, input: { customerId: string; email: string }) {
  const tctx = await operatorCtx(ctx, input.customerId);
  const email = input.email.toLowerCase();
  const renter = await findRenterByEmail(tctx, input.customerId, email);
  const byEmail = await tctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, input.customerId), eq(memberships.memberEmail, email), ne(memberships.status, 'incomplete')))
    .orderBy(desc(memberships.createdAt))
    .all();
  const byRenter = renter
    ? await tctx.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.customerId, input.customerId), eq(memberships.renterId, renter.id), ne(memberships.status, 'incomplete')))
        .orderBy(desc(memberships.createdAt))
        .all()
    : [];
  const all = [...byEmail, ...byRenter];
  const m = all.find((x) => (LIVE_STATUSES as readonly string[]).includes(x.status)) ?? all[0];
  if (!m) return LINK_ANSWER;
  const link = await portalLinkStatements(tctx, { customerId: m.customerId, membershipId: m.id });
  await commit(
    tctx,
    [
      link.stmt,
      emailStmt(tctx, {
        customerId: m.customerId,
        to: m.memberEmail,
        subject: 'Your member portal link',
        body: `Hello ${m.memberName ?? ''},\n\nOpen your member portal: ${link.url}\nThis link works once and expires in ${LINK_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
        template: 'membership.portal_link',
        metadata: { membershipId: m.id },
      }).stmt,
    ],
    { audit: { action: 'membership.portal_link', targetType: 'membership', targetId: m.id, customerId: m.customerId } },
  );
  return LINK_ANSWER;
}

export async function openPortalSession(ctx: Ctx, input: { token: string }) {
  const use = await consumeLink(ctx, input.token);
  if (!use.ok) {
    if (use.reason === 'unknown') throw notFound('Portal link');
    throw new ApiError('expired', 'This portal link was already used or has expired; ask for a new one');
  }
  const tctx = forTenant(use.ctx, use.customerId);
  const m = await getMembershipInTenant(tctx, use.customerId, use.membershipId);
  const session = await newSession(tctx, use);
  return { sessionToken: session.token, expiresAt: session.expiresAt, membership: await portalView(tctx, m) };
}

/** `Authorization: Bearer mps_...`: the member's session; the principal acts for the operator with no staff permission. */
export const memberPortalAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const authz = c.req.header('authorization');
  const token = authz ? /^Bearer\s+(mps_[A-Za-z0-9]{20,120})$/i.exec(authz.trim())?.[1] : undefined;
  if (!token)
    throw new ApiError('unauthenticated', 'Send the member-portal session as "Authorization: Bearer mps_..." (POST /public/memberships/portal/session)');
  const s = await sessionOf({ db: getDb(c.env.DB) }, token);
  if (!s) throw new ApiError('unauthenticated', 'The member-portal session is unknown or has expired; open the portal link again');
  c.set('principal', { ...ANONYMOUS, customerId: s.customerId, credentialId: `member:${s.sessionId}`, subject: s.membershipId });
  // The member acts for the operator: the request runs on its clock.
  c.set('clock', s.clock);
  bindAmbientClock(s.clock);
  const headers = await enforceRateLimit(c, `mportal:${s.sessionId}`, PORTAL_RATE_LIMIT);
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

export const PORTAL_AUTH = { security: [{ MemberPortalSession: [] }], middleware: memberPortalAuth };

/** The membership of the portal session. */
async function sessionMembership(ctx: Ctx): Promise<MembershipRow> {
  const customerId = ctx.principal.customerId;
  const membershipId = ctx.principal.subject;
  if (!customerId || !membershipId || !ctx.principal.credentialId.startsWith('member:')) throw new ApiError('unauthenticated', 'No member-portal session');
  return getMembershipInTenant(ctx, customerId, membershipId);
}

/** Sign-out: the session token stops working at once. */
export async function portalSignOut(ctx: Ctx) {
  const m = await sessionMembership(ctx);
  await endSession(ctx, { customerId: m.customerId, sessionId: ctx.principal.credentialId.slice('member:'.length) });
  return { signedOut: true as const };
}

export async function portalGet(ctx: Ctx) {
  return portalView(ctx, await sessionMembership(ctx));
}

export async function portalInvoices(ctx: Ctx, q: { limit: number; offset: number }) {
  const m = await sessionMembership(ctx);
  const [data, total] = await Promise.all([invoicesOf(ctx, m.customerId, m.id, q), invoiceCount(ctx, m.customerId, m.id)]);
  return { data, total, limit: q.limit, offset: q.offset };
}

export async function portalPause(ctx: Ctx, input: { resumeAt?: string; force?: boolean }) {
  if (input.force) requireStaffOverride(ctx, 'Forcing a pause');
  const m = await sessionMembership(ctx);
  return portalView(ctx, await pauseMembershipRow(ctx, m, { resumeAt: input.resumeAt, via: 'portal' }));
}

export async function portalResume(ctx: Ctx) {
  const m = await sessionMembership(ctx);
  return portalView(ctx, await resumeMembershipRow(ctx, m, 'portal'));
}

/** Members cancel at the end of the paid period (a paused or past-due membership ends now). */
export async function portalCancel(ctx: Ctx, input: { reason?: string }) {
  const m = await sessionMembership(ctx);
  return portalView(ctx, await cancelMembershipRow(ctx, m, { cancelImmediately: false, reason: input.reason, via: 'portal' }));
}

/**
 * A new card: saved at the provider for the member and used for renewals from now on. With an
 * unpaid renewal (dunning or past due) it is charged at once: `payment.status` says how it went.
 */
export async function portalCard(ctx: Ctx, input: { paymentMethodId: string }) {
  const m = await sessionMembership(ctx);
  if (m.status === 'canceled') throw membershipErrors.fail('membership_state', 'A canceled membership has no card to update');
  assertBillingIdle(ctx, m);
  const pay = payments(ctx);
  let paymentCustomerId = m.paymentCustomerId;
  let pm;
  try {
    paymentCustomerId ??= (
      await pay.createCustomer({ email: m.memberEmail, name: m.memberName, metadata: { berthCustomerId: m.customerId, berthMembershipId: m.id } })
    ).id;
    pm = await pay.attachPaymentMethod(paymentCustomerId, input.paymentMethodId, { makeDefault: true });
  } catch (err) {
    if (err instanceof PaymentError) throw new ApiError('invalid_payment_method', err.message);
    throw err;
  }
  let payment: { status: string; invoiceId?: string; declineCode?: string } = { status: 'none' };
  if (m.openInvoiceId) {
    await ctx.db
      .update(memberships)
      .set({ paymentCustomerId })
      .where(and(eq(memberships.id, m.id), eq(memberships.customerId, m.customerId)))
      .run();
    const r = await renewOne(ctx, { ...m, paymentCustomerId }, { manual: true, paymentMethodId: pm.id });
    payment = {
      status: r.status === 'renewed' ? 'paid' : r.status === 'skipped' ? 'not_attempted' : 'declined',
      invoiceId: r.invoiceId,
      declineCode: r.declineCode,
    };
  } else {
    await commitChange(
      ctx,
      changeStmts(ctx, m, { paymentCustomerId, paymentMethodId: pm.id }, 'card_updated', { brand: pm.brand, last4: pm.last4, via: 'portal' }),
      {
        audit: { action: 'membership.card_update', targetType: 'membership', targetId: m.id, customerId: m.customerId, details: { last4: pm.last4 } },
      },
    );
  }
  const after = await getMembershipInTenant(ctx, m.customerId, m.id);
  return { membership: await portalView(ctx, after), card: { brand: pm.brand, last4: pm.last4 }, payment };
}
