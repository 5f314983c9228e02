/**
 * POST /coreBooking/{rentalId}/credits: an operator's goodwill credit on a booking, in the ledger so it adds up.
 *
 *   goodwill  − the credit: a line of its own ("Goodwill credit: <reason>") that lowers the booking's total, so
 *              the renter owes that much less on this booking (the balance due drops by it);
 *   credit    + the part of the credit beyond what the booking still owed (a booking paid in full): that value
 *              moves to the renter's account credit instead of staying on the booking as money held on file. The
 *              money view shows it as `credited`, the booking's balance stays at 0, and the renter's account
 *              credit (GET /renters/{id}, `accounting.accountCreditCents`) is the sum of these entries.
 *
 * A booking without a renter keeps that part on the booking (a negative balance: money held on file, which a
 * later change or refund uses). One batch: the activity row (the compare-and-swap: two credits racing from one
 * version, the second answers 409 `version_conflict`), the entries, the installments fitted to the lower
 * balance, the booking's money from its ledger, and `booking.updated` (`change: "credited"`).
 */
import { requirePermission, type Ctx } from '../../lib/context';
import { toCents, toDollars } from '../../lib/money';
import { GOODWILL_SOURCE, moneyView } from '../../lib/money-view';
import { activityStmt } from './activity';
import { casUpdate, commitChange, scopeOf } from './changes';
import { planFollowsBalanceStmts } from './installments';
import { insertLedger, memoEntry, moneyFromLedgerStmt, type LedgerDraft } from './ledger';
import { getBookingRow } from './queries';
import { rentalLedger } from './refunds';

export interface CreditOut {
  amount: number;
  reason: string;
  /** Dollars taken off what the booking owed. */
  appliedToBooking: number;
  /** Dollars moved to the renter's account credit. */
  toAccount: number;
  renterId: string | null;
}

export async function creditBooking(ctx: Ctx, rentalId: string, input: { amount: number; reason: string }): Promise<CreditOut> {
  requirePermission(ctx, 'bookings');
  const b = await getBookingRow(ctx, rentalId);
  const cents = toCents(input.amount);
  const due = Math.max(0, moneyView(await rentalLedger(ctx, b)).balance);
  const applied = Math.min(cents, due);
  const toAccount = b.renterId ? cents - applied : 0;
  const scope = scopeOf(b);
  const rows: LedgerDraft[] = [
    memoEntry(scope, {
      entryType: 'goodwill',
      amount: -cents,
      affectsBalance: true,
      description: `Goodwill credit: ${input.reason}`,
      source: GOODWILL_SOURCE,
      metadata: { reason: input.reason },
    }),
  ];
  if (toAccount > 0)
    rows.push(
      memoEntry(scope, {
        entryType: 'credit',
        amount: toAccount,
        affectsBalance: true,
        description: "Goodwill credit to the renter's account",
        source: GOODWILL_SOURCE,
        metadata: { reason: input.reason, accountCredit: true },
      }),
    );
  const out: CreditOut = {
    amount: input.amount,
    reason: input.reason,
    appliedToBooking: toDollars(applied),
    toAccount: toDollars(toAccount),
    renterId: b.renterId,
  };
  const details = { ...out, change: 'credited' };
  await commitChange(
    ctx,
    [
      activityStmt(ctx, b, b.version + 1, { type: 'booking.credited', change: 'credited', label: 'Goodwill credit', content: input.reason, details }),
      casUpdate(ctx, b, {}),
      ...insertLedger(ctx, rows),
      ...(await planFollowsBalanceStmts(ctx, b, { charged: -applied })),
      moneyFromLedgerStmt(ctx, b),
    ],
    {
      audit: { action: 'booking.credit', targetType: 'booking', targetId: b.id, customerId: b.customerId, details },
      events: [{ type: 'booking.updated', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, ...details } }],
    },
  );
  return out;
}
