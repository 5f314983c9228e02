/**
 * The renter's account credit as a payment source of the booking sale (lib/sale-extensions.ts),
 * declared in this module's `module.ts`.
 *
 * The account credit is the value a goodwill credit moved off a paid booking onto the renter's
 * account (credits.ts: `credit` entries of source `goodwill`), less what bookings spent of it
 * (`payment` entries of source `account_credit`, their cancellation reversals giving it back), in
 * one currency: the same ledger entries `accounting.accountCreditCents` of GET /renters/{id} sums.
 *
 * - `accountCredit` (`amount` in dollars, default as much as the credit covers) pays part of what
 *   is due now, after membership credits and a gift card and before the card: one `payment` entry
 *   per rental (source `account_credit`) in the booking's one write. Asking for more than the
 *   credit, or for credit the renter does not have, answers 400 `insufficient_account_credit`.
 * - Only the operator's API offers it: the widget, the channel and the other paths sell to whoever
 *   types an e-mail, so they answer 400 (`accountCredit` is not available on this sales path).
 * - The credit is read with the sale's first batch; the database guard `ledger_account_credit_guard`
 *   (migration 0039) refuses a spend beyond what is left when it is written, so two bookings racing
 *   for one credit never spend it twice: the second answers 400 `insufficient_account_credit` and
 *   its card charge is refunded.
 * - A cancellation reverses the spend (cancel.ts), which gives the credit back to the account.
 * - Cancelling a booking whose goodwill credit moved value to the account takes that value back, as
 *   far as it is still there (`spentMovedCredit`): what the renter has spent of it meanwhile stays
 *   spent, and the booking's refund keeps that much instead, so the account never goes below zero
 *   (a second guard of migration 0040 refuses a take-back beyond what is left when it is written).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { reusable, type DB } from '../../db/client';
import { toCents, toDollars } from '../../lib/money';
import { saleExtension } from '../../lib/sale-extensions';
import { accountCreditEntrySql, CREDIT_TYPE, GOODWILL_SOURCE } from '../../lib/money-view';
import { ledgerEntries, renters } from '../../db/schema/bookings';
import type { Ctx } from '../../lib/context';
import type { LedgerRow } from './ledger';
import type { BookingRow } from './views';
import { normalizeEmail } from '../renters/service';
import { bookingErrors } from './errors';

/** The renter's account credit by currency (lower-case), in cents. */
type CreditByCurrency = Record<string, number>;

/** The account credit of the renter with this e-mail, per currency (one statement of the sale's first batch). */
function creditQuery(db: DB, customerId: string, email: string) {
  return reusable(
    db,
    'bookings|accountCredit',
    () =>
      db
        .select({ currency: sql<string>`lower(${ledgerEntries.currency})`, cents: sql<number>`sum(${ledgerEntries.amount})` })
        .from(ledgerEntries)
        .innerJoin(renters, and(eq(renters.id, ledgerEntries.renterId), eq(renters.customerId, ledgerEntries.customerId)))
        .where(
          and(
            eq(ledgerEntries.customerId, sql.placeholder('customerId')),
            eq(renters.email, sql.placeholder('email')),
            eq(ledgerEntries.affectsBalance, true),
            isNull(ledgerEntries.deletedAt),
            accountCreditEntrySql('ledger_entries'),
          ),
        )
        .groupBy(sql`lower(${ledgerEntries.currency})`),
    { customerId, email: normalizeEmail(email) },
  );
}

/** A goodwill credit's part moved to the renter's account (credits.ts), or its reversal: a `credit` entry of source `goodwill`. */
const isGoodwillCredit = (e: Pick<LedgerRow, 'entryType' | 'source'>) => e.entryType === CREDIT_TYPE && e.source === GOODWILL_SOURCE;

/** Value a goodwill credit moved to the renter's account (not a reversal of it). */
export const isMovedCredit = (e: Pick<LedgerRow, 'entryType' | 'source' | 'amount'>) => isGoodwillCredit(e) && e.amount > 0;

/**
 * Of the value this booking's goodwill credits moved to the renter's account (the net of its `credit`
 * entries of source `goodwill`, from `entries`, the rental's ledger), the cents the renter has spent
 * meanwhile (the account holds less than that value): a cancellation cannot take them back from the
 * account, so its refund keeps them. 0 when nothing moved or it is all still there; one read, only for
 * a booking that moved credit.
 */
export async function spentMovedCredit(ctx: Ctx, b: Pick<BookingRow, 'customerId' | 'renterId' | 'currency'>, entries: LedgerRow[]): Promise<number> {
  const moved = entries.filter(isGoodwillCredit).reduce((s, e) => s + e.amount, 0);
  if (moved <= 0 || !b.renterId) return 0;
  const row = await ctx.db
    .select({ cents: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, b.customerId),
        eq(ledgerEntries.renterId, b.renterId),
        eq(ledgerEntries.affectsBalance, true),
        isNull(ledgerEntries.deletedAt),
        sql`lower(${ledgerEntries.currency}) = lower(${b.currency})`,
        accountCreditEntrySql('ledger_entries'),
      ),
    )
    .get();
  return Math.max(0, moved - Math.max(0, Number(row?.cents ?? 0)));
}

export const insufficientAccountCredit = (message: string) =>
  bookingErrors.fail('insufficient_account_credit', message, { details: [{ field: 'accountCredit', message }] });

/** The guard's refusal (migration 0039): a spend beyond the credit left when it was written. */
export function isAccountCreditOverdraft(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /insufficient_account_credit/.test(`${e?.message ?? err} ${String(e?.cause ?? '')}`);
}

export const accountCreditSale = saleExtension<CreditByCurrency>({
  name: 'bookings',
  // The operator's API only: another path's caller is whoever typed the e-mail.
  wanted: (f) => !!f.asks.accountCredit && f.source === 'operator',
  read: (db, f) => ({
    stmt: creditQuery(db, f.customerId, f.email),
    parse: (rows) => Object.fromEntries((rows as { currency: string; cents: number }[]).map((r) => [r.currency, Number(r.cents)])),
  }),
  payOrder: 3,
  pay(scope, credit, due) {
    const ask = scope.asks.accountCredit;
    if (!ask) return null;
    const left = Math.max(0, credit?.[scope.currency.toLowerCase()] ?? 0);
    if (!left) throw insufficientAccountCredit(`The renter has no account credit in ${scope.currency.toUpperCase()}`);
    const wanted = ask.amount != null ? toCents(ask.amount) : left;
    if (wanted > left)
      throw insufficientAccountCredit(
        `The renter's account credit is ${toDollars(left).toFixed(2)} ${scope.currency.toUpperCase()}; ${toDollars(wanted).toFixed(2)} was asked for`,
      );
    return { source: 'account_credit', amount: Math.max(0, Math.min(wanted, due)), reference: null, description: 'Paid with account credit' };
  },
  failure: (err) =>
    isAccountCreditOverdraft(err) ? insufficientAccountCredit("The renter's account credit was spent by another booking at the same moment") : undefined,
});
