import { and, eq } from 'drizzle-orm';
import { MIAMI_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { bookings } from '../db/schema/bookings';
import { inventoryIds } from './inventory';
import { demoTransactionId } from './bookings';
import { BookBody } from '../modules/bookings/types';
import { createBooking, creditBooking, refundBookingPart } from '../modules/bookings/service';

/**
 * The operator's money actions on a booking (issue 33), shown on one demo booking: a pontoon paid by card
 * (`txn_<tag>_goodwill`, ten days from today, Miami's calendar), refunded $25 in part without cancelling it
 * and given a $20 goodwill credit (which goes to the renter's account credit: the booking was paid in full).
 */
async function seedBookingMoney(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const transactionId = demoTransactionId(op, 'goodwill');
  const seen = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.customerId, op.customerId), eq(bookings.transactionId, transactionId)))
    .get();
  if (seen) return false;
  const day = addDays(todayIn(ctx, MIAMI_TZ), 10);
  const miami = (time: string) => new Date(wallTimeToUtc(day, time, MIAMI_TZ)).toISOString();
  const input = BookBody.parse({
    paymentMethodId: 'pm_card_visa',
    rentalDetails: { inventoryId: inventoryIds(op).pontoon, startTime: miami('09:00'), endTime: miami('11:00'), participants: 4 },
    customerInfo: { firstName: 'Gwen', lastName: 'Goodwill', email: 'gwen.goodwill@renter.test', phone: '+13055550177' },
    rentalPricing: {},
    extendedData: { seed: 'demo' },
  });
  try {
    const b = await createBooking(ctx, input, { source: 'operator', transactionId });
    await refundBookingPart(ctx, b.rentalId, { amount: 25, reason: 'Late departure: the boat left 30 minutes late (demo)' });
    await creditBooking(ctx, b.rentalId, { amount: 20, reason: 'Rain shower on the trip (demo)' });
  } catch (err) {
    // A demo slot taken by hand in the sandbox is not an error of the seed.
    ctx.log.warn('demo refund and credit skipped', { transactionId, error: String(err) });
  }
  return true;
}

export const bookingMoneySeed: OperatorSeedStep = { name: 'booking-money', run: seedBookingMoney };
