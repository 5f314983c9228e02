/**
 * POST /coreBooking/{rentalId}/charge-balance: the booking's balance due (the money view's, from its ledger)
 * charged to the card on file: the card of the booking's own payment, else the renter's default saved card
 * (POST /renters/{id}/payment-methods).
 *
 *   read     the booking and its ledger: the balance due (409 `nothing_to_charge` at 0) and the card (409 `no_card_on_file`)
 *   charge   the provider charges the card (402 `payment_failed` on a decline: nothing written)
 *   write    ONE batch, the activity row first (the compare-and-swap: a second charge racing from the same version
 *            loses, its charge is refunded and it answers 409 `version_conflict`, so the balance is never paid twice),
 *            the card `payment` entry, the installments fitted to the new balance, the booking's money from its
 *            ledger, and `payment.completed` (kind `balance`) through the payments service
 */
import { requirePermission, type Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import { dueOf, moneyView } from '../../lib/money-view';
import { PaymentError } from '../../adapters/payments';
import { collectPayment } from '../payments/service';
import { getRenterInTenant, renterDefaultCard } from '../renters/service';
import { activityStmt, isVersionRace } from './activity';
import { casUpdate, scopeOf } from './changes';
import { bookingErrors } from './errors';
import { planFollowsBalanceStmts } from './installments';
import { insertLedger, moneyFromLedgerStmt, paymentEntry } from './ledger';
import { getBookingRow } from './queries';
import { cardOnFile, storedCardCharge } from './reprice';
import { rentalLedger } from './refunds';
import type { BookingRow } from './views';

export interface BalanceCharged {
  amount: number;
  paymentIntentId: string;
  card: 'booking' | 'renter';
}

type Card = { paymentMethodId: string; customerId: string | null; from: 'booking' | 'renter' };

/** The card to charge: the booking's own payment's card, else the renter's default saved card. */
async function storedCard(ctx: Ctx, b: BookingRow): Promise<Card | null> {
  const own = await cardOnFile(ctx, b);
  if (own) return { ...own, from: 'booking' };
  if (!b.renterId) return null;
  const card = await renterDefaultCard(ctx, await getRenterInTenant(ctx, b.renterId, { includeDeleted: true }));
  return card ? { paymentMethodId: card.paymentMethodId, customerId: card.customerId, from: 'renter' } : null;
}

export async function chargeBookingBalance(ctx: Ctx, rentalId: string): Promise<BalanceCharged> {
  requirePermission(ctx, 'bookings');
  const b = await getBookingRow(ctx, rentalId);
  const due = dueOf(moneyView(await rentalLedger(ctx, b)));
  if (!due) throw bookingErrors.fail('nothing_to_charge', 'The booking owes nothing: its balance is 0', { extra: { balanceDue: 0 } });
  const card = await storedCard(ctx, b);
  if (!card)
    throw bookingErrors.fail('no_card_on_file', 'There is no stored card to charge: neither the booking nor the renter has one', {
      extra: { balanceDue: toDollars(due) },
    });
  try {
    // collectPayment refunds the charge when the write fails (a lost race included).
    return await collectPayment(ctx, storedCardCharge(b, due, card, 'balance', 'balance due'), async (paid, commitMoney) => {
      const intentId = paid!.reference!;
      const details = { amount: toDollars(due), paymentIntentId: intentId, card: card.from };
      await commitMoney(
        [
          activityStmt(ctx, b, b.version + 1, {
            type: 'booking.balance_charged',
            change: 'balance_charged',
            label: 'Balance charged to the card on file',
            details,
          }),
          casUpdate(ctx, b, b.paymentIntentId ? {} : { paymentIntentId: intentId }),
          ...insertLedger(ctx, [paymentEntry(scopeOf(b), due, { source: 'card', reference: intentId, description: 'Balance payment' })]),
          ...(await planFollowsBalanceStmts(ctx, b, { paid: due })),
          moneyFromLedgerStmt(ctx, b),
        ],
        { audit: { action: 'booking.charge_balance', targetType: 'booking', targetId: b.id, customerId: b.customerId, details } },
      );
      return details;
    });
  } catch (err) {
    if (err instanceof PaymentError) throw new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, stage: 'balance' } });
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The booking was changed by another request at the same moment; reload it and retry');
    throw err;
  }
}
