/**
 * Membership benefits in the booking sale (lib/sale-extensions.ts), declared in this module's
 * `module.ts`; the bookings module does not import memberships.
 *
 * - The renter (matched by `customerInfo.email`) who is an active member, a family member of one,
 *   or an authorized renter of an organization with one gets the tier's `discountPercentage` off
 *   the pre-tax price as its own discount line (`type: "membership"`, `code`: the tier's name),
 *   where the tier's scope covers the location; seller-priced and prepaid sales get none. The
 *   benefit is read in the sale's first batch.
 * - `membershipCredits` pays part of the amount due now with the membership's credits (`amount` in
 *   dollars, default as much as the balance covers), before a gift card and the card. The credits
 *   are taken in the booking's batch by a conditional insert, so a balance spent meanwhile fails
 *   the booking (400 `insufficient_credits`, the card charge refunded); a cancelled rental gives its
 *   credits back (the `capacity.released` hook).
 */
import { ApiError } from '../../lib/errors';
import { toCents } from '../../lib/money';
import { saleExtension } from '../../lib/sale-extensions';
import { benefitAppliesAt, memberBenefitFrom, memberBenefitQuery } from './benefits';
import { creditOverdraftError, creditSpendStatements, isCreditOverdraft } from './credits';
import type { MemberBenefit } from './types';

const noMembership = () =>
  new ApiError('bad_request', 'membershipCredits: the renter has no active membership', {
    details: [{ field: 'membershipCredits', message: 'membershipCredits: the renter has no active membership' }],
  });

export const membershipSale = saleExtension<MemberBenefit>({
  name: 'memberships',
  wanted: (f) => (!f.sellerPriced && !!f.email) || !!f.asks.membershipCredits,
  read: (db, f) =>
    f.sellerPriced || !f.email
      ? null
      : { stmt: memberBenefitQuery(db, f.customerId, f.email), parse: (rows) => memberBenefitFrom(rows as Parameters<typeof memberBenefitFrom>[0]) },
  discountStage: 'benefit',
  discount: (scope, b) =>
    b && b.discountPercentage > 0 && benefitAppliesAt(b, scope.locationId) ? { type: 'membership', code: b.tierName, percent: b.discountPercentage } : null,
  payOrder: 1,
  pay(scope, b, due) {
    const ask = scope.asks.membershipCredits;
    if (!ask) return null;
    if (!b) throw noMembership();
    const wanted = ask.amount != null ? toCents(ask.amount) : b.creditBalance;
    if (wanted > b.creditBalance) throw creditOverdraftError(`The membership has ${b.creditBalance} cents of credits; ${wanted} were asked for`);
    return { source: 'membership_credits', amount: Math.max(0, Math.min(wanted, due)), reference: null, description: 'Paid with membership credits' };
  },
  writes: (ctx, b, sale, payment) =>
    b && payment && payment.amount > 0
      ? creditSpendStatements(ctx, {
          customerId: sale.customerId,
          membershipId: b.membershipId,
          transactionId: sale.transactionId,
          parts: sale.rentalIds.map((rentalId, i) => ({ rentalId, amount: sale.paidPerRental[i] ?? 0 })),
        })
      : [],
  failure: (err) => (isCreditOverdraft(err) ? creditOverdraftError() : undefined),
});
