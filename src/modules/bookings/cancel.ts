import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError, guardError } from '../../lib/errors';
import { deposits, renters } from '../../db/schema/bookings';
import { nowIso } from '../../lib/clock';
import { formatMoney } from '../../lib/money';
import { bookingMailStmt, lineOf, loadMailSetting, mailData } from './emails';
import { payments } from '../../adapters/payments';
import { activityStmt } from './activity';
import { insertLedger, memoEntry, moneyFromLedgerStmt, openEntries, reversalOf, type LedgerRow } from './ledger';
import { bookingDepositInfoStmt } from './row-writes';
import { dollars } from './pricing';
import { canMove, type BookingStatus } from './status';
import { bookingOut, type BookingRow } from './views';
import { getBookingRow, getBookingWithZone } from './queries';
import { payBack, rentalLedger } from './refunds';
import { refundPlanFrom, type RefundPlan } from './refund-lines';
import { casUpdate, commitChange, NOT_REVERSED, releaseAllocations, scopeOf, capacityReleased, statusEvents } from './changes';
import { ACCOUNT_CREDIT_SOURCE } from '../../lib/money-view';
import { isMovedCredit, spentMovedCredit } from './account-credit';
import { bookingErrors } from './errors';

// ------------------------------------------------------------------------------------------------
// Cancel

export interface CancelResult {
  booking: ReturnType<typeof bookingOut>;
  alreadyCancelled: boolean;
  refund?: {
    status: 'succeeded' | 'failed' | 'none';
    amount: number;
    refundId: string | null;
    /** Each line paid for and what came back of it (refund-lines.ts). */
    lines: { kind: string; description: string; paid: number; refund: number; kept: number; rule: string }[];
  };
}

/**
 * Cancels a rental: releases its allocations, reverses its charges in the ledger (and the loyalty
 * points it earned), refunds what Berth collected through the payment provider (`refund: false`
 * keeps it as the renter's credit), voids an authorized deposit, e-mails the renter, and fires
 * booking.cancelled and booking.status_changed (payment.refunded on a refund). A reseller-paid
 * booking reverses its `payment` entry instead (the reseller refunds the guest). Cancelling a
 * cancelled booking answers it again with `alreadyCancelled: true`; checked-in, completed and
 * no-show bookings are 409 `not_cancellable`.
 */
export async function cancelBooking(
  ctx: Ctx,
  rentalId: string,
  opts: {
    reason?: string;
    refund?: boolean;
    /** With `refund: false`: the refund the caller pays back itself (cents, the renter's policy refund), as the e-mail states it. */
    callerRefund?: { amount: number; fee: number };
  } = {},
): Promise<CancelResult> {
  const { row: b, timezone } = await getBookingWithZone(ctx, rentalId);
  if (b.status === 'cancelled') return { booking: bookingOut(b, { timezone }), alreadyCancelled: true };
  if (!canMove(b.status as BookingStatus, 'cancelled')) {
    throw new ApiError('not_cancellable', `A ${b.status.replace('_', '-')} booking cannot be cancelled`, { extra: { status: b.status } });
  }
  const now = nowIso(ctx);
  // The rental's ledger, read once: its reversals now, and the refund (in the e-mail and paid after the commit).
  const entries = await rentalLedger(ctx, b);
  const open = openEntries(entries);
  // Goodwill credit this booking moved to the renter's account and the renter spent meanwhile stays spent: the
  // reversal takes back what is left of it, and the refund keeps the rest (account-credit.ts).
  // (The refund keeps at most the card money: spent credit beyond it stays on the booking as its balance due.)
  const spent = await spentMovedCredit(ctx, b, entries);
  const reversals = reversalsOf(open, spent);
  const plan = opts.refund !== false ? refundPlanFrom(entries, b, { ...OPERATOR_REFUND, withhold: spent }) : null;
  const points = Number((b.pricing as { loyaltyPoints?: number } | null)?.loyaltyPoints ?? 0);
  const set: Partial<BookingRow> = { status: 'cancelled', cancelledAt: now, cancellationReason: opts.reason ?? null };
  const after: BookingRow = { ...b, ...set, version: b.version + 1, updatedAt: now };
  const view = bookingOut(after, { timezone });
  const email = (b.customerInfo as { email?: string; firstName?: string } | null) ?? {};
  const statements: Stmt[] = [
    activityStmt(ctx, b, b.version + 1, {
      type: 'booking.cancelled',
      change: `${b.status}->cancelled`,
      label: 'Booking cancelled',
      content: opts.reason,
      details: { reversedEntries: reversals.length },
    }),
    casUpdate(ctx, b, set),
    releaseAllocations(ctx, b),
    ...insertLedger(ctx, reversals),
    moneyFromLedgerStmt(ctx, b),
  ];
  if (points > 0 && b.renterId) {
    statements.push(
      ctx.db
        .update(renters)
        .set({ loyaltyPoints: sql`max(0, ${renters.loyaltyPoints} - ${points})` })
        .where(and(eq(renters.id, b.renterId), eq(renters.customerId, b.customerId))),
    );
  }
  if (email.email)
    statements.push(
      ...(await cancellationEmailStmts(ctx, b, {
        to: email.email,
        firstName: email.firstName,
        reason: opts.reason,
        byCard: plan?.refund ?? 0,
        callerRefund: opts.callerRefund,
      })),
    );
  try {
    await commitChange(ctx, statements, {
      audit: {
        action: 'booking.cancel',
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { from: b.status, reason: opts.reason ?? null },
      },
      events: statusEvents(b, 'cancelled', view, 'booking.cancelled'),
    });
  } catch (err) {
    // The renter spent account credit at the same moment (migration 0040's guard): 409, nothing written.
    const guard = guardError(err, bookingErrors.table);
    if (guard) throw guard;
    if (err instanceof ApiError && err.code === 'version_conflict') {
      // Lost to a concurrent change: if that change was a cancellation, this call is a repeat.
      const now2 = await getBookingRow(ctx, rentalId);
      if (now2.status === 'cancelled') return { booking: bookingOut(now2, { timezone }), alreadyCancelled: true };
    }
    throw err;
  }

  // Only the winner gets here: money back and the deposit released, once.
  const refund = await refundAfterCancel(ctx, after, plan);
  await releaseDeposits(ctx, after);
  await capacityReleased(ctx, b, 'cancelled');
  await ctx.hooks.emit(ctx, 'booking.cancelled', { customerId: b.customerId, rentalId: b.id, locationId: b.locationId, cancelledAt: now });
  // Read back: the money columns now follow the ledger (reversals, refund).
  const final = await getBookingRow(ctx, rentalId);
  return { booking: bookingOut(final, { timezone }), alreadyCancelled: false, refund };
}

/**
 * The renter's cancellation e-mail (in the cancellation's batch): the booking, the reason, and what
 * goes back to the card. An array: a statement is thenable, and an async function would run it.
 */
async function cancellationEmailStmts(
  ctx: Ctx,
  b: BookingRow,
  o: { to: string; firstName?: string; reason?: string; byCard: number; callerRefund?: { amount: number; fee: number } },
): Promise<Stmt[]> {
  const { setting, itemName } = await loadMailSetting(ctx, b);
  const data = {
    ...mailData(setting, [lineOf(b, itemName)], { firstName: o.firstName }),
    reason: o.reason ?? null,
    refund: refundSentence(b, setting.brand.name, o.byCard, o.callerRefund),
  };
  return [
    bookingMailStmt(ctx, setting, {
      id: 'booking.cancelled',
      to: o.to,
      data,
      metadata: { rentalId: b.id, transactionId: b.transactionId, reference: b.id },
    }),
  ];
}

/** What the cancellation e-mail says of the money: the refund to the card, the policy's fee, or the credit kept. */
function refundSentence(b: BookingRow, business: string, byCard: number, caller?: { amount: number; fee: number }): string {
  const money = (c: number) => formatMoney(c, b.currency);
  if (caller && caller.amount > 0)
    return `We are refunding ${money(caller.amount)} to the card you paid with${caller.fee > 0 ? `; ${money(caller.fee)} is kept as the cancellation fee of the policy` : ''}.`;
  if (caller && caller.fee > 0) return `Under the cancellation policy ${money(caller.fee)} is kept as the cancellation fee; nothing is refunded.`;
  if (byCard > 0) return `We are refunding ${money(byCard)} to the card you paid with.`;
  if (b.amountPaid > 0) return `The ${money(b.amountPaid)} you paid stays with ${business || 'us'} as credit; contact them about it.`;
  return 'Nothing was charged for this booking.';
}

/**
 * The ledger reversals of a cancellation: charges, discounts, taxes, tips and fees are reversed now;
 * card payments are refunded afterwards (refund entries); deposits follow their own release; a
 * reseller's payment and one made with membership credits, a gift card or account credit are reversed
 * (the reseller refunds the guest; the credits go back to the membership and the amount to the card,
 * through the hooks; the reversal itself gives the account credit back, account-credit.ts). Goodwill
 * credit the booking moved to the renter's account is taken back less `spentCredit`, what the renter
 * has spent of it meanwhile.
 */
function reversalsOf(open: LedgerRow[], spentCredit: number) {
  let keep = spentCredit;
  return open
    .filter((e) => (e.entryType === 'payment' ? REVERSED_PAYMENTS.has(e.source ?? '') : !NOT_REVERSED.has(e.entryType)))
    .flatMap((e) => {
      const r = reversalOf(e, `Cancelled: ${e.description ?? e.entryType}`);
      if (keep <= 0 || !isMovedCredit(e)) return [r];
      // The spent part of credit moved to the account is not taken back.
      const kept = Math.min(keep, e.amount);
      keep -= kept;
      return kept === e.amount ? [] : [{ ...r, amount: -(e.amount - kept) }];
    });
}

/** Payments a cancellation reverses rather than refunds through the provider (see `reversalsOf`). */
const REVERSED_PAYMENTS = new Set(['channel', 'membership_credits', 'gift_card', ACCOUNT_CREDIT_SOURCE]);

/** The operator's cancellation gives every line back (refund-lines.ts). */
const OPERATOR_REFUND = { by: 'operator', percent: 100, rule: 'Refunded in full: the operator cancelled' } as const;

/**
 * The operator's refund of a cancelled rental: every line in full (refund-lines.ts), payment by
 * payment, each refund committed with its ledger entry and `payment.refunded`.
 */
async function refundAfterCancel(ctx: Ctx, b: BookingRow, plan: RefundPlan | null): Promise<NonNullable<CancelResult['refund']>> {
  if (!plan) return { status: 'none', amount: 0, refundId: null, lines: [] };
  const back = await payBack(ctx, b, plan, { kind: 'booking_cancellation', description: 'Refund', audit: 'booking.refund' });
  const lines = plan.lines.map((l) => ({ ...l, paid: dollars(l.paid), refund: dollars(l.refund), kept: dollars(l.kept) }));
  return { status: back.status, amount: dollars(back.status === 'failed' ? plan.refund : back.amount), refundId: back.refundIds[0] ?? null, lines };
}

/** Voids the authorized deposits of a cancelled booking. */
async function releaseDeposits(ctx: Ctx, b: BookingRow) {
  const rows = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.customerId, b.customerId), eq(deposits.rentalId, b.id), eq(deposits.status, 'authorized')))
    .all();
  for (const d of rows) {
    try {
      await payments(ctx).cancelPaymentIntent(d.paymentIntentId);
      await commit(
        ctx,
        [
          ctx.db
            .update(deposits)
            .set({ status: 'released', releasedAt: nowIso(ctx) })
            .where(and(eq(deposits.id, d.id), eq(deposits.status, 'authorized'))),
          bookingDepositInfoStmt(ctx, { customerId: b.customerId, rentalId: b.id, patch: { status: 'released', updatedAt: nowIso(ctx) } }),
          ...insertLedger(ctx, [
            memoEntry(scopeOf(b), {
              entryType: 'deposit_release',
              amount: -d.amount,
              description: 'Security deposit released (booking cancelled)',
              source: 'card',
              reference: d.paymentIntentId,
            }),
          ]),
        ],
        {
          audit: {
            action: 'deposit.release',
            targetType: 'deposit',
            targetId: d.id,
            customerId: b.customerId,
            details: { rentalId: b.id, reason: 'booking_cancelled' },
          },
        },
      );
    } catch (err) {
      ctx.log.error('deposit release after cancellation failed', { rentalId: b.id, depositId: d.id, error: String(err) });
    }
  }
}
