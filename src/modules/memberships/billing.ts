/**
 * Billing changes of a membership (all in cents, whole UTC days; formulas in periods.ts):
 *
 * - add-free-month: the period end moves one cycle later; a 0 invoice records it; no charge.
 * - change-date: the period end (next billing date) becomes `newBillingDate` (future only). With
 *   `proRate`: credit the unused days to the old date and charge the days to the new one, both at
 *   the current rate per period day.
 * - switch-cycle: with `proRate` the new cycle starts today (credit the unused part of the old
 *   period, charge the whole new-cycle price); without, the next renewal bills the new cycle.
 * - change-price: with `proRate`, credit the unused days at the old price and charge them at the
 *   new one; without, the new price applies from the next renewal.
 *
 * A positive net is charged at once through the payments adapter (a decline answers 400
 * `payment_declined` and changes nothing); a negative net goes to the credits ledger. The change,
 * its invoice and payment are one batch guarded by the membership version.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso as clockIso, nowMs } from '../../lib/clock';
import { PaymentError } from '../../adapters/payments';
import { membershipInvoices, membershipPayments } from '../../db/schema/memberships';
import { membershipErrors } from './errors';
import { actorOf, requireManage } from './access';
import { assertBillingIdle, changeStmts, commitChange, stateError } from './change';
import { historyStmt, invoiceStmts, newInvoice, paymentRow, paymentStmt, receiptStmt } from './billing-records';
import { invoiceRefundStmts, writtenInvoiceMoney } from './ledger';
import { moneyOfSales } from '../bookings/service';
import { creditEntryStmt } from './credits';
import { tierPrice } from './create';
import { chargeCard, declined, paymentCompletedEvent, paymentRefundedEvent, refundCard, type ChargeRequest } from './payments';
import { addCycles, anchorDayOf, daysBetween, linesTotal, localDay, prorationLine, type InvoiceLine } from './periods';
import { findTier, getInvoiceInTenant, getMembershipInTenant, historyOf, invoicesOf, invoiceView, memberZone, membershipView } from './queries';
import type { BillingCycle } from './types';
import type { MembershipRow } from './views';

const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});

async function loadForChange(ctx: Ctx, id: string, customerIdInput: string, action: string) {
  const customerId = ownCustomer(ctx, customerIdInput);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  if (m.status !== 'active' || m.openInvoiceId) throw stateError(m, action);
  assertBillingIdle(ctx, m);
  return m;
}

interface Change {
  set: Partial<MembershipRow>;
  historyType: string;
  details: Record<string, unknown>;
  /** Null: nothing is invoiced. */
  invoice: { kind: 'proration' | 'free_period'; lines: InvoiceLine[]; periodStart: string; periodEnd: string; reason?: string | null } | null;
}

/** Charges a positive net, credits a negative one, and commits the change with its invoice. */
async function applyChange(ctx: Ctx, m: MembershipRow, c: Change, tz: string) {
  const nowIso = clockIso(ctx);
  const statements: Stmt[] = changeStmts(ctx, m, c.set, c.historyType, c.details);
  const events: DomainEvent[] = [];
  let invoiceId: string | null = null;
  let charge: ChargeRequest | null = null;
  let chargedIntentId: string | null = null;
  if (c.invoice) {
    const total = linesTotal(c.invoice.lines);
    invoiceId = newId('minv');
    if (total > 0) {
      if (!m.paymentMethodId) throw membershipErrors.fail('payment_method_required', 'The membership has no card on file to charge the proration');
      charge = {
        customerId: m.customerId,
        membershipId: m.id,
        invoiceId,
        renterId: m.renterId,
        kind: 'membership_proration',
        amount: total,
        currency: m.currency,
        paymentCustomerId: m.paymentCustomerId,
        paymentMethodId: m.paymentMethodId,
        description: `Membership ${c.historyType.replace(/_/g, ' ')}`,
        idempotencyKey: `${m.id}_${invoiceId}`,
      };
      const paid = await chargeCard(ctx, charge);
      if (!paid.ok) throw declined(paid);
      chargedIntentId = paid.intent.id;
      statements.push(
        paymentStmt(ctx, paymentRow(ctx, m, { invoiceId, kind: 'charge', status: 'succeeded', amount: total, paymentIntentId: paid.intent.id, attempt: 1 })),
      );
      events.push(paymentCompletedEvent(charge, paid.intent));
    } else if (total < 0) {
      statements.push(
        creditEntryStmt(ctx, {
          customerId: m.customerId,
          membershipId: m.id,
          kind: 'proration',
          amount: -total,
          description: `Proration credit (${c.historyType.replace(/_/g, ' ')})`,
          reference: invoiceId,
        }).stmt,
      );
    }
    const invoice = newInvoice(ctx, tz, m, {
      id: invoiceId,
      kind: c.invoice.kind,
      status: total < 0 ? 'credited' : 'paid',
      periodStart: c.invoice.periodStart,
      periodEnd: c.invoice.periodEnd,
      lines: c.invoice.lines,
      amountPaid: Math.max(0, total),
      attempts: total > 0 ? 1 : 0,
      paidAt: nowIso,
      reason: c.invoice.reason ?? null,
    });
    statements.push(...invoiceStmts(ctx, m, invoice, chargedIntentId));
    if (total !== 0) statements.push(receiptStmt(ctx, tz, m, invoice, writtenInvoiceMoney(m, invoice), m.memberEmail).stmt);
  }
  try {
    await commitChange(ctx, statements, {
      audit: {
        action: `membership.${c.historyType}`,
        targetType: 'membership',
        targetId: m.id,
        customerId: m.customerId,
        details: { ...c.details, invoiceId },
      },
      events,
    });
  } catch (err) {
    if (chargedIntentId) {
      await refundCard(ctx, chargedIntentId, charge!.amount, 'membership_change_not_written').catch((e) =>
        ctx.log.error('compensating membership refund failed', { paymentIntentId: chargedIntentId, error: String(e) }),
      );
    }
    throw err;
  }
  const after = await getMembershipInTenant(ctx, m.customerId, m.id);
  const invoice = invoiceId ? await invoiceView(ctx, await getInvoiceInTenant(ctx, m.customerId, m.id, invoiceId)) : null;
  return { membership: await membershipView(ctx, after), invoice };
}

/** The credit of the unused part of the current period at the old price: -round(P × days(T, E) / days(S, E)). */
function unusedCredit(m: MembershipRow, nowIso: string, label: string) {
  const periodDays = daysBetween(m.currentPeriodStart, m.currentPeriodEnd);
  const remaining = Math.min(periodDays, Math.max(0, daysBetween(nowIso, m.currentPeriodEnd)));
  return { line: prorationLine('proration_credit', label, m.price, remaining, periodDays), remaining, periodDays };
}

export async function addFreeMonth(ctx: Ctx, id: string, input: { customerId: string; reason?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  if (m.status !== 'active' && m.status !== 'paused') throw stateError(m, 'given a free period');
  assertBillingIdle(ctx, m);
  const end = addCycles(m.currentPeriodEnd, m.billingCycle, 1, m.billingAnchorDay);
  const tz = await memberZone(ctx, m.customerId);
  return applyChange(
    ctx,
    m,
    {
      set: { currentPeriodEnd: end, ...(m.status === 'active' && !m.openInvoiceId ? { nextChargeAt: end } : {}) },
      historyType: 'free_period_added',
      details: { previousPeriodEnd: m.currentPeriodEnd, currentPeriodEnd: end, reason: input.reason ?? null },
      invoice: {
        kind: 'free_period',
        lines: [
          { description: `Free ${m.billingCycle === 'yearly' ? 'year' : 'month'}${input.reason ? `: ${input.reason}` : ''}`, kind: 'free_period', amount: 0 },
        ],
        periodStart: m.currentPeriodEnd,
        periodEnd: end,
        reason: input.reason ?? null,
      },
    },
    tz,
  );
}

export async function changeBillingDate(ctx: Ctx, id: string, input: { customerId: string; newBillingDate: string; proRate?: boolean; reason?: string }) {
  const m = await loadForChange(ctx, id, input.customerId, 'given a new billing date');
  const nowIso = clockIso(ctx);
  const tz = await memberZone(ctx, m.customerId);
  const target = input.newBillingDate;
  if (Date.parse(target) <= nowMs(ctx)) throw bad('newBillingDate must be in the future', 'newBillingDate');
  if (daysBetween(m.currentPeriodEnd, target) === 0) throw bad('newBillingDate is the current billing date', 'newBillingDate');
  let invoice: Change['invoice'] = null;
  if (input.proRate) {
    const credit = unusedCredit(m, nowIso, `Unused days to ${localDay(m.currentPeriodEnd, tz)} at the current price`);
    const days = Math.max(0, daysBetween(nowIso, target));
    const charge = prorationLine('proration_charge', `Days to ${localDay(target, tz)} at the current price`, m.price, days, credit.periodDays);
    invoice = { kind: 'proration', lines: [credit.line, charge], periodStart: nowIso, periodEnd: target, reason: input.reason ?? null };
  }
  return applyChange(
    ctx,
    m,
    {
      set: { currentPeriodEnd: target, billingAnchorDay: anchorDayOf(target), nextChargeAt: target },
      historyType: 'billing_date_changed',
      details: { previousPeriodEnd: m.currentPeriodEnd, currentPeriodEnd: target, proRate: !!input.proRate, reason: input.reason ?? null },
      invoice,
    },
    tz,
  );
}

export async function switchBillingCycle(
  ctx: Ctx,
  id: string,
  input: { customerId: string; newBillingCycle: BillingCycle; proRate?: boolean; reason?: string },
) {
  const m = await loadForChange(ctx, id, input.customerId, 'switched to another cycle');
  if (input.newBillingCycle === m.billingCycle) throw bad(`The membership is already billed ${m.billingCycle}`, 'newBillingCycle');
  const tier = await findTier(ctx, m.customerId, m.tierId);
  if (!tier) throw bad('The tier of this membership no longer exists', 'newBillingCycle');
  const newPrice = tierPrice(tier, input.newBillingCycle);
  const details = {
    from: m.billingCycle,
    to: input.newBillingCycle,
    previousPrice: m.price,
    price: newPrice,
    proRate: !!input.proRate,
    reason: input.reason ?? null,
  };
  const tz = await memberZone(ctx, m.customerId);
  if (!input.proRate) {
    return applyChange(
      ctx,
      m,
      {
        set: { billingCycle: input.newBillingCycle, price: newPrice },
        historyType: 'billing_cycle_switched',
        details,
        invoice: null,
      },
      tz,
    );
  }
  const nowIso = clockIso(ctx);
  const credit = unusedCredit(m, nowIso, `Unused ${m.billingCycle} period to ${localDay(m.currentPeriodEnd, tz)} at ${m.price}`);
  const end = addCycles(nowIso, input.newBillingCycle, 1, anchorDayOf(nowIso));
  const newDays = daysBetween(nowIso, end);
  const charge = prorationLine(
    'proration_charge',
    `${input.newBillingCycle} period ${localDay(nowIso, tz)} to ${localDay(end, tz)}`,
    newPrice,
    newDays,
    newDays,
  );
  return applyChange(
    ctx,
    m,
    {
      set: {
        billingCycle: input.newBillingCycle,
        price: newPrice,
        currentPeriodStart: nowIso,
        currentPeriodEnd: end,
        billingAnchorDay: anchorDayOf(nowIso),
        nextChargeAt: end,
      },
      historyType: 'billing_cycle_switched',
      details: { ...details, currentPeriodEnd: end },
      invoice: { kind: 'proration', lines: [credit.line, charge], periodStart: nowIso, periodEnd: end, reason: input.reason ?? null },
    },
    tz,
  );
}

export async function changePrice(ctx: Ctx, id: string, input: { customerId: string; newPrice: number; proRate?: boolean; reason?: string }) {
  const m = await loadForChange(ctx, id, input.customerId, 'given a new price');
  if (input.newPrice === m.price) throw bad(`The price is already ${m.price} cents`, 'newPrice');
  const details = { previousPrice: m.price, price: input.newPrice, proRate: !!input.proRate, reason: input.reason ?? null };
  const tz = await memberZone(ctx, m.customerId);
  if (!input.proRate) return applyChange(ctx, m, { set: { price: input.newPrice }, historyType: 'price_changed', details, invoice: null }, tz);
  const nowIso = clockIso(ctx);
  const credit = unusedCredit(m, nowIso, `Unused days to ${localDay(m.currentPeriodEnd, tz)} at the old price`);
  const charge = prorationLine(
    'proration_charge',
    `Days to ${localDay(m.currentPeriodEnd, tz)} at the new price`,
    input.newPrice,
    credit.remaining,
    credit.periodDays,
  );
  return applyChange(
    ctx,
    m,
    {
      set: { price: input.newPrice },
      historyType: 'price_changed',
      details,
      invoice: { kind: 'proration', lines: [credit.line, charge], periodStart: nowIso, periodEnd: m.currentPeriodEnd, reason: input.reason ?? null },
    },
    tz,
  );
}

// ------------------------------------------------------------------------------------------------
// Invoices, refunds, receipts

export async function listInvoices(ctx: Ctx, id: string, q: { customerId: string; limit: number }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const m = await getMembershipInTenant(ctx, customerId, id);
  const [data, history] = await Promise.all([invoicesOf(ctx, customerId, m.id, { limit: q.limit }), historyOf(ctx, customerId, m.id, 100)]);
  return { data, history };
}

/**
 * POST /memberships/{id}/refund: refunds part or all of what an invoice's payment collected. The
 * refunded amount is reserved first with a conditional UPDATE (never more than paid, even with
 * parallel refunds), then refunded at the provider; a provider refusal gives the reservation back.
 */
export async function refundInvoice(ctx: Ctx, id: string, input: { customerId: string; invoiceId: string; amount?: number; reason?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  const inv = await getInvoiceInTenant(ctx, customerId, m.id, input.invoiceId);
  const chargeRow = await ctx.db
    .select()
    .from(membershipPayments)
    .where(
      and(
        eq(membershipPayments.customerId, customerId),
        eq(membershipPayments.invoiceId, inv.id),
        eq(membershipPayments.kind, 'charge'),
        eq(membershipPayments.status, 'succeeded'),
      ),
    )
    .get();
  const refundable = inv.amountPaid - inv.amountRefunded;
  if (!chargeRow?.paymentIntentId || refundable <= 0) {
    throw membershipErrors.fail('refund_exceeds_payment', `Invoice ${inv.number} has nothing left to refund`, {
      extra: { refundable: Math.max(0, refundable) },
    });
  }
  const amount = input.amount ?? refundable;
  if (amount > refundable) {
    throw membershipErrors.fail('refund_exceeds_payment', `At most ${refundable} cents of invoice ${inv.number} can be refunded`, {
      details: [{ field: 'amount', message: `at most ${refundable}` }],
      extra: { refundable },
    });
  }
  const reserved = await ctx.db
    .update(membershipInvoices)
    .set({ amountRefunded: sql`${membershipInvoices.amountRefunded} + ${amount}` })
    .where(
      and(
        eq(membershipInvoices.id, inv.id),
        eq(membershipInvoices.customerId, customerId),
        sql`${membershipInvoices.amountRefunded} + ${amount} <= ${membershipInvoices.amountPaid}`,
      ),
    )
    .run();
  if (!(reserved.meta?.changes ?? 0)) throw membershipErrors.fail('refund_exceeds_payment', 'Another refund of this invoice took what was left');
  const giveBack = () =>
    ctx.db
      .update(membershipInvoices)
      .set({ amountRefunded: sql`${membershipInvoices.amountRefunded} - ${amount}` })
      .where(eq(membershipInvoices.id, inv.id))
      .run();
  let refund;
  try {
    refund = await refundCard(ctx, chargeRow.paymentIntentId, amount, input.reason ?? 'requested_by_customer');
  } catch (err) {
    await giveBack();
    if (err instanceof PaymentError) throw new ApiError('payment_provider_error', err.message);
    throw err;
  }
  await commit(
    ctx,
    [
      paymentStmt(
        ctx,
        paymentRow(ctx, m, {
          invoiceId: inv.id,
          kind: 'refund',
          status: 'succeeded',
          amount,
          paymentIntentId: chargeRow.paymentIntentId,
          refundId: refund.id,
          reason: input.reason ?? null,
        }),
      ),
      historyStmt(ctx, m, 'refunded', { invoiceId: inv.id, amount, refundId: refund.id, reason: input.reason ?? null }, actorOf(ctx)),
      ...invoiceRefundStmts(ctx, m, inv, amount, refund.id),
    ],
    {
      audit: { action: 'membership.refund', targetType: 'membership', targetId: m.id, details: { invoiceId: inv.id, amount, refundId: refund.id } },
      events: [
        paymentRefundedEvent({
          customerId,
          membershipId: m.id,
          invoiceId: inv.id,
          renterId: m.renterId,
          paymentIntentId: chargeRow.paymentIntentId,
          refund,
          currency: inv.currency,
        }),
      ],
    },
  );
  return {
    membership: await membershipView(ctx, m),
    invoice: await invoiceView(ctx, await getInvoiceInTenant(ctx, customerId, m.id, inv.id)),
    refund: { refundId: refund.id, paymentIntentId: chargeRow.paymentIntentId, amount, status: refund.status },
  };
}

/** POST /memberships/{id}/invoices/{invoiceId}/resend: the receipt e-mail again, to the member or to `email`. */
export async function resendReceipt(ctx: Ctx, id: string, invoiceId: string, input: { customerId: string; email?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  const inv = await getInvoiceInTenant(ctx, customerId, m.id, invoiceId);
  const tier = await findTier(ctx, customerId, m.tierId);
  const to = input.email ?? m.memberEmail;
  const money = (await moneyOfSales(ctx, customerId, [inv.id])).get(inv.id)!;
  const mail = receiptStmt(ctx, await memberZone(ctx, customerId), m, inv, money, to, tier?.name);
  await commit(ctx, [mail.stmt], {
    audit: { action: 'membership.receipt_resend', targetType: 'membership', targetId: m.id, details: { invoiceId: inv.id, to } },
  });
  return { invoiceId: inv.id, sentTo: to, messageId: mail.id };
}
