/**
 * The membership state table (spec, "States and transitions"):
 *
 *   cancel, cancelImmediately true          active | paused | past_due -> canceled (ends now; an open invoice is voided)
 *   cancel, cancelImmediately false/absent  active -> active with cancelAtPeriodEnd (canceled by the billing job at the
 *                                           period end); a paused or past-due membership has no running paid period
 *                                           and an active one in dunning has just ended its period: those end now
 *   reactivate                              canceled -> active (a new period starting now, charged) ;
 *                                           active scheduled to cancel -> simply un-scheduled ;
 *                                           past_due -> active when the open invoice is paid now ; else 400
 *   pause                                   active -> paused when the tier's pause policy allows it (enabled, fewer
 *                                           than maxPausesPerYear pauses in the last 365 days, not longer than
 *                                           maxPauseDays), or with `force` by staff; `resumeAt` auto-resumes
 *   resume                                  paused -> active; the period end (next renewal) moves forward by the
 *                                           whole days paused; 400 when not paused
 *
 * Each move is a compare-and-swap on the membership version (change.ts).
 */
import { and, count, eq, gt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso as clockIso, nowMs } from '../../lib/clock';
import { emailStmt } from '../../adapters/messages';
import { membershipEvents, membershipInvoices, memberships } from '../../db/schema/memberships';
import { membershipErrors } from './errors';
import { actorOf, requireManage, requireStaffOverride } from './access';
import { assertBillingIdle, changeStmts, commitChange, stateError } from './change';
import { invoiceVoidStmts } from './ledger';
import { historyStmt, invoiceStmts, newInvoice, paymentRow, paymentStmt, periodGrantStmts } from './billing-records';
import { isLiveMemberConflict } from './create';
import { chargeCard, declined, paymentCompletedEvent, type ChargeRequest } from './payments';
import { addCycles, addDaysIso, anchorDayOf, daysBetween, localDay } from './periods';
import { findTier, getInvoiceInTenant, getMembershipInTenant, memberZone, membershipView } from './queries';
import { renewOne } from './renewals';
import { pausePolicyOf, type MembershipRow } from './views';

const DAY = 86_400_000;

// ------------------------------------------------------------------------------------------------
// Cancel

export async function cancelMembershipRow(ctx: Ctx, m: MembershipRow, o: { cancelImmediately?: boolean; reason?: string; via?: 'operator' | 'portal' }) {
  if (m.status === 'canceled') throw stateError(m, 'canceled again');
  assertBillingIdle(ctx, m);
  const nowIso = clockIso(ctx);
  const tz = await memberZone(ctx, m.customerId);
  const now = o.cancelImmediately || m.status !== 'active' || !!m.openInvoiceId;
  if (!now && m.cancelAtPeriodEnd) return m; // already scheduled: nothing to do
  const set: Partial<MembershipRow> = now
    ? { status: 'canceled', canceledAt: nowIso, cancelAtPeriodEnd: false, nextChargeAt: null, openInvoiceId: null, resumeAt: null }
    : { cancelAtPeriodEnd: true };
  const statements = changeStmts(ctx, m, set, now ? 'canceled' : 'cancel_scheduled', {
    immediately: now,
    endsAt: now ? nowIso : m.currentPeriodEnd,
    reason: o.reason ?? null,
    via: o.via ?? 'operator',
  });
  const open = now && m.openInvoiceId ? await getInvoiceInTenant(ctx, m.customerId, m.id, m.openInvoiceId).catch(() => null) : null;
  if (open?.status === 'open') {
    // The open invoice is void, its lines reversed on the ledger (the membership's version guards the batch).
    statements.push(
      ctx.db
        .update(membershipInvoices)
        .set({ status: 'void', nextAttemptAt: null, updatedAt: nowIso })
        .where(and(eq(membershipInvoices.id, open.id), eq(membershipInvoices.status, 'open'))),
      ...invoiceVoidStmts(ctx, m, open),
    );
  }
  statements.push(
    emailStmt(ctx, {
      customerId: m.customerId,
      to: m.memberEmail,
      subject: now ? 'Your membership is canceled' : 'Your membership will end at the end of the period',
      body: `Hello ${m.memberName ?? ''},\n\n${now ? 'Your membership has been canceled today.' : `Your membership stays active until ${localDay(m.currentPeriodEnd, tz)} and will not renew.`}`,
      template: now ? 'membership.canceled' : 'membership.cancel_scheduled',
      metadata: { membershipId: m.id },
    }).stmt,
  );
  await commitChange(ctx, statements, {
    audit: {
      action: now ? 'membership.cancel' : 'membership.cancel_schedule',
      targetType: 'membership',
      targetId: m.id,
      customerId: m.customerId,
      details: { reason: o.reason ?? null },
    },
  });
  return getMembershipInTenant(ctx, m.customerId, m.id);
}

export async function cancelMembership(ctx: Ctx, id: string, input: { customerId: string; cancelImmediately?: boolean; reason?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  return membershipView(ctx, await cancelMembershipRow(ctx, m, input));
}

// ------------------------------------------------------------------------------------------------
// Reactivate

export async function reactivateMembership(ctx: Ctx, id: string, input: { customerId: string; paymentMethodId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  assertBillingIdle(ctx, m);
  if (m.status === 'active' && m.cancelAtPeriodEnd) {
    await commitChange(ctx, changeStmts(ctx, m, { cancelAtPeriodEnd: false }, 'cancel_unscheduled'), {
      audit: { action: 'membership.reactivate', targetType: 'membership', targetId: m.id, details: { unscheduled: true } },
    });
    return membershipView(ctx, await getMembershipInTenant(ctx, customerId, id));
  }
  if (m.status === 'past_due') {
    const r = await renewOne(ctx, m, { manual: true, paymentMethodId: input.paymentMethodId });
    if (r.status === 'skipped') throw new ApiError('version_conflict', 'The membership was changed by another request at the same moment; reload it and retry');
    const after = await getMembershipInTenant(ctx, customerId, id);
    if (r.status !== 'renewed') {
      throw membershipErrors.fail('payment_declined', 'The open invoice could not be charged; the membership stays past due', {
        extra: { declineCode: r.declineCode ?? 'card_declined', invoiceId: r.invoiceId },
      });
    }
    return membershipView(ctx, after);
  }
  if (m.status !== 'canceled') throw stateError(m, 'reactivated (it is not canceled)');
  return membershipView(ctx, await restartCanceled(ctx, m, input.paymentMethodId));
}

/** Claims a canceled membership for its restart (canceled -> incomplete, one version up), or explains why not. */
async function claimRestart(ctx: Ctx, m: MembershipRow, nowIso: string): Promise<void> {
  try {
    const claimed = await ctx.db
      .update(memberships)
      .set({ status: 'incomplete', version: m.version + 1, updatedAt: nowIso })
      .where(and(eq(memberships.id, m.id), eq(memberships.customerId, m.customerId), eq(memberships.status, 'canceled'), eq(memberships.version, m.version)))
      .run();
    if (!(claimed.meta?.changes ?? 0))
      throw new ApiError('version_conflict', 'The membership was changed by another request at the same moment; reload it and retry');
  } catch (err) {
    if (isLiveMemberConflict(err)) throw membershipErrors.fail('already_member', 'The member already has another active membership');
    throw err;
  }
}

/**
 * A canceled membership starts a new paid period now at its price. Claimed first (the row goes
 * `incomplete` under the live-member index: another live membership of the member answers 400),
 * charged, then written; a decline puts it back to canceled.
 */
async function restartCanceled(ctx: Ctx, m: MembershipRow, paymentMethodOverride?: string): Promise<MembershipRow> {
  const nowIso = clockIso(ctx);
  const pm = paymentMethodOverride ?? m.paymentMethodId;
  if (m.price > 0 && !pm) throw membershipErrors.fail('payment_method_required', 'The membership has no card on file: give paymentMethodId');
  await claimRestart(ctx, m, nowIso);
  const v = m.version + 1;
  const putBack = () =>
    ctx.db
      .update(memberships)
      .set({ status: 'canceled' })
      .where(and(eq(memberships.id, m.id), eq(memberships.status, 'incomplete')))
      .run();
  try {
    const [tier, tz] = await Promise.all([findTier(ctx, m.customerId, m.tierId), memberZone(ctx, m.customerId)]);
    const periodEnd = addCycles(nowIso, m.billingCycle, 1, anchorDayOf(nowIso));
    const invoiceId = newId('minv');
    let charge: ChargeRequest | null = null;
    let paid: Awaited<ReturnType<typeof chargeCard>> | null = null;
    if (m.price > 0) {
      charge = {
        customerId: m.customerId,
        membershipId: m.id,
        invoiceId,
        renterId: m.renterId,
        kind: 'membership_reactivation',
        amount: m.price,
        currency: m.currency,
        paymentCustomerId: m.paymentCustomerId,
        paymentMethodId: pm!,
        description: `Membership reactivation ${tier?.name ?? ''} (${m.billingCycle})`,
        idempotencyKey: `${m.id}_react_v${v}`,
        saveCard: !!paymentMethodOverride,
      };
      paid = await chargeCard(ctx, charge);
      if (!paid.ok) throw declined(paid);
    }
    const invoice = newInvoice(ctx, tz, m, {
      id: invoiceId,
      kind: 'reactivation',
      status: 'paid',
      periodStart: nowIso,
      periodEnd,
      lines: [
        {
          description: `${tier?.name ?? 'Membership'}, ${m.billingCycle} (${localDay(nowIso, tz)} to ${localDay(periodEnd, tz)})`,
          kind: 'membership',
          amount: m.price,
        },
      ],
      amountPaid: m.price,
      attempts: m.price > 0 ? 1 : 0,
      paidAt: nowIso,
    });
    await commit(
      ctx,
      [
        ctx.db
          .update(memberships)
          .set({
            status: 'active',
            canceledAt: null,
            cancelAtPeriodEnd: false,
            currentPeriodStart: nowIso,
            currentPeriodEnd: periodEnd,
            billingAnchorDay: anchorDayOf(nowIso),
            nextChargeAt: periodEnd,
            dunningAttempts: 0,
            openInvoiceId: null,
            pastDueSince: null,
            pausedAt: null,
            resumeAt: null,
            ...(paid?.ok ? { paymentMethodId: paid.intent.paymentMethodId ?? pm } : {}),
            version: v + 1,
            updatedAt: nowIso,
          })
          .where(and(eq(memberships.id, m.id), eq(memberships.status, 'incomplete'), eq(memberships.version, v))),
        historyStmt(ctx, m, 'reactivated', { invoiceId, amount: m.price, periodEnd }, actorOf(ctx), v + 1),
        ...invoiceStmts(ctx, m, invoice, paid?.ok ? paid.intent.id : null),
        ...periodGrantStmts(ctx, m, tier, invoiceId),
        ...(charge && paid?.ok
          ? [
              paymentStmt(
                ctx,
                paymentRow(ctx, m, { invoiceId, kind: 'charge', status: 'succeeded', amount: m.price, paymentIntentId: paid.intent.id, attempt: 1 }),
              ),
            ]
          : []),
      ],
      {
        audit: { action: 'membership.reactivate', targetType: 'membership', targetId: m.id, customerId: m.customerId, details: { invoiceId, amount: m.price } },
        events: charge && paid?.ok ? [paymentCompletedEvent(charge, paid.intent)] : [],
      },
    );
    return getMembershipInTenant(ctx, m.customerId, m.id);
  } catch (err) {
    await putBack().catch(() => undefined);
    throw err;
  }
}

// ------------------------------------------------------------------------------------------------
// Pause and resume

async function pausesInLastYear(ctx: Ctx, m: MembershipRow, now: number): Promise<number> {
  const row = await ctx.db
    .select({ n: count() })
    .from(membershipEvents)
    .where(
      and(
        eq(membershipEvents.membershipId, m.id),
        eq(membershipEvents.type, 'paused'),
        gt(membershipEvents.createdAt, new Date(now - 365 * DAY).toISOString()),
      ),
    )
    .get();
  return Number(row?.n ?? 0);
}

export async function pauseMembershipRow(ctx: Ctx, m: MembershipRow, o: { resumeAt?: string; force?: boolean; reason?: string; via?: 'operator' | 'portal' }) {
  if (o.force) requireStaffOverride(ctx, 'Forcing a pause');
  if (m.status !== 'active') throw stateError(m, 'paused');
  if (m.openInvoiceId) throw membershipErrors.fail('membership_state', 'A renewal payment is outstanding; it must be paid before the membership can be paused');
  if (m.cancelAtPeriodEnd) throw stateError(m, 'paused');
  assertBillingIdle(ctx, m);
  const now = nowMs(ctx);
  const tier = await findTier(ctx, m.customerId, m.tierId);
  const policy = tier ? pausePolicyOf(tier) : { enabled: false, maxPausesPerYear: 0, maxPauseDays: 0 };
  if (o.resumeAt && Date.parse(o.resumeAt) <= now)
    throw new ApiError('bad_request', 'resumeAt must be in the future', { details: [{ field: 'resumeAt', message: 'must be in the future' }] });
  let resumeAt = o.resumeAt ?? null;
  if (!o.force) {
    if (!policy.enabled) throw membershipErrors.fail('pause_not_allowed', "The tier's pause policy does not allow pausing this membership");
    const used = await pausesInLastYear(ctx, m, now);
    if (used >= policy.maxPausesPerYear) {
      throw membershipErrors.fail('pause_not_allowed', `The maximum of ${policy.maxPausesPerYear} pause(s) in 365 days is reached`, {
        extra: { pausesInLastYear: used },
      });
    }
    const latest = now + policy.maxPauseDays * DAY;
    if (resumeAt && Date.parse(resumeAt) > latest + 60_000) {
      throw membershipErrors.fail(
        'pause_not_allowed',
        `A pause may last at most ${policy.maxPauseDays} days (resumeAt by ${localDay(new Date(latest).toISOString(), await memberZone(ctx, m.customerId))})`,
      );
    }
    resumeAt ??= new Date(latest).toISOString();
  }
  const nowIso = new Date(now).toISOString();
  await commitChange(
    ctx,
    changeStmts(ctx, m, { status: 'paused', pausedAt: nowIso, resumeAt, nextChargeAt: null }, 'paused', {
      resumeAt,
      forced: !!o.force,
      reason: o.reason ?? null,
      via: o.via ?? 'operator',
    }),
    { audit: { action: 'membership.pause', targetType: 'membership', targetId: m.id, customerId: m.customerId, details: { resumeAt, forced: !!o.force } } },
  );
  return getMembershipInTenant(ctx, m.customerId, m.id);
}

export async function pauseMembership(ctx: Ctx, id: string, input: { customerId: string; resumeAt?: string; force?: boolean; reason?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  if (input.force) requireStaffOverride(ctx, 'Forcing a pause');
  const m = await getMembershipInTenant(ctx, customerId, id);
  return membershipView(ctx, await pauseMembershipRow(ctx, m, input));
}

/** paused -> active; the period end moves forward by the whole days paused (also the billing job's auto-resume). */
export async function resumeMembershipRow(ctx: Ctx, m: MembershipRow, via: 'operator' | 'portal' | 'auto' = 'operator') {
  if (m.status !== 'paused') throw stateError(m, 'resumed (it is not paused)');
  const now = nowMs(ctx);
  const paused = Math.max(0, daysBetween(m.pausedAt ?? now, now));
  const end = addDaysIso(m.currentPeriodEnd, paused);
  await commitChange(
    ctx,
    changeStmts(
      ctx,
      m,
      { status: 'active', pausedAt: null, resumeAt: null, currentPeriodEnd: end, billingAnchorDay: anchorDayOf(end), nextChargeAt: end },
      'resumed',
      { daysPaused: paused, previousPeriodEnd: m.currentPeriodEnd, currentPeriodEnd: end, via },
    ),
    { audit: { action: 'membership.resume', targetType: 'membership', targetId: m.id, customerId: m.customerId, details: { daysPaused: paused, via } } },
  );
  return getMembershipInTenant(ctx, m.customerId, m.id);
}

export async function resumeMembership(ctx: Ctx, id: string, input: { customerId: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  return membershipView(ctx, await resumeMembershipRow(ctx, m));
}

/** The billing job's auto-resume (resumeAt reached). */
export const autoResume = (ctx: Ctx, m: MembershipRow) => resumeMembershipRow(ctx, m, 'auto');
