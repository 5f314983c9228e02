/**
 * Membership benefits at checkout (memberships owns the rules; this file applies them to an order):
 *
 * - the renter of the booking (matched by `customerInfo.email`) who is an active member, a family
 *   member of one, or an authorized renter of an organization with one gets the tier's
 *   `discountPercentage` off the pre-tax price as its own discount line (`type: "membership"`,
 *   `code`: the tier's name), where the tier's scope covers the location; reseller-priced and
 *   prepaid sales get none;
 * - `membershipCredits` in the request pays part of the amount due now with the membership's
 *   credits (`amount` in dollars, default as much as the balance covers); the card pays the rest.
 *   The credits are taken in the booking's batch by a conditional insert, so a balance spent
 *   meanwhile fails the booking (400 `insufficient_credits`, the card charge refunded); a cancelled
 *   rental gives its credits back.
 */
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { toCents } from '../../lib/money';
import { benefitAppliesAt, creditOverdraftError, creditSpendStatements, memberBenefitFor, type MemberBenefit } from '../memberships/service';
import type { CreateBookingOptions } from './types';
import { bad } from './errors';
import { shares } from './payment-plan';
import type { OrderDiscount } from './pricing';
import type { BookInput } from './schemas';

/** The renter's membership benefit, read alongside the operator's settings (null for reseller-priced or prepaid sales). */
export function loadMemberBenefit(ctx: Ctx, customerId: string, input: BookInput, opts: CreateBookingOptions): Promise<MemberBenefit | null> {
  const email = benefitEmailOf(input, opts);
  return email ? memberBenefitFor(ctx, customerId, email) : Promise.resolve(null);
}

/** The e-mail whose membership benefit a sale looks up, or null when the sale prices none (a seller-set price, a prepaid sale). */
export const benefitEmailOf = (input: BookInput, opts: CreateBookingOptions): string | null =>
  opts.priceOverride || opts.prepaid ? null : input.customerInfo.email;

/** The membership discount of the order at this location, if any. */
export function membershipDiscount(b: MemberBenefit | null, locationId: string): OrderDiscount | null {
  if (!b || b.discountPercentage <= 0 || !benefitAppliesAt(b, locationId)) return null;
  return { type: 'membership', code: b.tierName, percent: b.discountPercentage };
}

/** Cents of the amount due now that the membership credits pay (0 when the request does not ask). */
export function creditsToUse(input: BookInput, b: MemberBenefit | null, dueNow: number): number {
  const ask = input.membershipCredits;
  if (!ask) return 0;
  if (!b) throw bad('membershipCredits: the renter has no active membership', 'membershipCredits');
  const wanted = ask.amount != null ? toCents(ask.amount) : b.creditBalance;
  if (wanted > b.creditBalance) throw creditOverdraftError(`The membership has ${b.creditBalance} cents of credits; ${wanted} were asked for`);
  return Math.max(0, Math.min(wanted, dueNow));
}

/** Per rental, the part of the credits it is paid with (by value), and the credit movements of the booking's batch. */
export function creditPayment(
  ctx: Ctx,
  b: MemberBenefit | null,
  used: number,
  o: { customerId: string; transactionId: string; rentalIds: string[]; totals: number[] },
) {
  if (!b || used <= 0) return { perRental: o.rentalIds.map(() => 0), statements: [] as Stmt[] };
  const perRental = shares(used, o.totals);
  return {
    perRental,
    statements: creditSpendStatements(ctx, {
      customerId: o.customerId,
      membershipId: b.membershipId,
      transactionId: o.transactionId,
      parts: o.rentalIds.map((rentalId, i) => ({ rentalId, amount: perRental[i] })),
    }),
  };
}
