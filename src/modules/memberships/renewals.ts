/**
 * Membership billing on the cron (`memberships.billing`, every 5 minutes):
 *
 * - renews every active membership whose `nextChargeAt` has come: CLAIMS the period with one
 *   conditional UPDATE (`billing_claim` set only when free or expired, version bumped), charges
 *   through `chargeCard` with an idempotency key derived from the membership, the period and the
 *   attempt, then writes the invoice (unique per membership and period), the payment, the next
 *   period, the period credits, history, receipt, audit and `payment.completed` in one batch. Two
 *   runs at once: one wins the claim, the other skips; a run that crashed after charging is
 *   replayed by the next run with the same idempotency key, so the provider returns the same
 *   payment instead of charging again;
 * - dunning: a declined renewal leaves an `open` invoice and is retried 1, 3 and 5 days after the
 *   due date (the member keeps the benefits meanwhile and is e-mailed a portal link to change the
 *   card); when the fourth attempt fails the membership becomes `past_due` (no benefits) until the
 *   invoice is paid (new card in the portal, or POST /memberships/{id}/reactivate);
 * - ends memberships scheduled to cancel at their period end, resumes paused memberships whose
 *   `resumeAt` has come, and clears stale claims and expired portal tokens.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, min, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso as clockIso, nowMs } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { emailStmt } from '../../adapters/messages';
import { membershipInvoices, membershipPortalTokens, memberships } from '../../db/schema/memberships';
import { forTenant } from './access';
import { invoicePaymentStmts, writtenInvoiceMoney } from './ledger';
import { historyStmt, invoiceStmts, newInvoice, paymentRow, paymentStmt, periodGrantStmts, receiptStmt } from './billing-records';
import { chargeCard, paymentCompletedEvent, type ChargeOutcome, type ChargeRequest } from './payments';
import { addCycles, anchorDayOf, localDay, MAX_RENEWAL_ATTEMPTS, money, nextDunningAttempt, type InvoiceLine } from './periods';
import { portalLinkStatements } from './portal-links';
import { findTier, memberZone } from './queries';
import type { InvoiceRow, MembershipRow, TierRow } from './views';

const CLAIM_MS = 10 * 60_000;
const STALE_CLAIM_MS = 15 * 60_000;
const BATCH = 100;

export interface RenewalOutcome {
  status: 'renewed' | 'declined' | 'past_due' | 'skipped';
  invoiceId?: string;
  paymentIntentId?: string | null;
  attempt?: number;
  declineCode?: string;
}

const changesOf = (r: unknown) => (r as { meta?: { changes?: number } })?.meta?.changes ?? 0;

/**
 * Charges the membership's due renewal (or its open invoice) once. `manual` is a retry asked for
 * by staff or the member (past due, or a new card): it does not wait for the dunning schedule.
 */
export async function renewOne(ctx: Ctx, m0: MembershipRow, opts: { manual?: boolean; paymentMethodId?: string } = {}): Promise<RenewalOutcome> {
  const now = nowMs(ctx);
  const nowIso = new Date(now).toISOString();
  const runId = newId('run');
  // The claim: one conditional UPDATE. Only one run can hold a membership's billing at a time.
  const claimConds = [
    eq(memberships.id, m0.id),
    eq(memberships.customerId, m0.customerId),
    or(isNull(memberships.billingClaimUntil), lt(memberships.billingClaimUntil, nowIso)),
  ];
  if (opts.manual) {
    claimConds.push(inArray(memberships.status, ['active', 'past_due']), eq(memberships.version, m0.version));
  } else {
    claimConds.push(eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, false), eq(memberships.nextChargeAt, m0.nextChargeAt ?? ''));
    claimConds.push(lte(memberships.nextChargeAt, nowIso));
  }
  const claimed = await ctx.db
    .update(memberships)
    .set({ billingClaim: runId, billingClaimUntil: new Date(now + CLAIM_MS).toISOString(), version: sql`${memberships.version} + 1` })
    .where(and(...claimConds))
    .run();
  if (!changesOf(claimed)) return { status: 'skipped' };
  const release = () => releaseClaim(ctx, m0.id, runId);
  try {
    const m = (await ctx.db.select().from(memberships).where(eq(memberships.id, m0.id)).get())!;
    return await chargeClaimed(ctx, m, runId, opts);
  } catch (err) {
    await release().catch(() => undefined);
    throw err;
  }
}

type RenewOpts = { manual?: boolean; paymentMethodId?: string };
type RenewalPlan = ReturnType<typeof planRenewal>;
type Declined = Extract<ChargeOutcome, { ok: false }>;

/** Everything one claimed renewal run knows once it has tried the charge. */
interface RenewalRun {
  ctx: Ctx;
  tctx: Ctx;
  m: MembershipRow;
  opts: RenewOpts;
  nowIso: string;
  tier: TierRow | undefined;
  tz: string;
  open: InvoiceRow | undefined;
  plan: RenewalPlan;
  outcome: ChargeOutcome | null;
  charge: ChargeRequest | null;
  intentId: string | null;
  lines: InvoiceLine[];
  guard: ReturnType<typeof and>;
  cardChange: { paymentMethodId?: string };
}

async function chargeClaimed(ctx: Ctx, m: MembershipRow, runId: string, opts: RenewOpts): Promise<RenewalOutcome> {
  const tctx = forTenant(ctx, m.customerId);
  const nowIso = clockIso(ctx);
  const [tier, tz] = await Promise.all([findTier(ctx, m.customerId, m.tierId), memberZone(ctx, m.customerId)]);
  const open = await loadOpenInvoice(ctx, m);
  if (opts.manual && !open) {
    await releaseClaim(ctx, m.id, runId);
    return { status: 'skipped' };
  }
  if (!open) {
    const repaired = await repairRecordedPeriod(ctx, tctx, m, runId, nowIso);
    if (repaired) return repaired;
  }
  const plan = planRenewal(m, open, opts, nowIso);
  const { outcome, charge } = await chargeRenewal(tctx, m, tier, plan, opts);
  const paid = plan.amount <= 0 || outcome?.ok === true;
  const run: RenewalRun = {
    ctx,
    tctx,
    m,
    opts,
    nowIso,
    tier,
    tz,
    open,
    plan,
    outcome,
    charge,
    intentId: outcome?.ok ? outcome.intent.id : (outcome?.intentId ?? null),
    lines: renewalLines(m, tier, tz, plan),
    // The claim is the guard of this batch: the membership UPDATE matches only while this run holds it,
    // and the history row carries the next version (unique), so a batch from a run that lost its claim fails whole.
    guard: and(eq(memberships.id, m.id), eq(memberships.customerId, m.customerId), eq(memberships.billingClaim, runId)),
    cardChange: opts.paymentMethodId ? { paymentMethodId: outcome?.ok ? (outcome.intent.paymentMethodId ?? opts.paymentMethodId) : opts.paymentMethodId } : {},
  };
  const { statements, events } = paid ? paidRenewalWrites(run) : await declinedRenewalWrites(run);
  const { invoiceId, amount, attempt } = plan;
  await commit(tctx, statements, {
    audit: {
      action: paid ? 'membership.renew' : 'membership.renewal_declined',
      targetType: 'membership',
      targetId: m.id,
      customerId: m.customerId,
      details: { invoiceId, amount, attempt, manual: !!opts.manual },
    },
    events,
  });
  return renewalResult(run, paid);
}

/** The membership's open (unpaid) renewal invoice, if any. */
async function loadOpenInvoice(ctx: Ctx, m: MembershipRow): Promise<InvoiceRow | undefined> {
  if (!m.openInvoiceId) return undefined;
  return ctx.db
    .select()
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.id, m.openInvoiceId), eq(membershipInvoices.customerId, m.customerId)))
    .get();
}

/** Gives up this run's claim without writing anything else. */
async function releaseClaim(ctx: Ctx, membershipId: string, runId: string): Promise<void> {
  await ctx.db
    .update(memberships)
    .set({ billingClaim: null, billingClaimUntil: null })
    .where(and(eq(memberships.id, membershipId), eq(memberships.billingClaim, runId)))
    .run();
}

/**
 * A run that lost its claim after charging may have recorded this period already: just move on to
 * the next period. Returns null when the period is not recorded yet.
 */
async function repairRecordedPeriod(ctx: Ctx, tctx: Ctx, m: MembershipRow, runId: string, nowIso: string): Promise<RenewalOutcome | null> {
  const recorded = await ctx.db
    .select()
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.membershipId, m.id), eq(membershipInvoices.renewalKey, m.currentPeriodEnd), eq(membershipInvoices.status, 'paid')))
    .get();
  if (!recorded) return null;
  await commit(tctx, [
    ctx.db
      .update(memberships)
      .set({
        currentPeriodStart: recorded.periodStart,
        currentPeriodEnd: recorded.periodEnd,
        nextChargeAt: recorded.periodEnd,
        dunningAttempts: 0,
        billingClaim: null,
        billingClaimUntil: null,
        version: m.version + 1,
        updatedAt: nowIso,
      })
      .where(and(eq(memberships.id, m.id), eq(memberships.billingClaim, runId))),
    historyStmt(ctx, m, 'renewed', { invoiceId: recorded.id, repaired: true }, 'billing', m.version + 1),
  ]);
  return { status: 'renewed', invoiceId: recorded.id, attempt: recorded.attempts };
}

/** The period this charge pays: the next one, or (paying a past-due invoice) one starting now. */
function planRenewal(m: MembershipRow, open: InvoiceRow | undefined, opts: RenewOpts, nowIso: string) {
  const due = m.currentPeriodEnd;
  const recovering = m.status === 'past_due';
  const periodStart = recovering ? nowIso : due;
  const anchor = recovering ? anchorDayOf(nowIso) : m.billingAnchorDay;
  const periodEnd = addCycles(periodStart, m.billingCycle, 1, anchor);
  return {
    due,
    recovering,
    periodStart,
    anchor,
    periodEnd,
    renewalKey: open?.renewalKey ?? due,
    attempt: (open?.attempts ?? 0) + 1,
    amount: open ? open.total - open.amountPaid : m.price,
    invoiceId: open?.id ?? newId('minv'),
    paymentMethodId: opts.paymentMethodId ?? m.paymentMethodId,
  };
}

/** Charges the card for the planned period (nothing to charge when the amount is zero). */
async function chargeRenewal(
  tctx: Ctx,
  m: MembershipRow,
  tier: TierRow | undefined,
  plan: RenewalPlan,
  opts: RenewOpts,
): Promise<{ outcome: ChargeOutcome | null; charge: ChargeRequest | null }> {
  const { amount, paymentMethodId, invoiceId, renewalKey, attempt } = plan;
  if (amount <= 0) return { outcome: null, charge: null };
  if (!paymentMethodId) return { outcome: { ok: false, code: 'invalid_payment_method', message: 'No card on file', intentId: null }, charge: null };
  const charge: ChargeRequest = {
    customerId: m.customerId,
    membershipId: m.id,
    invoiceId,
    renterId: m.renterId,
    kind: 'membership_renewal',
    amount,
    currency: m.currency,
    paymentCustomerId: m.paymentCustomerId,
    paymentMethodId,
    description: `Membership renewal ${tier?.name ?? m.tierId} (${m.billingCycle})`,
    idempotencyKey: `${m.id}_r${Date.parse(renewalKey)}_a${attempt}`,
    saveCard: !!opts.paymentMethodId && opts.paymentMethodId !== m.paymentMethodId,
  };
  return { outcome: await chargeCard(tctx, charge), charge };
}

function renewalLines(m: MembershipRow, tier: TierRow | undefined, tz: string, plan: RenewalPlan): InvoiceLine[] {
  return [
    {
      description: `${tier?.name ?? 'Membership'}, ${m.billingCycle} (${localDay(plan.periodStart, tz)} to ${localDay(plan.periodEnd, tz)})`,
      kind: 'membership',
      amount: m.price,
    },
  ];
}

/** The paid invoice (the open one settled, or a new one) and its statements (the invoice and its ledger entries). */
function paidInvoiceWrite(run: RenewalRun): { invoice: InvoiceRow; stmts: Stmt[] } {
  const { ctx, tz, m, open, nowIso, lines } = run;
  const { amount, attempt, recovering, periodStart, periodEnd, invoiceId, renewalKey } = run.plan;
  if (!open) {
    const invoice = newInvoice(ctx, tz, m, {
      id: invoiceId,
      kind: 'renewal',
      status: 'paid',
      periodStart,
      periodEnd,
      lines,
      amountPaid: Math.max(0, amount),
      renewalKey,
      attempts: amount > 0 ? attempt : 0,
      paidAt: nowIso,
    });
    return { invoice, stmts: invoiceStmts(ctx, m, invoice, run.intentId) };
  }
  const invoice: InvoiceRow = {
    ...open,
    status: 'paid',
    amountPaid: open.amountPaid + Math.max(0, amount),
    attempts: attempt,
    nextAttemptAt: null,
    paidAt: nowIso,
  };
  if (recovering) Object.assign(invoice, { periodStart, periodEnd, lines });
  const stmt = ctx.db
    .update(membershipInvoices)
    .set({
      status: 'paid',
      amountPaid: invoice.amountPaid,
      attempts: attempt,
      nextAttemptAt: null,
      paidAt: nowIso,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      lines: invoice.lines,
      updatedAt: nowIso,
    })
    .where(and(eq(membershipInvoices.id, open.id), eq(membershipInvoices.status, 'open')));
  return { invoice, stmts: [stmt, ...invoicePaymentStmts(ctx, m, invoice, Math.max(0, amount), run.intentId)] };
}

/** The batch of a paid renewal: invoice, the next period, history, credits, receipt and payment. */
function paidRenewalWrites(run: RenewalRun): { statements: Stmt[]; events: DomainEvent[] } {
  const { ctx, tctx, tz, m, tier, nowIso, charge, outcome, intentId } = run;
  const { amount, attempt, recovering, periodStart, periodEnd, anchor, invoiceId } = run.plan;
  const { invoice, stmts } = paidInvoiceWrite(run);
  const statements: Stmt[] = [...stmts];
  const events: DomainEvent[] = [];
  statements.push(
    ctx.db
      .update(memberships)
      .set({
        status: 'active',
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        billingAnchorDay: anchor,
        nextChargeAt: periodEnd,
        dunningAttempts: 0,
        openInvoiceId: null,
        pastDueSince: null,
        billingClaim: null,
        billingClaimUntil: null,
        ...run.cardChange,
        version: m.version + 1,
        updatedAt: nowIso,
      })
      .where(run.guard),
    historyStmt(
      ctx,
      m,
      recovering ? 'past_due_paid' : 'renewed',
      { invoiceId, amount, attempt, periodStart, periodEnd, paymentIntentId: intentId },
      'billing',
      m.version + 1,
    ),
    ...periodGrantStmts(ctx, m, tier, invoiceId),
    receiptStmt(tctx, tz, m, invoice, writtenInvoiceMoney(m, invoice), m.memberEmail, tier?.name).stmt,
  );
  if (charge && outcome?.ok) {
    statements.push(
      paymentStmt(ctx, paymentRow(ctx, m, { invoiceId, kind: 'charge', status: 'succeeded', amount, paymentIntentId: outcome.intent.id, attempt })),
    );
    events.push(paymentCompletedEvent(charge, outcome.intent));
  }
  return { statements, events };
}

/** Where a declined renewal goes next on the dunning schedule. */
function dunningStep(run: RenewalRun) {
  const { m, opts, open } = run;
  const { recovering, due } = run.plan;
  // The dunning schedule counts the automatic attempts only (a manual retry does not shorten it).
  const autoAttempts = opts.manual ? m.dunningAttempts : m.dunningAttempts + 1;
  const nextAttemptAt = recovering ? null : opts.manual ? (open?.nextAttemptAt ?? null) : nextDunningAttempt(due, autoAttempts);
  const goesPastDue = !opts.manual && !recovering && (autoAttempts >= MAX_RENEWAL_ATTEMPTS || !nextAttemptAt);
  return { autoAttempts, nextAttemptAt, goesPastDue };
}

/** The open invoice's statements for a declined attempt (the open one updated, or a new one with its ledger entries). */
function openInvoiceWrite(run: RenewalRun, nextAttemptAt: string | null): Stmt[] {
  const { ctx, tz, m, open, nowIso, lines } = run;
  const { attempt, periodStart, periodEnd, invoiceId, renewalKey } = run.plan;
  if (open) {
    return [
      ctx.db
        .update(membershipInvoices)
        .set({ attempts: attempt, nextAttemptAt, updatedAt: nowIso })
        .where(and(eq(membershipInvoices.id, open.id), eq(membershipInvoices.status, 'open'))),
    ];
  }
  const invoice = newInvoice(ctx, tz, m, {
    id: invoiceId,
    kind: 'renewal',
    status: 'open',
    periodStart,
    periodEnd,
    lines,
    renewalKey,
    attempts: attempt,
    nextAttemptAt,
  });
  return invoiceStmts(ctx, m, invoice);
}

/** The batch of a declined renewal: open invoice, failed payment, dunning state, history and (automatic runs) the notice. */
async function declinedRenewalWrites(run: RenewalRun): Promise<{ statements: Stmt[]; events: DomainEvent[] }> {
  const { ctx, m, opts, nowIso, intentId } = run;
  const { amount, attempt, recovering, invoiceId } = run.plan;
  const failed = run.outcome as Declined;
  const { autoAttempts, nextAttemptAt, goesPastDue } = dunningStep(run);
  const statements: Stmt[] = openInvoiceWrite(run, nextAttemptAt);
  statements.push(
    paymentStmt(
      ctx,
      paymentRow(ctx, m, {
        invoiceId,
        kind: 'charge',
        status: 'failed',
        amount,
        paymentIntentId: intentId,
        attempt,
        failureCode: failed.code,
        failureMessage: failed.message,
      }),
    ),
    ctx.db
      .update(memberships)
      .set({
        openInvoiceId: invoiceId,
        dunningAttempts: autoAttempts,
        nextChargeAt: goesPastDue || recovering ? null : (nextAttemptAt ?? m.nextChargeAt),
        ...(goesPastDue ? { status: 'past_due' as const, pastDueSince: nowIso } : {}),
        billingClaim: null,
        billingClaimUntil: null,
        ...run.cardChange,
        version: m.version + 1,
        updatedAt: nowIso,
      })
      .where(run.guard),
    historyStmt(
      ctx,
      m,
      goesPastDue ? 'past_due' : 'renewal_declined',
      { invoiceId, amount, attempt, declineCode: failed.code, nextAttemptAt },
      opts.manual ? (ctx.principal.userId ?? ctx.principal.credentialId) : 'billing',
      m.version + 1,
    ),
  );
  if (!opts.manual) statements.push(...(await declineNoticeStmts(run, failed, nextAttemptAt, goesPastDue)));
  return { statements, events: [] };
}

/** The e-mail telling the member the charge was declined (or the membership is past due), with a portal link to change the card. */
async function declineNoticeStmts(run: RenewalRun, failed: Declined, nextAttemptAt: string | null, goesPastDue: boolean): Promise<Stmt[]> {
  const { tctx, m, tier, tz } = run;
  const { amount, invoiceId, attempt } = run.plan;
  const link = await portalLinkStatements(tctx, { customerId: m.customerId, membershipId: m.id });
  return [
    link.stmt,
    emailStmt(tctx, {
      customerId: m.customerId,
      to: m.memberEmail,
      subject: goesPastDue ? 'Your membership is past due' : 'Your membership payment was declined',
      body: `Hello ${m.memberName ?? ''},\n\nWe could not charge ${money(amount, m.currency)} for your ${tier?.name ?? ''} membership (${failed.code}).${
        goesPastDue
          ? ' Your membership is now past due and its benefits are suspended until the invoice is paid.'
          : ` We will try again on ${localDay(nextAttemptAt!, tz)}.`
      }\n\nUpdate your card: ${link.url}\nThis link works once and expires in ${link.validMinutes} minutes.`,
      template: goesPastDue ? 'membership.past_due' : 'membership.payment_failed',
      metadata: { membershipId: m.id, invoiceId, attempt },
    }).stmt,
  ];
}

/** What the run answers once its batch is written (a decline re-reads the status it left). */
async function renewalResult(run: RenewalRun, paid: boolean): Promise<RenewalOutcome> {
  const { ctx, m, intentId, outcome } = run;
  const { invoiceId, attempt } = run.plan;
  if (paid) return { status: 'renewed', invoiceId, paymentIntentId: intentId, attempt };
  const after = await ctx.db.select({ status: memberships.status }).from(memberships).where(eq(memberships.id, m.id)).get();
  return {
    status: after?.status === 'past_due' ? 'past_due' : 'declined',
    invoiceId,
    paymentIntentId: intentId,
    attempt,
    declineCode: (outcome as { code?: string })?.code,
  };
}

/** Ends a membership scheduled to cancel at its period end. */
async function endAtPeriodEnd(ctx: Ctx, m: MembershipRow, nowIso: string) {
  const tctx = forTenant(ctx, m.customerId);
  const tz = await memberZone(ctx, m.customerId);
  const set = { status: 'canceled' as const, canceledAt: m.currentPeriodEnd, nextChargeAt: null, cancelAtPeriodEnd: false };
  const res = await commit(
    tctx,
    [
      ctx.db
        .update(memberships)
        .set({ ...set, version: m.version + 1, updatedAt: nowIso })
        .where(and(eq(memberships.id, m.id), eq(memberships.version, m.version), eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, true))),
      historyStmt(ctx, m, 'canceled', { at: m.currentPeriodEnd, scheduled: true }, 'billing', m.version + 1),
      emailStmt(tctx, {
        customerId: m.customerId,
        to: m.memberEmail,
        subject: 'Your membership has ended',
        body: `Hello ${m.memberName ?? ''},\n\nYour membership ended on ${localDay(m.currentPeriodEnd, tz)} as requested. We hope to see you again.`,
        template: 'membership.ended',
        metadata: { membershipId: m.id },
      }).stmt,
    ],
    { audit: { action: 'membership.cancel_at_period_end', targetType: 'membership', targetId: m.id, customerId: m.customerId } },
  );
  return res;
}

export interface BillingRunSummary {
  renewed: number;
  declined: number;
  pastDue: number;
  skipped: number;
  ended: number;
  resumed: number;
  sweptClaims: number;
}

/**
 * The cron job, at `ctx.clock`'s "now" for the operators of the job's scope (lib/job-scope.ts).
 * `resume` is passed in by the module (lifecycle.ts owns the resume rules) so this file does not
 * import it.
 */
export async function runMembershipBilling(ctx: Ctx, resume: (ctx: Ctx, m: MembershipRow) => Promise<unknown>): Promise<BillingRunSummary> {
  const now = nowMs(ctx);
  const nowIso = new Date(now).toISOString();
  const scope = [inJobScope(ctx, memberships.customerId)];
  const out: BillingRunSummary = { renewed: 0, declined: 0, pastDue: 0, skipped: 0, ended: 0, resumed: 0, sweptClaims: 0 };

  // Stale claims: a create or reactivation that crashed between its claim and its write.
  const stale = new Date(now - STALE_CLAIM_MS).toISOString();
  const [revived, dropped] = await ctx.db.batch([
    ctx.db
      .update(memberships)
      .set({ status: 'canceled' })
      .where(and(eq(memberships.status, 'incomplete'), isNotNull(memberships.canceledAt), lt(memberships.updatedAt, stale), ...scope)),
    ctx.db.delete(memberships).where(and(eq(memberships.status, 'incomplete'), isNull(memberships.canceledAt), lt(memberships.updatedAt, stale), ...scope)),
    ctx.db
      .delete(membershipPortalTokens)
      .where(and(lt(membershipPortalTokens.expiresAt, new Date(now - 86_400_000).toISOString()), inJobScope(ctx, membershipPortalTokens.customerId))),
  ]);
  out.sweptClaims = changesOf(revived) + changesOf(dropped);

  const ending = await ctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, true), lte(memberships.currentPeriodEnd, nowIso), ...scope))
    .limit(BATCH)
    .all();
  for (const m of ending) {
    try {
      await endAtPeriodEnd(ctx, m, nowIso);
      out.ended++;
    } catch (err) {
      ctx.log.error('membership end failed', { membershipId: m.id, error: String(err) });
    }
  }

  const resuming = await ctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.status, 'paused'), isNotNull(memberships.resumeAt), lte(memberships.resumeAt, nowIso), ...scope))
    .limit(BATCH)
    .all();
  for (const m of resuming) {
    try {
      await resume(forTenant(ctx, m.customerId), m);
      out.resumed++;
    } catch (err) {
      ctx.log.error('membership auto-resume failed', { membershipId: m.id, error: String(err) });
    }
  }

  const due = await ctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, false), lte(memberships.nextChargeAt, nowIso), ...scope))
    .orderBy(asc(memberships.nextChargeAt))
    .limit(BATCH)
    .all();
  for (const m of due) {
    try {
      const r = await renewOne(ctx, m);
      if (r.status === 'renewed') out.renewed++;
      else if (r.status === 'declined') out.declined++;
      else if (r.status === 'past_due') out.pastDue++;
      else out.skipped++;
    } catch (err) {
      ctx.log.error('membership renewal failed', { membershipId: m.id, error: String(err) });
    }
  }
  return out;
}

/**
 * When billing next has work (its `nextDue`): the earliest renewal or dunning retry
 * (`nextChargeAt`), period-end cancellation or auto-resume after now.
 */
export async function nextBillingDue(ctx: Ctx): Promise<number | null> {
  const nowIso = clockIso(ctx);
  const scope = inJobScope(ctx, memberships.customerId);
  const [charge, ending, resuming] = await ctx.db.batch([
    ctx.db
      .select({ at: min(memberships.nextChargeAt) })
      .from(memberships)
      .where(and(eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, false), gt(memberships.nextChargeAt, nowIso), scope)),
    ctx.db
      .select({ at: min(memberships.currentPeriodEnd) })
      .from(memberships)
      .where(and(eq(memberships.status, 'active'), eq(memberships.cancelAtPeriodEnd, true), gt(memberships.currentPeriodEnd, nowIso), scope)),
    ctx.db
      .select({ at: min(memberships.resumeAt) })
      .from(memberships)
      .where(and(eq(memberships.status, 'paused'), gt(memberships.resumeAt, nowIso), scope)),
  ]);
  const dues = [charge[0]?.at, ending[0]?.at, resuming[0]?.at].filter((d): d is string => !!d).map((d) => Date.parse(d));
  return dues.length ? Math.min(...dues) : null;
}
