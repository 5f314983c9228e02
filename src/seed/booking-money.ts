import { and, eq } from 'drizzle-orm';
import { MIAMI_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { bookings } from '../db/schema/bookings';
import { inventoryIds } from './inventory';
import { demoTransactionId } from './bookings';
import { BookBody } from '../modules/bookings/types';
import { accountCreditSale, createBooking, creditBooking, refundBookingPart } from '../modules/bookings/service';

/**
 * The operator's money actions on a booking (issue 33), shown on one demo booking: a pontoon paid by card
 * (`txn_<tag>_goodwill`, ten days from today, Miami's calendar), refunded $25 in part without cancelling it
 * and given a $20 goodwill credit (which goes to the renter's account credit: the booking was paid in full).
 * Two days later Gwen books the pontoon again (`txn_<tag>_credit`) and pays $15 of it with that account
 * credit (`accountCredit`), the card the rest: $5 stays on her account.
 */
async function seedBookingMoney(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const [goodwillDone, creditDone] = await Promise.all(['goodwill', 'credit'].map((k) => written(ctx, op, demoTransactionId(op, k))));
  if (goodwillDone && creditDone) return false;
  const today = todayIn(ctx, MIAMI_TZ);
  try {
    if (!goodwillDone) {
      const b = await createBooking(ctx, gwensBooking(op, addDays(today, 10), '09:00', '11:00'), {
        source: 'operator',
        transactionId: demoTransactionId(op, 'goodwill'),
      });
      await refundBookingPart(ctx, b.rentalId, { amount: 25, reason: 'Late departure: the boat left 30 minutes late (demo)' });
      await creditBooking(ctx, b.rentalId, { amount: 20, reason: 'Rain shower on the trip (demo)' });
    }
    if (!creditDone)
      await createBooking(
        withAccountCredit(ctx),
        { ...gwensBooking(op, addDays(today, 12), '13:00', '15:00'), accountCredit: { amount: 15 } },
        { source: 'operator', transactionId: demoTransactionId(op, 'credit') },
      );
  } catch (err) {
    // A demo slot taken by hand in the sandbox is not an error of the seed.
    ctx.log.warn('demo refund, credit and credit spend skipped', { operator: op.customerId, error: String(err) });
  }
  return true;
}

/**
 * The seed's context may carry no module hooks (Demo Marina's steps run on a bare system context): the
 * booking paid with account credit brings the one sale extension it asks for.
 */
const withAccountCredit = (ctx: Ctx): Ctx =>
  ctx.hooks.sale?.includes(accountCreditSale) ? ctx : { ...ctx, hooks: { ...ctx.hooks, sale: [...(ctx.hooks.sale ?? []), accountCreditSale] } };

async function written(ctx: Ctx, op: DemoOperator, transactionId: string): Promise<boolean> {
  const row = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.customerId, op.customerId), eq(bookings.transactionId, transactionId)))
    .get();
  return !!row;
}

/** Gwen's pontoon booking on a day of Miami's calendar, paid by card. */
function gwensBooking(op: DemoOperator, day: string, from: string, to: string) {
  const miami = (time: string) => new Date(wallTimeToUtc(day, time, MIAMI_TZ)).toISOString();
  return BookBody.parse({
    paymentMethodId: 'pm_card_visa',
    rentalDetails: { inventoryId: inventoryIds(op).pontoon, startTime: miami(from), endTime: miami(to), participants: 4 },
    customerInfo: { firstName: 'Gwen', lastName: 'Goodwill', email: 'gwen.goodwill@renter.test', phone: '+13055550177' },
    rentalPricing: {},
    extendedData: { seed: 'demo' },
  });
}

export const bookingMoneySeed: OperatorSeedStep = { name: 'booking-money', run: seedBookingMoney };
